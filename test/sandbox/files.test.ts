import { randomUUID } from '../support/random';
import { request } from 'node:http';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReportBody } from './helpers';
import { createDraft, draftInput, DESCRIPTION, Sbx, submit, upload } from './helpers';

/** An upload whose body the test streams by hand. */
function streamingUpload(
  url: string,
  token: string,
  headers: Record<string, string> = {},
): { req: ClientRequest; response: Promise<{ status: number; body: string }> } {
  const req = request(url, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png', ...headers },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res: IncomingMessage) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
  return { req, response };
}

const waitFor = async (check: () => Promise<boolean>): Promise<void> => {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('condition not reached');
};

describe('sandbox: files (API part 4, Files)', () => {
  // The service's own body timeout: 11 MiB written on a loaded machine can take over a second,
  // and the 413 must be the limit's answer, not the clock's. The slow body has its own sandbox.
  const sbx = Sbx.perFile();
  let write: string;
  beforeAll(async () => {
    write = (await sbx.newAccount()).write;
  });

  const path = (r: ReportBody, fileId: string, name = 'shot.png'): string =>
    `${sbx.url}/api/reports/${r.id}/files/${fileId}?name=${name}&revision=${r.revision}`;

  it('shows the file as uploading while the body streams: files_pending and file_busy are real', async () => {
    const r = await createDraft(sbx, write);
    const fileId = randomUUID();
    const { req, response } = streamingUpload(path(r, fileId), write);
    req.write(Buffer.alloc(1000, 1));
    await waitFor(async () => {
      const now = await sbx.call<ReportBody>('GET', `/api/reports/${r.id}`, { token: write });
      return now.body.attachments[fileId]?.state === 'uploading';
    });
    const current = (await sbx.call<ReportBody>('GET', `/api/reports/${r.id}`, { token: write }))
      .body;
    expect((await submit(sbx, write, current)).body).toMatchObject({ code: 'files_pending' });
    const second = await upload(sbx, write, current, 'other', 'shot.png', fileId);
    expect(second.body).toMatchObject({ code: 'file_busy' });
    req.end(Buffer.alloc(1000, 2));
    const done = await response;
    expect(done.status).toBe(200);
    const report = JSON.parse(done.body) as ReportBody;
    expect(report.attachments[fileId]).toMatchObject({
      state: 'ready',
      size: 2000,
      content_type: 'image/png',
    });
    expect(report.attachments[fileId]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(report.revision).toBeGreaterThan(r.revision);
  });

  it('stops a body over 10 MiB with 413 too_large as soon as it is exceeded', async () => {
    const r = await createDraft(sbx, write);
    const fileId = randomUUID();
    const { req, response } = streamingUpload(path(r, fileId), write);
    const chunk = Buffer.alloc(1024 * 1024, 7);
    for (let i = 0; i < 11; i++) req.write(chunk);
    const res = await response;
    req.destroy();
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'too_large' });
    const after = (await sbx.call<ReportBody>('GET', `/api/reports/${r.id}`, { token: write }))
      .body;
    expect(after.attachments[fileId]).toBeUndefined();
  });

  it('empty body, bad names, same id with other bytes', async () => {
    const r = await createDraft(sbx, write);
    expect((await upload(sbx, write, r, '')).body).toMatchObject({ code: 'empty_file' });
    expect((await upload(sbx, write, r, 'x', 'a/b.txt')).body).toMatchObject({
      code: 'invalid_filename',
    });
    expect((await upload(sbx, write, r, 'x', 'a\u0001.txt')).body).toMatchObject({
      code: 'invalid_filename',
    });
    const first = await upload(sbx, write, r, 'same bytes');
    const repeat = await upload(sbx, write, r, 'same bytes', 'proof.txt', first.fileId);
    expect(repeat.status).toBe(200);
    expect(repeat.body.revision).toBe(first.body.revision);
    const other = await upload(sbx, write, first.body, 'other bytes', 'proof.txt', first.fileId);
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('file_conflict');
  });

  it('a draft holds at most 10 files (409 file_limit)', async () => {
    let r = await createDraft(sbx, write);
    for (let i = 0; i < 10; i++) r = (await upload(sbx, write, r, `file ${i}`)).body;
    const eleventh = await upload(sbx, write, r, 'one more');
    expect(eleventh.status).toBe(409);
    expect(eleventh.body.code).toBe('file_limit');
  });

  it('links: only ready files of this report; a linked file cannot be deleted', async () => {
    let r = await createDraft(sbx, write);
    const up = await upload(sbx, write, r, 'png bytes');
    r = up.body;
    const link = `![shot](/reports/${r.id}/files/${up.fileId})`;
    const bad = await sbx.call('PUT', `/api/reports/${r.id}`, {
      token: write,
      body: draftInput({
        description: `${DESCRIPTION}\n![x](/reports/${r.id}/files/${randomUUID()})`,
        revision: r.revision,
      }),
    });
    expect(bad.body).toMatchObject({ code: 'invalid_file_reference' });
    r = (
      await sbx.call<ReportBody>('PUT', `/api/reports/${r.id}`, {
        token: write,
        body: draftInput({ description: `${DESCRIPTION}\n${link}`, revision: r.revision }),
      })
    ).body;
    const del = await sbx.call(
      'DELETE',
      `/api/reports/${r.id}/files/${up.fileId}?revision=${r.revision}`,
      { token: write },
    );
    expect(del.body).toMatchObject({ code: 'file_referenced' });
    r = (
      await sbx.call<ReportBody>('PUT', `/api/reports/${r.id}`, {
        token: write,
        body: draftInput({ revision: r.revision }),
      })
    ).body;
    const ok = await sbx.call<ReportBody>(
      'DELETE',
      `/api/reports/${r.id}/files/${up.fileId}?revision=${r.revision}`,
      { token: write },
    );
    expect(ok.status).toBe(200);
    expect(ok.body.attachments[up.fileId]).toBeUndefined();
    expect(ok.body.revision).toBe(r.revision + 1);
  });

  it('downloads the bytes of a ready file; message files wait until sent', async () => {
    let r = await createDraft(sbx, write);
    const up = await upload(sbx, write, r, 'evidence bytes');
    r = (await submit(sbx, write, up.body)).body;
    const file = await fetch(`${sbx.url}/api/reports/${r.id}/files/${up.fileId}`, {
      headers: { authorization: `Bearer ${write}` },
    });
    expect(file.headers.get('content-type')).toBe('application/octet-stream');
    expect(await file.text()).toBe('evidence bytes');
    const extra = await upload(sbx, write, r, 'more evidence', 'more.txt');
    expect(extra.body.attachments[extra.fileId]).toMatchObject({ reply: true, message_id: null });
    const sent = await sbx.call<ReportBody>('POST', `/api/reports/${r.id}/messages`, {
      token: write,
      body: { files: [extra.fileId] },
    });
    expect(sent.body.attachments[extra.fileId]?.message_id).toMatch(/\S/);
    const again = await sbx.call('POST', `/api/reports/${r.id}/messages`, {
      token: write,
      body: { files: [extra.fileId] },
    });
    expect(again.body).toMatchObject({ code: 'file_not_ready' });
    const removeSent = await sbx.call(
      'DELETE',
      `/api/reports/${r.id}/files/${up.fileId}?revision=${extra.body.revision}`,
      { token: write },
    );
    expect(removeSent.status).toBe(409);
  });
});

describe('sandbox: a file body that is too slow', () => {
  const sbx = Sbx.perFile({ fileBodyTimeoutMs: 800 });
  let write: string;
  beforeAll(async () => {
    write = (await sbx.newAccount()).write;
  });

  const path = (r: ReportBody, fileId: string): string =>
    `${sbx.url}/api/reports/${r.id}/files/${fileId}?name=shot.png&revision=${r.revision}`;

  it('answers 408 request_timeout when the file body is too slow', async () => {
    const r = await createDraft(sbx, write);
    const { req, response } = streamingUpload(path(r, randomUUID()), write);
    req.write('slow');
    const res = await response;
    req.destroy();
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'request_timeout' });
  });
});

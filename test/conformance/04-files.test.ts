import { describe, expect, it } from 'vitest';
import type { Report } from '../support/sandbox-client';
import {
  bytes,
  draftInput,
  expectError,
  fileLink,
  freshAccount,
  freshDraft,
  freshDraftWithFile,
  ok,
  useSandbox,
  uuid,
} from './helpers';

const fx = useSandbox();

describe('4. Files — PUT /api/reports/{report_id}/files/{file_id}', () => {
  it('on a draft attaches the file and returns the Report with a new revision', async () => {
    const { me, draft } = await freshDraft(fx);
    const fileId = uuid();
    const data = bytes('GET /search?q=<script> HTTP/1.1\n');
    const report = ok(
      await me.w.upload(draft.id, fileId, {
        revision: draft.revision,
        name: 'request.txt',
        data,
        contentType: 'text/plain',
      }),
    );
    expect(report.revision).toBeGreaterThan(draft.revision);
    expect(report.attachments[fileId]).toMatchObject({
      name: 'request.txt',
      size: data.byteLength,
      content_type: 'text/plain',
    });
    expect(report.status).toBe('draft');
  });

  it('without a Content-Type the file type is application/octet-stream', async () => {
    const { me, draft } = await freshDraft(fx);
    const fileId = uuid();
    const report = ok(
      await me.w.api<Report>('PUT', `/api/reports/${draft.id}/files/${fileId}`, {
        query: { name: 'blob', revision: draft.revision },
        rawBody: new Uint8Array([1, 2, 3]),
      }),
    );
    expect(report.attachments[fileId]?.content_type).toBe('application/octet-stream');
  });

  it('repeating with the same id, bytes, name and type is safe', async () => {
    const { me, draft } = await freshDraft(fx);
    const fileId = uuid();
    const first = await me.w.attach(draft, fileId, 'same bytes', 'same.txt');
    const retry = await me.w.upload(draft.id, fileId, {
      revision: draft.revision,
      name: 'same.txt',
      data: 'same bytes',
    });
    if (retry.status === 409) expectError(retry, 409, 'revision_conflict');
    else expect(ok(retry).attachments[fileId]).toBeDefined();
    const again = ok(
      await me.w.upload(draft.id, fileId, {
        revision: first.revision,
        name: 'same.txt',
        data: 'same bytes',
      }),
    );
    expect(Object.keys(again.attachments)).toEqual([fileId]);
    expect(again.attachments[fileId]?.size).toBe(first.attachments[fileId]?.size);
  });

  it('different content under an existing id gives 409 file_conflict', async () => {
    const { me, draft } = await freshDraft(fx);
    const fileId = uuid();
    const first = await me.w.attach(draft, fileId, 'original', 'a.txt');
    expectError(
      await me.w.upload(draft.id, fileId, {
        revision: first.revision,
        name: 'a.txt',
        data: 'changed',
      }),
      409,
      'file_conflict',
    );
    expect(ok(await me.w.download(draft.id, fileId)).toString('utf8')).toBe('original');
  });

  it('a name with a folder separator or control character gives 422 invalid_filename', async () => {
    const { me, draft } = await freshDraft(fx);
    for (const name of ['dir/file.txt', '..\\evil.txt', 'bell\u0007.txt', 'line\nbreak.txt']) {
      expectError(
        await me.w.upload(draft.id, uuid(), { revision: draft.revision, name }),
        422,
        'invalid_filename',
      );
    }
    expect(ok(await me.w.get(draft.id)).attachments).toEqual({});
  });

  it('name is 1 to 180 characters and required; revision is required (422)', async () => {
    const { me, draft } = await freshDraft(fx);
    ok(await me.w.upload(draft.id, uuid(), { revision: draft.revision, name: 'n'.repeat(180) }));
    const current = ok(await me.w.get(draft.id));
    for (const name of ['', 'n'.repeat(181)]) {
      const res = await me.w.upload(draft.id, uuid(), { revision: current.revision, name });
      expect(res.status).toBe(422);
    }
    const noName = await me.w.api('PUT', `/api/reports/${draft.id}/files/${uuid()}`, {
      query: { revision: current.revision },
      rawBody: 'x',
      contentType: 'text/plain',
    });
    expectError(noName, 422, 'validation_error');
    const noRevision = await me.w.api('PUT', `/api/reports/${draft.id}/files/${uuid()}`, {
      query: { name: 'x.txt' },
      rawBody: 'x',
      contentType: 'text/plain',
    });
    expectError(noRevision, 422, 'validation_error');
  });

  it('an empty body gives 422 empty_file', async () => {
    const { me, draft } = await freshDraft(fx);
    expectError(
      await me.w.upload(draft.id, uuid(), { revision: draft.revision, data: new Uint8Array(0) }),
      422,
      'empty_file',
    );
  });

  // The size limit (413 too_large) and the file count (409 file_limit), at their exact edges:
  // 08-limits-sizes.test.ts.

  it('an operation already running on the file gives 409 file_busy', async () => {
    const { me, draft } = await freshDraft(fx);
    const fileId = uuid();
    const data = Buffer.alloc(64 * 1024, 3);
    const upload = await me.w.startSlowUpload(draft, fileId, data);
    const during = ok(await me.w.get(draft.id));
    expectError(
      await me.w.upload(draft.id, fileId, {
        revision: during.revision,
        name: 'slow.bin',
        data,
        contentType: 'application/octet-stream',
      }),
      409,
      'file_busy',
    );
    ok(await upload.finish());
  });

  it('a stale revision gives 409 revision_conflict with current', async () => {
    const { me, draft } = await freshDraft(fx);
    const saved = ok(await me.w.save(draft.id, draftInput(fx.open, { revision: draft.revision })));
    const body = expectError(
      await me.w.upload(draft.id, uuid(), { revision: draft.revision }),
      409,
      'revision_conflict',
    );
    expect(body.current).toEqual(saved);
  });

  it('before a final decision the file waits as message evidence; the submission does not change', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    const fileId = uuid();
    const after = ok(
      await me.w.upload(report.id, fileId, { revision: report.revision, name: 'more.txt' }),
    );
    expect(after.status).toBe('triaging');
    expect(after.submission).toEqual(report.submission);
    ok(await me.w.post(report.id, { body: 'More evidence attached.', files: [fileId] }));
  });

  it('another researcher’s report gives 404 not_found', async () => {
    const me = await freshAccount(fx.sb);
    const other = await freshAccount(fx.sb);
    const draft = await me.w.draft(fx.open);
    expectError(
      await other.w.upload(draft.id, uuid(), { revision: draft.revision }),
      404,
      'not_found',
    );
  });

  it('a read key gets 403 read_only_key', async () => {
    const { me, draft } = await freshDraft(fx);
    expectError(
      await me.r.upload(draft.id, uuid(), { revision: draft.revision }),
      403,
      'read_only_key',
    );
  });
});

describe('4. Files — GET /api/reports/{report_id}/files/{file_id}', () => {
  it('returns the bytes of a ready file as application/octet-stream', async () => {
    const { me, draft } = await freshDraft(fx);
    const fileId = uuid();
    const data = Buffer.from([0, 1, 2, 250, 255, 10, 13]);
    ok(
      await me.w.upload(draft.id, fileId, {
        revision: draft.revision,
        name: 'raw.png',
        data,
        contentType: 'image/png',
      }),
    );
    const got = await me.w.download(draft.id, fileId);
    expect(ok(got).equals(data)).toBe(true);
    expect(got.headers.get('content-type')).toMatch(/^application\/octet-stream/);
  });

  it('a file of another researcher’s report, or an unknown file, gives 404 not_found', async () => {
    const me = await freshAccount(fx.sb);
    const other = await freshAccount(fx.sb);
    const draft = await me.w.draft(fx.open);
    const fileId = uuid();
    await me.w.attach(draft, fileId);
    expectError(await other.w.download(draft.id, fileId), 404, 'not_found');
    expectError(await me.w.download(draft.id, uuid()), 404, 'not_found');
    const second = await me.w.draft(fx.open);
    expectError(await me.w.download(second.id, fileId), 404, 'not_found');
  });

  it('a read key may download', async () => {
    const { me, draft } = await freshDraft(fx);
    const fileId = uuid();
    await me.w.attach(draft, fileId, 'readable');
    expect(ok(await me.r.download(draft.id, fileId)).toString('utf8')).toBe('readable');
  });
});

describe('4. Files — DELETE /api/reports/{report_id}/files/{file_id}', () => {
  it('removes a file from a draft and raises revision', async () => {
    const { me, draft, fileId, withFile } = await freshDraftWithFile(fx);
    const removed = ok(await me.w.removeFile(draft.id, fileId, withFile.revision));
    expect(removed.attachments[fileId]).toBeUndefined();
    expect(removed.revision).toBeGreaterThan(withFile.revision);
    expectError(await me.w.download(draft.id, fileId), 404, 'not_found');
  });

  it('a file linked from the description gives 409 file_referenced until the link is removed', async () => {
    const { me, draft, fileId, withFile } = await freshDraftWithFile(fx);
    const linked = ok(
      await me.w.save(
        draft.id,
        draftInput(fx.open, {
          description: `${draftInput(fx.open).description}\n\n${fileLink(draft.id, fileId)}`,
          revision: withFile.revision,
        }),
      ),
    );
    expectError(await me.w.removeFile(draft.id, fileId, linked.revision), 409, 'file_referenced');
    expect(ok(await me.w.get(draft.id)).attachments[fileId]).toBeDefined();
    const unlinked = ok(
      await me.w.save(draft.id, draftInput(fx.open, { revision: linked.revision })),
    );
    ok(await me.w.removeFile(draft.id, fileId, unlinked.revision));
  });

  it('removing a file while its upload is running gives 409 file_busy', async () => {
    const { me, draft } = await freshDraft(fx);
    const fileId = uuid();
    const upload = await me.w.startSlowUpload(draft, fileId, Buffer.alloc(64 * 1024, 4));
    const during = ok(await me.w.get(draft.id));
    expectError(await me.w.removeFile(draft.id, fileId, during.revision), 409, 'file_busy');
    const done = ok(await upload.finish()) as Report;
    expect(done.attachments[fileId]?.size).toBe(64 * 1024);
  });

  it('a stale revision gives 409 revision_conflict with current', async () => {
    const { me, draft, fileId, withFile } = await freshDraftWithFile(fx);
    const body = expectError(
      await me.w.removeFile(draft.id, fileId, draft.revision),
      409,
      'revision_conflict',
    );
    expect(body.current).toEqual(withFile);
  });

  it('removes a pending message file not yet sent', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    const fileId = uuid();
    const after = ok(await me.w.upload(report.id, fileId, { revision: report.revision }));
    ok(await me.w.removeFile(report.id, fileId, after.revision));
    expectError(
      await me.w.post(report.id, { body: 'see file', files: [fileId] }),
      409,
      'file_not_ready',
    );
  });

  it('submitted files do not change', async () => {
    const { me, draft } = await freshDraft(fx);
    const fileId = uuid();
    const withFile = await me.w.attach(draft, fileId, 'frozen');
    const submitted = ok(await me.w.submit(draft.id, withFile.revision));
    const res = await me.w.removeFile(draft.id, fileId, submitted.revision);
    expect(res.status).toBeGreaterThanOrEqual(400);
    const now = ok(await me.w.get(draft.id));
    expect(now.submission?.attachments[fileId]).toBeDefined();
    expect(ok(await me.w.download(draft.id, fileId)).toString('utf8')).toBe('frozen');
  });

  it('sent message files do not change', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    const fileId = uuid();
    const after = ok(
      await me.w.upload(report.id, fileId, { revision: report.revision, data: 'sent' }),
    );
    ok(await me.w.post(report.id, { body: 'evidence', files: [fileId] }));
    const current = ok(await me.w.get(report.id));
    const res = await me.w.removeFile(report.id, fileId, current.revision);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(after.revision).toBeGreaterThan(report.revision);
    const thread = ok(await me.w.messages(report.id)).messages;
    expect(thread.at(-1)?.attachments.map((f) => f.id)).toEqual([fileId]);
    expect(ok(await me.w.download(report.id, fileId)).toString('utf8')).toBe('sent');
  });

  it('another researcher’s report gives 404; a read key gets 403 read_only_key', async () => {
    const { me, draft, fileId, withFile } = await freshDraftWithFile(fx);
    const other = await freshAccount(fx.sb);
    expectError(await other.w.removeFile(draft.id, fileId, withFile.revision), 404, 'not_found');
    expectError(await me.r.removeFile(draft.id, fileId, withFile.revision), 403, 'read_only_key');
    expect(ok(await me.w.get(draft.id)).attachments[fileId]).toBeDefined();
  });
});

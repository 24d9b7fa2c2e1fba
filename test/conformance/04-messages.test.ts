import { describe, expect, it } from 'vitest';
import { expectError, freshAccount, freshDraftWithFile, ok, useSandbox, uuid } from './helpers';

const fx = useSandbox();

describe('4. Messages — GET /api/reports/{report_id}/messages', () => {
  it('returns the thread as a MessageList, oldest first, with each author', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    await fx.sb.act(report.id, { actor: 'agent', status: 'needs_info', message: 'Which browser?' });
    await fx.sb.clock(2);
    ok(await me.w.post(report.id, { body: 'Firefox 128.' }));
    await fx.sb.clock(2);
    await fx.sb.act(report.id, { actor: 'founder', status: 'human_review', message: 'Looking.' });
    const thread = ok(await me.w.messages(report.id)).messages;
    const ours = thread.filter((m) =>
      ['Which browser?', 'Firefox 128.', 'Looking.'].includes(m.body),
    );
    expect(ours.map((m) => [m.author, m.body])).toEqual([
      ['agent', 'Which browser?'],
      ['researcher', 'Firefox 128.'],
      ['founder', 'Looking.'],
    ]);
    const times = thread.map((m) => m.at).filter((t): t is string => t !== null);
    expect(times).toEqual([...times].sort((a, b) => Date.parse(a) - Date.parse(b)));
  });

  it('another researcher’s thread gives 404 not_found', async () => {
    const me = await freshAccount(fx.sb);
    const other = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    expectError(await other.w.messages(report.id), 404, 'not_found');
  });

  it('a read key may read the thread', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    ok(await me.r.messages(report.id));
  });
});

describe('4. Messages — POST /api/reports/{report_id}/messages', () => {
  it('a message on needs_info is a reply: status becomes triaging', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    await fx.sb.act(report.id, { actor: 'agent', status: 'needs_info', message: 'Need a PoC.' });
    const replied = ok(await me.w.post(report.id, { body: 'PoC: open the link.' }));
    expect(replied.status).toBe('triaging');
    const last = ok(await me.w.messages(report.id)).messages.at(-1);
    expect(last).toMatchObject({
      author: 'researcher',
      body: 'PoC: open the link.',
      attachments: [],
    });
  });

  it('a reply with only files (no body) also moves needs_info to triaging', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    await fx.sb.act(report.id, { actor: 'agent', status: 'needs_info', message: 'Screenshot?' });
    const asked = ok(await me.w.get(report.id));
    const fileId = uuid();
    const withFile = ok(
      await me.w.upload(report.id, fileId, { revision: asked.revision, name: 's.png' }),
    );
    const replied = ok(await me.w.post(report.id, { files: [fileId] }));
    expect(replied.status).toBe('triaging');
    expect(replied.revision).toBe(withFile.revision);
  });

  it('in other statuses the status does not change', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    expect(ok(await me.w.post(report.id, { body: 'extra note' })).status).toBe('triaging');
    await fx.sb.act(report.id, { actor: 'founder', status: 'paused' });
    expect(ok(await me.w.post(report.id, { body: 'still there?' })).status).toBe('paused');
    await fx.sb.act(report.id, { actor: 'founder', status: 'human_review' });
    expect(ok(await me.w.post(report.id, { body: 'ping' })).status).toBe('human_review');
  });

  it('is not idempotent: every call adds a message', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    const before = ok(await me.w.messages(report.id)).messages.length;
    ok(await me.w.post(report.id, { body: 'same text' }));
    ok(await me.w.post(report.id, { body: 'same text' }));
    const after = ok(await me.w.messages(report.id)).messages;
    expect(after).toHaveLength(before + 2);
    expect(after.slice(-2).map((m) => m.body)).toEqual(['same text', 'same text']);
    expect(after.at(-1)?.id).not.toBe(after.at(-2)?.id);
  });

  it('sends a ready message file with the message', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    const fileId = uuid();
    const data = 'screenshot bytes';
    ok(
      await me.w.upload(report.id, fileId, {
        revision: report.revision,
        name: 'shot.png',
        data,
        contentType: 'image/png',
      }),
    );
    ok(await me.w.post(report.id, { files: [fileId] }));
    const last = ok(await me.w.messages(report.id)).messages.at(-1);
    expect(last?.author).toBe('researcher');
    expect(last?.attachments).toEqual([
      { id: fileId, name: 'shot.png', size: Buffer.byteLength(data), content_type: 'image/png' },
    ]);
  });

  it('a listed file that is not an uploaded ready message file gives 409 file_not_ready', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    const before = ok(await me.w.messages(report.id)).messages.length;
    expectError(
      await me.w.post(report.id, { body: 'see file', files: [uuid()] }),
      409,
      'file_not_ready',
    );
    const other = await freshAccount(fx.sb);
    const theirs = await other.w.submitted(fx.open);
    const theirFile = uuid();
    ok(await other.w.upload(theirs.id, theirFile, { revision: theirs.revision }));
    expectError(await me.w.post(report.id, { files: [theirFile] }), 409, 'file_not_ready');
    expect(ok(await me.w.messages(report.id)).messages).toHaveLength(before);
  });

  it('a file of the submitted draft is not a message file (409 file_not_ready)', async () => {
    const { me, draft, fileId, withFile } = await freshDraftWithFile(fx);
    ok(await me.w.submit(draft.id, withFile.revision));
    expectError(await me.w.post(draft.id, { files: [fileId] }), 409, 'file_not_ready');
  });

  it('an unfinished message file gives 409 file_not_ready', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    const fileId = uuid();
    const upload = await me.w.startSlowUpload(report, fileId, Buffer.alloc(64 * 1024, 9));
    expectError(await me.w.post(report.id, { files: [fileId] }), 409, 'file_not_ready');
    ok(await upload.finish());
    ok(await me.w.post(report.id, { files: [fileId] }));
  });

  it('needs a non-empty body or at least one file (422)', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    expect((await me.w.post(report.id, {})).status).toBe(422);
    expect((await me.w.post(report.id, { body: '', files: [] })).status).toBe(422);
  });

  it('body is at most 12000 characters and files at most 10 UUIDv4 ids (422 validation_error)', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    ok(await me.w.post(report.id, { body: 'b'.repeat(12000) }));
    expectError(await me.w.post(report.id, { body: 'b'.repeat(12001) }), 422, 'validation_error');
    const eleven = Array.from({ length: 11 }, () => uuid());
    expectError(await me.w.post(report.id, { body: 'x', files: eleven }), 422, 'validation_error');
    expectError(
      await me.w.post(report.id, { body: 'x', files: ['not-a-uuid'] }),
      422,
      'validation_error',
    );
  });

  it('the e-mail must be verified (403 email_unverified)', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    await fx.sb.patchAccount(me.account.uid, { email_verified: false });
    expectError(await me.w.post(report.id, { body: 'hello' }), 403, 'email_unverified');
  });

  it('another researcher’s report gives 404 not_found; a read key gets 403 read_only_key', async () => {
    const me = await freshAccount(fx.sb);
    const other = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    expectError(await other.w.post(report.id, { body: 'hi' }), 404, 'not_found');
    expectError(await me.r.post(report.id, { body: 'hi' }), 403, 'read_only_key');
    expect(ok(await me.w.messages(report.id)).messages.filter((m) => m.body === 'hi')).toHaveLength(
      0,
    );
  });
});

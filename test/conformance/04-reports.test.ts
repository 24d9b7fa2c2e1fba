import { describe, expect, it } from 'vitest';
import type { Program, Report, ReportInput } from '../support/sandbox-client';
import {
  draftInput,
  expectError,
  fileLink,
  freshAccount,
  freshDraft,
  freshDraftWithFile,
  HEADINGS_ONLY,
  ok,
  useSandbox,
  uuid,
} from './helpers';

const fx = useSandbox();

/** `who` saves report `id` with its write key: the open program's valid input with `changes`. */
function saveAs(
  who: Awaited<ReturnType<typeof freshAccount>>,
  id: string,
  changes: Partial<ReportInput> = {},
) {
  return who.w.save(id, draftInput(fx.programs.open.id, changes));
}

describe('4. Reports — GET /api/reports', () => {
  it('lists only the caller’s reports as a ReportPage, newest update first', async () => {
    const me = await freshAccount(fx.sb);
    const other = await freshAccount(fx.sb);
    const a = await me.w.draft(fx.programs.open.id, { title: 'a' });
    await fx.sb.clock(2);
    const b = await me.w.draft(fx.programs.open.id, { title: 'b' });
    await fx.sb.clock(2);
    const foreign = await other.w.draft(fx.programs.open.id);
    const page = ok(await me.w.list());
    expect(page.reports.map((r) => r.id)).toEqual([b.id, a.id]);
    expect(page.reports.map((r) => r.id)).not.toContain(foreign.id);
    expect(page.next_cursor).toBeNull();
    for (const summary of page.reports) {
      const full = ok(await me.w.get(summary.id));
      for (const [key, value] of Object.entries(summary)) {
        expect((full as Record<string, unknown>)[key], key).toEqual(value);
      }
    }
  });

  it('pages through next_cursor (the last id of the page); null on the last page', async () => {
    const me = await freshAccount(fx.sb);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.unshift((await me.w.draft(fx.programs.open.id, { title: `r${i}` })).id);
      await fx.sb.clock(1);
    }
    const first = ok(await me.w.list({ limit: 2 }));
    expect(first.reports.map((r) => r.id)).toEqual(ids.slice(0, 2));
    expect(first.next_cursor).toBe(ids[1]);
    const second = ok(await me.w.list({ limit: 2, cursor: first.next_cursor }));
    expect(second.reports.map((r) => r.id)).toEqual(ids.slice(2, 4));
    expect(second.next_cursor).toBe(ids[3]);
    const third = ok(await me.w.list({ limit: 2, cursor: second.next_cursor }));
    expect(third.reports.map((r) => r.id)).toEqual(ids.slice(4));
    expect(third.next_cursor).toBeNull();
  });

  it('the default page size is 50', async () => {
    const me = await freshAccount(fx.sb);
    for (let i = 0; i < 51; i++) await me.w.draft(fx.programs.open.id, { title: `n${i}` });
    const page = ok(await me.w.list());
    expect(page.reports).toHaveLength(50);
    expect(page.next_cursor).not.toBeNull();
    const rest = ok(await me.w.list({ cursor: page.next_cursor }));
    expect(rest.reports).toHaveLength(1);
    expect(rest.next_cursor).toBeNull();
  });

  it('updated_since returns only the reports changed after that time', async () => {
    const me = await freshAccount(fx.sb);
    const old = await me.w.draft(fx.programs.open.id, { title: 'old' });
    await fx.sb.clock(5);
    const changing = await me.w.draft(fx.programs.open.id, { title: 'changing' });
    const since = changing.updated_at ?? '';
    await fx.sb.clock(5);
    const saved = ok(
      await saveAs(me, changing.id, { title: 'changed', revision: changing.revision }),
    );
    const fresh = await me.w.draft(fx.programs.open.id, { title: 'fresh' });
    const page = ok(await me.w.list({ updated_since: since }));
    expect(page.reports.map((r) => r.id).sort()).toEqual([saved.id, fresh.id].sort());
    expect(page.reports.map((r) => r.id)).not.toContain(old.id);
  });

  it('updated_since must be a date-time with a time zone (else 422 validation_error)', async () => {
    const me = await freshAccount(fx.sb);
    expectError(await me.w.list({ updated_since: 'yesterday' }), 422, 'validation_error');
    expectError(await me.w.list({ updated_since: '2024-01-01T00:00:00' }), 422, 'validation_error');
  });

  it('updated_since with a URL-encoded offset means the same instant as the Z form', async () => {
    const me = await freshAccount(fx.sb);
    const first = await me.w.draft(fx.programs.open.id, { title: 'first' });
    await fx.sb.clock(5);
    const second = await me.w.draft(fx.programs.open.id, { title: 'second' });
    const since = new Date(Date.parse(first.updated_at ?? '') + 1000);
    const z = since.toISOString();
    const shifted = new Date(since.getTime() + 2 * 3600 * 1000)
      .toISOString()
      .replace('Z', '+02:00');
    const viaZ = ok(await me.w.list({ updated_since: z })).reports.map((r) => r.id);
    const viaOffset = ok(await me.w.list({ updated_since: shifted })).reports.map((r) => r.id);
    expect(viaZ).toEqual([second.id]);
    expect(viaOffset).toEqual(viaZ);
  });

  it('a cursor whose report no longer exists gives 422 validation_error', async () => {
    const me = await freshAccount(fx.sb);
    await me.w.draft(fx.programs.open.id);
    expectError(await me.w.list({ cursor: uuid() }), 422, 'validation_error');
  });

  it('limit is 1 to 100: 100 is accepted, 0 and 101 give 422 validation_error', async () => {
    const me = await freshAccount(fx.sb);
    ok(await me.w.list({ limit: 100 }));
    ok(await me.w.list({ limit: 1 }));
    expectError(await me.w.list({ limit: 0 }), 422, 'validation_error');
    expectError(await me.w.list({ limit: 101 }), 422, 'validation_error');
    expectError(await me.w.list({ limit: 'ten' }), 422, 'validation_error');
    expectError(await me.w.list({ cursor: 'not-a-uuid' }), 422, 'validation_error');
  });

  it('needs a token (401 unauthenticated)', async () => {
    expectError(await fx.sb.api('GET', '/api/reports'), 401, 'unauthenticated');
  });
});

describe('4. Reports — GET /api/reports/{report_id}', () => {
  it('returns the full Report', async () => {
    const { me, draft } = await freshDraft(fx);
    const got = ok(await me.w.get(draft.id));
    expect(got).toEqual(draft);
  });

  it('a report that is not the caller’s gives 404 not_found', async () => {
    const me = await freshAccount(fx.sb);
    const other = await freshAccount(fx.sb);
    const draft = await me.w.draft(fx.programs.open.id);
    expectError(await other.w.get(draft.id), 404, 'not_found');
    expectError(await other.w.get(uuid()), 404, 'not_found');
  });
});

describe('4. Reports — PUT /api/reports/{report_id}', () => {
  it('creates a draft with revision 0 and the client’s id', async () => {
    const me = await freshAccount(fx.sb);
    const id = uuid();
    const input = draftInput(fx.programs.open.id);
    const report = ok(await me.w.save(id, input));
    expect(report).toMatchObject({
      id,
      program_id: fx.programs.open.id,
      status: 'draft',
      title: input.title,
      asset: input.asset,
      description: input.description,
      cvss_vector: input.cvss_vector,
      submission: null,
      decision: null,
      submitted_at: null,
      withdrawn_at: null,
    });
    expect(report.attachments).toEqual({});
    const program = ok(await fx.sb.api<Program>('GET', `/api/programs/${fx.programs.open.id}`));
    expect(report.program_name).toBe(program.name);
  });

  it('cvss_vector is optional and defaults to the empty string', async () => {
    const me = await freshAccount(fx.sb);
    const { cvss_vector: _omit, ...input } = draftInput(fx.programs.open.id);
    const report = ok(await me.w.save(uuid(), input));
    expect(report.cvss_vector).toBe('');
  });

  it('saving with the revision from the last response replaces the content and raises revision', async () => {
    const { me, draft } = await freshDraft(fx);
    const saved = ok(
      await saveAs(me, draft.id, {
        title: 'New title',
        asset: 'api.example.com',
        cvss_vector: '',
        revision: draft.revision,
      }),
    );
    expect(saved.revision).toBeGreaterThan(draft.revision);
    expect(saved).toMatchObject({ title: 'New title', asset: 'api.example.com', cvss_vector: '' });
  });

  it('the same id never makes a second report (a repeated create is safe)', async () => {
    const me = await freshAccount(fx.sb);
    const id = uuid();
    const input = draftInput(fx.programs.open.id);
    ok(await me.w.save(id, input));
    const again = await me.w.save(id, input);
    if (again.status === 409) {
      const body = expectError(again, 409, 'revision_conflict');
      expect(body.current?.id).toBe(id);
    } else {
      expect(ok(again).id).toBe(id);
    }
    const page = ok(await me.w.list());
    expect(page.reports.filter((r) => r.id === id)).toHaveLength(1);
    expect(page.reports).toHaveLength(1);
  });

  it('rule 1: the e-mail must be verified (403 email_unverified)', async () => {
    const me = await freshAccount(fx.sb, { email_verified: false });
    expectError(await saveAs(me, uuid()), 403, 'email_unverified');
    const page = ok(await me.w.list());
    expect(page.reports).toHaveLength(0);
  });

  it('rule 2: only a draft can be edited (409 invalid_state)', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.programs.open.id);
    expectError(
      await saveAs(me, report.id, { title: 'edit', revision: report.revision }),
      409,
      'invalid_state',
    );
    expect(ok(await me.w.get(report.id)).title).toBe(report.title);
  });

  it('rule 3: program_id cannot change after creation', async () => {
    const { me, draft } = await freshDraft(fx);
    const res = await me.w.save(
      draft.id,
      draftInput(fx.programs.closed.id, { revision: draft.revision }),
    );
    expect([409, 422]).toContain(res.status);
    expect(ok(await me.w.get(draft.id)).program_id).toBe(fx.programs.open.id);
  });

  it('rule 4: a stale revision gives 409 revision_conflict with current', async () => {
    const { me, draft } = await freshDraft(fx);
    const saved = ok(await saveAs(me, draft.id, { title: 'second', revision: draft.revision }));
    const body = expectError(
      await saveAs(me, draft.id, { title: 'stale', revision: draft.revision }),
      409,
      'revision_conflict',
    );
    expect(body.current).toEqual(saved);
    const merged = ok(
      await saveAs(me, draft.id, {
        title: 'merged',
        revision: body.current?.revision ?? -1,
      }),
    );
    expect(merged.title).toBe('merged');
  });

  it('rule 5: a link to a file that is not a ready file of this report gives 422 invalid_file_reference', async () => {
    const { me, draft } = await freshDraft(fx);
    const other = await me.w.draft(fx.programs.open.id);
    const otherWithFile = await me.w.attach(other);
    const foreignFile = Object.keys(otherWithFile.attachments)[0] ?? '';
    const links = {
      'an unknown file id': fileLink(draft.id, uuid()),
      "another report's file": fileLink(other.id, foreignFile),
      "another report's file under this report": fileLink(draft.id, foreignFile),
    };
    for (const [what, link] of Object.entries(links)) {
      const description = `${draftInput('x').description}\n\n${link}`;
      const res = await saveAs(me, draft.id, { description, revision: draft.revision });
      expect(res.status, what).toBe(422);
      expectError(res, 422, 'invalid_file_reference');
    }
  });

  it('rule 5: a link to a file still uploading gives 422 invalid_file_reference', async () => {
    const { me, draft } = await freshDraft(fx);
    const fileId = uuid();
    const upload = await me.w.startSlowUpload(draft, fileId, Buffer.alloc(64 * 1024, 5));
    const during = ok(await me.w.get(draft.id));
    const description = `${draftInput('x').description}\n\n${fileLink(draft.id, fileId)}`;
    expectError(
      await saveAs(me, draft.id, { description, revision: during.revision }),
      422,
      'invalid_file_reference',
    );
    const done = ok(await upload.finish()) as Report;
    ok(await saveAs(me, draft.id, { description, revision: done.revision }));
  });

  it('rule 5: a link to a ready file of this report is accepted', async () => {
    const { me, draft, fileId, withFile } = await freshDraftWithFile(fx);
    const description = `${draftInput('x').description}\n\n${fileLink(draft.id, fileId)}`;
    const saved = ok(await saveAs(me, draft.id, { description, revision: withFile.revision }));
    expect(saved.description).toBe(description);
  });

  it('another researcher’s report id gives 404 not_found and changes nothing', async () => {
    const me = await freshAccount(fx.sb);
    const other = await freshAccount(fx.sb);
    const draft = await me.w.draft(fx.programs.open.id);
    expectError(await saveAs(other, draft.id, { title: 'hijack', revision: 0 }), 404, 'not_found');
    expectError(
      await saveAs(other, draft.id, { title: 'hijack', revision: draft.revision }),
      404,
      'not_found',
    );
    expect(ok(await me.w.get(draft.id)).title).toBe(draft.title);
    expect(ok(await other.w.list()).reports).toHaveLength(0);
  });

  it('no other fields are accepted (422 validation_error)', async () => {
    const me = await freshAccount(fx.sb);
    expectError(
      await me.w.save(uuid(), { ...draftInput(fx.programs.open.id), status: 'accepted' }),
      422,
      'validation_error',
    );
  });

  it('required fields and bounds are checked (422 validation_error)', async () => {
    const me = await freshAccount(fx.sb);
    const { title: _t, ...noTitle } = draftInput(fx.programs.open.id);
    const bad: Record<string, unknown>[] = [
      noTitle,
      { ...draftInput(fx.programs.open.id), revision: -1 },
      { ...draftInput(fx.programs.open.id), program_id: 'Not_A_Valid_Id!' },
      { ...draftInput(fx.programs.open.id), cvss_vector: 'CVSS:3.1/AV:Q' },
      { ...draftInput(fx.programs.open.id), title: 42 },
    ];
    for (const body of bad) {
      expectError(await me.w.save(uuid(), body), 422, 'validation_error');
    }
    expect(ok(await me.w.list()).reports).toHaveLength(0);
  });

  it('a body that is not JSON gives 422 validation_error', async () => {
    const me = await freshAccount(fx.sb);
    expectError(
      await me.w.api('PUT', `/api/reports/${uuid()}`, {
        rawBody: '{"program_id": ',
        contentType: 'application/json',
      }),
      422,
      'validation_error',
    );
  });
});

describe('4. Reports — POST /api/reports/{report_id}/submit', () => {
  it('moves the draft to triaging and freezes content, files and policy into submission', async () => {
    const { me, draft, fileId, withFile } = await freshDraftWithFile(fx);
    const submitted = ok(await me.w.submit(draft.id, withFile.revision));
    expect(submitted.status).toBe('triaging');
    expect(submitted.revision).toBeGreaterThan(withFile.revision);
    expect(submitted.submitted_at).not.toBeNull();
    expect(submitted.submission?.content).toMatchObject({
      title: draft.title,
      asset: draft.asset,
      description: draft.description,
      cvss_vector: draft.cvss_vector,
    });
    expect(Object.keys(submitted.submission?.attachments ?? {})).toEqual([fileId]);
    expect(submitted.submission?.payments.status).toBe('ready');
    const program = ok(await fx.sb.api<Program>('GET', `/api/programs/${fx.programs.open.id}`));
    expect(submitted.submission?.program).toMatchObject({
      policy_version: program.policy_version,
      name: program.name,
      scope: program.scope,
    });
  });

  it('403 email_unverified when the e-mail is not verified', async () => {
    const { me, draft } = await freshDraft(fx);
    await fx.sb.patchAccount(me.account.uid, { email_verified: false });
    expectError(await me.w.submit(draft.id, draft.revision), 403, 'email_unverified');
    expect(ok(await me.w.get(draft.id)).status).toBe('draft');
  });

  it('403 payments_not_ready when the payments status is not ready', async () => {
    const me = await freshAccount(fx.sb, { payments_status: 'not_started' });
    const draft = await me.w.draft(fx.programs.open.id);
    expectError(await me.w.submit(draft.id, draft.revision), 403, 'payments_not_ready');
    expect(ok(await me.w.get(draft.id)).status).toBe('draft');
  });

  it('422 incomplete_report for an empty title, asset, or description without text below the headings', async () => {
    const me = await freshAccount(fx.sb);
    for (const overrides of [
      { title: '' },
      { asset: '' },
      { description: '' },
      { description: HEADINGS_ONLY },
    ]) {
      const draft = await me.w.draft(fx.programs.open.id, overrides);
      expectError(await me.w.submit(draft.id, draft.revision), 422, 'incomplete_report');
      expect(ok(await me.w.get(draft.id)).status).toBe('draft');
    }
  });

  it('409 files_pending while an upload is unfinished', async () => {
    const { me, draft } = await freshDraft(fx);
    const upload = await me.w.startSlowUpload(draft, uuid(), Buffer.alloc(64 * 1024, 7), 'big.bin');
    const during = ok(await me.w.get(draft.id));
    expectError(await me.w.submit(draft.id, during.revision), 409, 'files_pending');
    const done = ok(await upload.finish()) as Report;
    expect(ok(await me.w.submit(draft.id, done.revision)).status).toBe('triaging');
  });

  it('409 program_closed when the program intake is closed or paused', async () => {
    const me = await freshAccount(fx.sb);
    for (const program of [fx.programs.closed, fx.programs.paused]) {
      const draft = await me.w.draft(program.id);
      expectError(await me.w.submit(draft.id, draft.revision), 409, 'program_closed');
    }
  });

  it('409 pool_low when the program reward pool is paused', async () => {
    const me = await freshAccount(fx.sb);
    const draft = await me.w.draft(fx.programs.poolPaused.id);
    expectError(await me.w.submit(draft.id, draft.revision), 409, 'pool_low');
  });

  it('409 active_limit with five active reports already', async () => {
    const me = await freshAccount(fx.sb);
    for (let i = 0; i < 5; i++) await me.w.submitted(fx.programs.open.id);
    expect(ok(await me.w.me())).toMatchObject({ active_reports: 5, active_limit: 5 });
    const sixth = await me.w.draft(fx.programs.open.id);
    expectError(await me.w.submit(sixth.id, sixth.revision), 409, 'active_limit');
    expect(ok(await me.w.get(sixth.id)).status).toBe('draft');
  });

  it('at the active limit a repeated submit of an active report still returns it; a withdraw frees a slot', async () => {
    const me = await freshAccount(fx.sb);
    const drafts = [];
    for (let i = 0; i < 5; i++) drafts.push(await me.w.draft(fx.programs.open.id));
    const submitted = [];
    for (const d of drafts) submitted.push(ok(await me.w.submit(d.id, d.revision)));
    const [first] = drafts;
    if (!first) throw new Error('no draft');
    expect(ok(await me.w.submit(first.id, first.revision))).toEqual(submitted[0]);
    const sixth = await me.w.draft(fx.programs.open.id);
    expectError(await me.w.submit(sixth.id, sixth.revision), 409, 'active_limit');
    ok(await me.w.withdraw(first.id));
    expect(ok(await me.w.submit(sixth.id, sixth.revision)).status).toBe('triaging');
  });

  it('a repeated submit returns the report even when a precondition no longer holds', async () => {
    const me = await freshAccount(fx.sb);
    const me2 = await freshAccount(fx.sb);
    const draft = await me.w.draft(fx.programs.open.id);
    const first = ok(await me.w.submit(draft.id, draft.revision));
    await fx.sb.patchAccount(me.account.uid, { payments_status: 'not_started' });
    expect(ok(await me.w.submit(draft.id, draft.revision))).toEqual(first);
    const other = await me2.w.draft(fx.programs.open.id);
    const second = ok(await me2.w.submit(other.id, other.revision));
    await fx.sb.patchProgram(fx.programs.open.id, { intake: 'closed' });
    try {
      expect(ok(await me2.w.submit(other.id, other.revision))).toEqual(second);
    } finally {
      await fx.sb.patchProgram(fx.programs.open.id, { intake: 'open' });
    }
  });

  it('409 revision_conflict with current for a stale revision on a draft', async () => {
    const { me, draft } = await freshDraft(fx);
    const saved = ok(await saveAs(me, draft.id, { revision: draft.revision }));
    const body = expectError(await me.w.submit(draft.id, draft.revision), 409, 'revision_conflict');
    expect(body.current).toEqual(saved);
  });

  it('submitting again with the same revision returns the submitted report and starts no second triage', async () => {
    const { me, draft } = await freshDraft(fx);
    const first = ok(await me.w.submit(draft.id, draft.revision));
    const messages = ok(await me.w.messages(draft.id)).messages.length;
    const again = ok(await me.w.submit(draft.id, draft.revision));
    expect(again).toEqual(first);
    expect(ok(await me.w.messages(draft.id)).messages).toHaveLength(messages);
    expect(ok(await me.w.me()).active_reports).toBe(1);
  });

  it('another researcher’s report gives 404 not_found', async () => {
    const me = await freshAccount(fx.sb);
    const other = await freshAccount(fx.sb);
    const draft = await me.w.draft(fx.programs.open.id);
    expectError(await other.w.submit(draft.id, draft.revision), 404, 'not_found');
    expect(ok(await me.w.get(draft.id)).status).toBe('draft');
  });

  it('SubmitInput needs revision (422 validation_error)', async () => {
    const { me, draft } = await freshDraft(fx);
    expectError(
      await me.w.api('POST', `/api/reports/${draft.id}/submit`, { body: {} }),
      422,
      'validation_error',
    );
    expectError(
      await me.w.api('POST', `/api/reports/${draft.id}/submit`, {
        body: { revision: draft.revision, extra: 1 },
      }),
      422,
      'validation_error',
    );
  });
});

describe('4. Reports — POST /api/reports/{report_id}/withdraw', () => {
  it('withdraws a submitted report and gives back its active slot', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.programs.open.id);
    expect(ok(await me.w.me()).active_reports).toBe(1);
    const withdrawn = ok(await me.w.withdraw(report.id));
    expect(withdrawn.status).toBe('withdrawn');
    expect(withdrawn.withdrawn_at).not.toBeNull();
    expect(withdrawn.revision).toBeGreaterThan(report.revision);
    expect(ok(await me.w.me()).active_reports).toBe(0);
  });

  it('repeating is safe: still withdrawn, no change', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.programs.open.id);
    const first = ok(await me.w.withdraw(report.id));
    await fx.sb.clock(3);
    const again = ok(await me.w.withdraw(report.id));
    expect(again).toEqual(first);
  });

  it('after a final decision gives 409 invalid_state', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.programs.open.id);
    await fx.sb.act(report.id, { actor: 'founder', status: 'rejected', message: 'Out of scope.' });
    expectError(await me.w.withdraw(report.id), 409, 'invalid_state');
    expect(ok(await me.w.get(report.id)).status).toBe('rejected');
  });

  it('another researcher’s report gives 404 not_found', async () => {
    const me = await freshAccount(fx.sb);
    const other = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.programs.open.id);
    expectError(await other.w.withdraw(report.id), 404, 'not_found');
    expect(ok(await me.w.get(report.id)).status).toBe('triaging');
  });

  it('a read key gets 403 read_only_key', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.programs.open.id);
    expectError(await me.r.withdraw(report.id), 403, 'read_only_key');
  });
});

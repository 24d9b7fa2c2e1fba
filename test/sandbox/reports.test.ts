import { randomUUID } from '../support/random';
import { describe, expect, it } from 'vitest';
import type { ReportBody } from './helpers';
import { createDraft, draftInput, Sbx, submit, upload } from './helpers';

interface Page {
  reports: { id: string; updated_at: string; status: string }[];
  next_cursor: string | null;
}

describe('sandbox: reports and revisions (API parts 3 and 4)', () => {
  const sbx = Sbx.perFile();

  it('a stale revision gives 409 revision_conflict with current', async () => {
    const { write } = await sbx.newAccount();
    const r = await createDraft(sbx, write);
    await sbx.call('PUT', `/api/reports/${r.id}`, {
      token: write,
      body: draftInput({ title: 'B', revision: r.revision }),
    });
    const stale = await sbx.call<ReportBody>('PUT', `/api/reports/${r.id}`, {
      token: write,
      body: draftInput({ title: 'C', revision: r.revision }),
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('revision_conflict');
    expect(stale.body.current?.revision).toBe(r.revision + 1);
  });

  it('repeating a save, a submit and a withdraw is safe', async () => {
    const { write } = await sbx.newAccount();
    const id = randomUUID();
    const body = draftInput();
    const first = await sbx.call<ReportBody>('PUT', `/api/reports/${id}`, { token: write, body });
    const again = await sbx.call<ReportBody>('PUT', `/api/reports/${id}`, { token: write, body });
    expect(again.status).toBe(200);
    expect(again.body.revision).toBe(first.body.revision);
    const s1 = await submit(sbx, write, first.body);
    const s2 = await submit(sbx, write, first.body);
    expect(s2.status).toBe(200);
    expect(s2.body.revision).toBe(s1.body.revision);
    const w1 = await sbx.call<ReportBody>('POST', `/api/reports/${id}/withdraw`, { token: write });
    const w2 = await sbx.call<ReportBody>('POST', `/api/reports/${id}/withdraw`, { token: write });
    expect(w2.body).toMatchObject({ status: 'withdrawn', revision: w1.body.revision });
  });

  it("another account's report is 404 not_found, and its id cannot be reused", async () => {
    const a = await sbx.newAccount();
    const b = await sbx.newAccount();
    const r = await createDraft(sbx, a.write);
    expect((await sbx.call('GET', `/api/reports/${r.id}`, { token: b.write })).status).toBe(404);
    const taken = await sbx.call('PUT', `/api/reports/${r.id}`, {
      token: b.write,
      body: draftInput(),
    });
    expect(taken.status).toBe(404);
  });

  it('validation names the field; an invalid CVSS vector is rejected', async () => {
    const { write } = await sbx.newAccount();
    const long = await sbx.call('PUT', `/api/reports/${randomUUID()}`, {
      token: write,
      body: draftInput({ title: 'x'.repeat(181) }),
    });
    expect(long.status).toBe(422);
    expect(long.body).toMatchObject({
      code: 'validation_error',
      detail: 'title: must be at most 180 characters',
    });
    const cvss = await sbx.call('PUT', `/api/reports/${randomUUID()}`, {
      token: write,
      body: draftInput({ cvss_vector: 'CVSS:3.1/AV:X' }),
    });
    expect(cvss.status).toBe(422);
    expect((cvss.body as { detail: string }).detail).toMatch(/^cvss_vector/);
  });

  it('submit checks email, payments, completeness and the program, with the codes of part 4', async () => {
    const unverified = await sbx.newAccount({ email_verified: false });
    expect(
      (
        await sbx.call('PUT', `/api/reports/${randomUUID()}`, {
          token: unverified.write,
          body: draftInput(),
        })
      ).body,
    ).toMatchObject({ code: 'email_unverified' });
    const notReady = await sbx.newAccount({ payments_status: 'pending' });
    const r1 = await createDraft(sbx, notReady.write);
    expect((await submit(sbx, notReady.write, r1)).body).toMatchObject({
      code: 'payments_not_ready',
    });
    const { write } = await sbx.newAccount();
    const empty = await createDraft(sbx, write, { description: '## Steps to reproduce\n' });
    expect((await submit(sbx, write, empty)).body).toMatchObject({ code: 'incomplete_report' });
    const closed = await createDraft(sbx, write, { program_id: 'vandelay-hardware' });
    expect((await submit(sbx, write, closed)).body).toMatchObject({ code: 'program_closed' });
    const pool = await createDraft(sbx, write, { program_id: 'stark-portal' });
    expect((await submit(sbx, write, pool)).body).toMatchObject({ code: 'pool_low' });
  });

  it('the sixth active report gives 409 active_limit; Me counts active reports', async () => {
    const { write } = await sbx.newAccount();
    for (let i = 0; i < 5; i++) {
      expect((await submit(sbx, write, await createDraft(sbx, write))).status).toBe(200);
    }
    const sixth = await submit(sbx, write, await createDraft(sbx, write));
    expect(sixth.status).toBe(409);
    expect(sixth.body.code).toBe('active_limit');
    const me = await sbx.call<{ active_reports: number; active_limit: number }>('GET', '/api/me', {
      token: write,
    });
    expect(me.body).toMatchObject({ active_reports: 5, active_limit: 5 });
  });

  it('submit freezes content, ready files and the policy with its version', async () => {
    const { write } = await sbx.newAccount();
    let r = await createDraft(sbx, write);
    r = (await upload(sbx, write, r, 'bytes')).body;
    const done = (await submit(sbx, write, r)).body;
    expect(done.status).toBe('triaging');
    expect(Object.keys(done.submission?.attachments ?? {})).toHaveLength(1);
    await sbx.call('PATCH', '/__sandbox/programs/acme-web', {
      body: { policy: { rules: 'Changed.' } },
    });
    const later = (await sbx.call<ReportBody>('GET', `/api/reports/${r.id}`, { token: write }))
      .body;
    expect(later.submission?.program.policy_version).toBe(done.submission?.program.policy_version);
    const edit = await sbx.call('PUT', `/api/reports/${r.id}`, {
      token: write,
      body: draftInput({ revision: later.revision }),
    });
    expect(edit.body).toMatchObject({ code: 'invalid_state' });
  });

  it('messages: a reply to needs_info returns to triaging without a revision change', async () => {
    const { write } = await sbx.newAccount();
    const r = (await submit(sbx, write, await createDraft(sbx, write))).body;
    await sbx.call('POST', `/__sandbox/reports/${r.id}/act`, {
      body: { actor: 'agent', status: 'needs_info', message: 'More?' },
    });
    const reply = await sbx.call<ReportBody>('POST', `/api/reports/${r.id}/messages`, {
      token: write,
      body: { body: 'Yes.' },
    });
    expect(reply.body).toMatchObject({ status: 'triaging', revision: r.revision });
    const emptyMessage = await sbx.call('POST', `/api/reports/${r.id}/messages`, {
      token: write,
      body: {},
    });
    expect(emptyMessage.status).toBe(422);
    await sbx.call('POST', `/__sandbox/reports/${r.id}/act`, {
      body: { actor: 'founder', status: 'rejected' },
    });
    const late = await sbx.call('POST', `/api/reports/${r.id}/messages`, {
      token: write,
      body: { body: 'Why?' },
    });
    expect(late.body).toMatchObject({ code: 'invalid_state' });
    const withdraw = await sbx.call('POST', `/api/reports/${r.id}/withdraw`, { token: write });
    expect(withdraw.status).toBe(409);
  });

  it('pages through 1,234 reports by cursor, newest first, each exactly once', async () => {
    const { account, read } = await sbx.newAccount();
    await sbx.call('POST', '/__sandbox/bulk-reports', { body: { uid: account.uid, count: 1234 } });
    const seen: Page['reports'] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `&cursor=${cursor}` : '';
      const page: Page = (
        await sbx.call<Page>('GET', `/api/reports?limit=100${q}`, { token: read })
      ).body;
      seen.push(...page.reports);
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(1234);
    expect(new Set(seen.map((r) => r.id)).size).toBe(1234);
    const times = seen.map((r) => r.updated_at);
    expect([...times].sort().reverse()).toEqual(times);
    const since = seen[99]?.updated_at ?? '';
    const newer = await sbx.call<Page>(
      'GET',
      `/api/reports?limit=100&updated_since=${encodeURIComponent(since)}`,
      { token: read },
    );
    expect(newer.body.reports).toHaveLength(99);
    expect(newer.body.next_cursor).toBeNull();
  });

  it('list parameters: bad limit, raw + in updated_since, a vanished cursor give 422', async () => {
    const { read } = await sbx.newAccount();
    for (const q of [
      'limit=0',
      'limit=101',
      'updated_since=2024-01-01T00:00:00+00:00',
      'updated_since=yesterday',
      `cursor=${randomUUID()}`,
    ]) {
      const res = await sbx.call('GET', `/api/reports?${q}`, { token: read });
      expect(res.status, q).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_error' });
    }
    const ok = await sbx.call(
      'GET',
      `/api/reports?updated_since=${encodeURIComponent('2024-01-01T00:00:00+02:00')}`,
      { token: read },
    );
    expect(ok.status).toBe(200);
  });

  it('a read key may only GET: other methods give 403 read_only_key', async () => {
    const { read } = await sbx.newAccount();
    const res = await sbx.call('PUT', `/api/reports/${randomUUID()}`, {
      token: read,
      body: draftInput(),
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'read_only_key' });
  });
});

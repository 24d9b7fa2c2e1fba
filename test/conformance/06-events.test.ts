import { describe, expect, it } from 'vitest';
import type { ApiResponse, Report, ReportPage, ReportSummary } from '../support/sandbox-client';
import type { Researcher } from './helpers';
import { draftInput, freshAccount, freshDraft, ok, useSandbox, uuid } from './helpers';

const fx = useSandbox();

function ts(report: Pick<Report, 'updated_at'>): number {
  if (report.updated_at === null) throw new Error('updated_at is null');
  return Date.parse(report.updated_at);
}

/** Moves the sandbox clock so the next change gets a later timestamp. */
async function tick(): Promise<void> {
  await fx.sb.clock(2);
}

/** The polling procedure of part 6: every page through next_cursor. */
async function poll(who: Researcher, since: string): Promise<ReportSummary[]> {
  const reports: ReportSummary[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 50; guard++) {
    const res: ApiResponse<ReportPage> = await who.list({
      updated_since: since,
      limit: 2,
      cursor: cursor ?? undefined,
    });
    const page = ok(res);
    reports.push(...page.reports);
    cursor = page.next_cursor;
    if (cursor === null) break;
  }
  return reports;
}

describe('6. Events — what changes updated_at', () => {
  it('every draft save, file upload and file removal', async () => {
    const me = await freshAccount(fx.sb);
    const created = await me.w.draft(fx.open);
    await tick();
    const saved = ok(
      await me.w.save(created.id, draftInput(fx.open, { title: 'v2', revision: created.revision })),
    );
    expect(ts(saved)).toBeGreaterThan(ts(created));
    await tick();
    const fileId = uuid();
    const uploaded = await me.w.attach(saved, fileId);
    expect(ts(uploaded)).toBeGreaterThan(ts(saved));
    await tick();
    const removed = ok(await me.w.removeFile(created.id, fileId, uploaded.revision));
    expect(ts(removed)).toBeGreaterThan(ts(uploaded));
  });

  it('every status change (submit, agent, owner team, reply, withdraw)', async () => {
    const { me, draft } = await freshDraft(fx);
    await tick();
    const submitted = ok(await me.w.submit(draft.id, draft.revision));
    expect(ts(submitted)).toBeGreaterThan(ts(draft));
    await tick();
    await fx.sb.act(draft.id, { actor: 'agent', status: 'needs_info', message: 'Steps?' });
    const asked = ok(await me.w.get(draft.id));
    expect(ts(asked)).toBeGreaterThan(ts(submitted));
    await tick();
    const replied = ok(await me.w.post(draft.id, { body: 'Here.' }));
    expect(ts(replied)).toBeGreaterThan(ts(asked));
    await tick();
    await fx.sb.act(draft.id, { actor: 'founder', status: 'paused' });
    const paused = ok(await me.w.get(draft.id));
    expect(ts(paused)).toBeGreaterThan(ts(replied));
    await tick();
    const withdrawn = ok(await me.w.withdraw(draft.id));
    expect(ts(withdrawn)).toBeGreaterThan(ts(paused));
  });

  it('every file upload or removal, also of a pending message file on a submitted report', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    await tick();
    const fileId = uuid();
    const uploaded = ok(await me.w.upload(report.id, fileId, { revision: report.revision }));
    expect(ts(uploaded)).toBeGreaterThan(ts(report));
    await tick();
    const removed = ok(await me.w.removeFile(report.id, fileId, uploaded.revision));
    expect(ts(removed)).toBeGreaterThan(ts(uploaded));
    expect(removed.status).toBe('triaging');
  });

  it('a researcher message that starts no triage turn does not change updated_at', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    await tick();
    const noted = ok(await me.w.post(report.id, { body: 'FYI' }));
    expect(noted.updated_at).toBe(report.updated_at);
  });

  it('payout progress does not change updated_at; payout is null until approved', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    await tick();
    await fx.sb.act(report.id, { actor: 'founder', status: 'accepted', message: 'Valid.' });
    const accepted = ok(await me.w.get(report.id));
    expect(accepted.payout ?? null).toBeNull();
    for (const status of ['approving', 'transferred', 'received']) {
      await tick();
      await fx.sb.payout(report.id, { status, amount_cents: 150000 });
      const now = ok(await me.w.get(report.id));
      expect(now.payout).toMatchObject({ status, amount_cents: 150000 });
      expect(now.updated_at).toBe(accepted.updated_at);
      expect(now.revision).toBe(accepted.revision);
    }
    const summary = ok(await me.w.list()).reports.find((r) => r.id === report.id);
    expect(summary?.updated_at).toBe(accepted.updated_at);
  });
});

describe('6. Events — polling with updated_since', () => {
  it('sees exactly the reports changed after since, through every page', async () => {
    const me = await freshAccount(fx.sb);
    const reports: Report[] = [];
    for (let i = 0; i < 5; i++) reports.push(await me.w.draft(fx.open, { title: `r${i}` }));
    const [r0, r1, r2, r3, r4] = reports as [Report, Report, Report, Report, Report];
    const since =
      reports
        .map((r) => r.updated_at ?? '')
        .sort()
        .at(-1) ?? '';
    await tick();
    ok(await me.w.save(r1.id, draftInput(fx.open, { title: 'r1 changed', revision: r1.revision })));
    await me.w.attach(r3);
    const r4s = ok(await me.w.submit(r4.id, r4.revision));
    await fx.sb.act(r4s.id, { actor: 'agent', status: 'needs_info', message: 'More info.' });
    const seen = await poll(me.w, since);
    expect(seen.map((r) => r.id).sort()).toEqual([r1.id, r3.id, r4.id].sort());
    expect(seen.map((r) => r.id)).not.toContain(r0.id);
    expect(seen.map((r) => r.id)).not.toContain(r2.id);
    expect(seen.find((r) => r.id === r4.id)?.status).toBe('needs_info');
    const newest =
      seen
        .map((r) => r.updated_at ?? '')
        .sort()
        .at(-1) ?? '';
    expect(await poll(me.w, newest)).toEqual([]);
  });

  it('a payout change is not seen by polling', async () => {
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    await fx.sb.act(report.id, { actor: 'founder', status: 'accepted' });
    const accepted = ok(await me.w.get(report.id));
    await tick();
    await fx.sb.payout(report.id, { status: 'approving', amount_cents: 5000 });
    expect(await poll(me.w, accepted.updated_at ?? '')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Program, ProgramPage, Report } from '../support/sandbox-client';
import { pickAccounts, pickPrograms } from '../support/sandbox-client';
import { freshAccount, freshDraft, ok, useSandbox, uuid } from './helpers';

const fx = useSandbox();

const Z_FORM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function expectTime(value: string | null | undefined, what: string): void {
  if (value === null) return;
  expect(value, what).toMatch(Z_FORM);
  expect(Number.isNaN(Date.parse(value ?? '')), what).toBe(false);
}

describe('2. Resources and their fields', () => {
  it('time values are ISO 8601 UTC strings in the Z form; a missing time is null', async () => {
    const { me, draft } = await freshDraft(fx);
    expect(draft.submitted_at).toBeNull();
    expect(draft.withdrawn_at).toBeNull();
    const fileId = uuid();
    const withFile = await me.w.attach(draft, fileId);
    const submitted = ok(await me.w.submit(draft.id, withFile.revision));
    const withdrawn = ok(await me.w.withdraw(draft.id));
    for (const r of [draft, submitted, withdrawn] as Report[]) {
      for (const key of ['created_at', 'updated_at', 'submitted_at', 'withdrawn_at'] as const) {
        expectTime(r[key], key);
      }
    }
    expectTime(withdrawn.withdrawn_at, 'withdrawn_at');
    expect(withdrawn.withdrawn_at).not.toBeNull();
    expectTime(submitted.submission?.submitted_at, 'submission.submitted_at');
    expectTime(submitted.attachments[fileId]?.started_at, 'attachment.started_at');
    const program = ok(await fx.sb.api<Program>('GET', `/api/programs/${fx.open}`));
    expectTime(program.updated_at, 'program.updated_at');
    const key = ok(await me.session.createKey({ name: 'time' }), 201);
    expectTime(key.created_at, 'key.created_at');
    expectTime(key.expires_at, 'key.expires_at');
    const thread = ok(await me.w.messages(draft.id)).messages;
    for (const m of thread) expectTime(m.at, 'message.at');
  });

  it('money: reward tables are integers in US dollars, payouts integer cents', async () => {
    const page = ok(await fx.sb.api<ProgramPage>('GET', '/api/programs', { query: { limit: 50 } }));
    for (const p of page.programs) {
      expect(p.reward_range.currency).toBe('USD');
      for (const value of Object.values(p.rewards)) expect(Number.isInteger(value)).toBe(true);
    }
    const me = await freshAccount(fx.sb);
    const report = await me.w.submitted(fx.open);
    await fx.sb.act(report.id, { actor: 'founder', status: 'accepted' });
    await fx.sb.payout(report.id, { status: 'approving', amount_cents: 123456 });
    const paid = ok(await me.w.get(report.id));
    expect(paid.payout?.amount_cents).toBe(123456);
    expect(paid.decision?.outcome).toBe('accepted');
  });

  it('the seeded account with reports holds several statuses, one accepted with a payout', async () => {
    const world = await fx.sb.world();
    const statuses = new Set<string>();
    let acceptedWithPayout = false;
    for (const account of world.accounts) {
      const page = ok(
        await fx.sb.api<{ reports: Report[] }>('GET', '/api/reports', {
          token: account.session_token,
        }),
      );
      if (page.reports.length === 0) continue;
      for (const summary of page.reports) {
        statuses.add(summary.status);
        if (summary.status === 'accepted') {
          const full = ok(
            await fx.sb.api<Report>('GET', `/api/reports/${summary.id}`, {
              token: account.session_token,
            }),
          );
          if (full.payout) acceptedWithPayout = true;
        }
      }
    }
    expect(statuses.size).toBeGreaterThan(2);
    expect(acceptedWithPayout).toBe(true);
  });

  it('the seeded world holds the accounts and programs the sandbox contract promises', async () => {
    const world = await fx.sb.world();
    const accounts = pickAccounts(world);
    expect(accounts.ready.email_verified).toBe(true);
    expect(accounts.unverified.email_verified).toBe(false);
    expect(accounts.notStarted.payments_status).toBe('not_started');
    const programs = pickPrograms(world);
    expect(programs.privateInvited.invited.length).toBeGreaterThan(0);
    expect(programs.unpublished.published).toBe(false);
    for (const account of world.accounts) expect(account.session_token.length).toBeGreaterThan(0);
  });
});

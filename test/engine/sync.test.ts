import { describe, expect, it } from 'vitest';
import { DEFAULT_CADENCES, SyncScheduler } from '../../src/engine/sync';
import { COMPLETE_DESCRIPTION, harnessPerTest, type Harness } from './harness';

/**
 * The sync against the sandbox (rate limits on): its cadence, the poll right after the user's
 * own write, the cost of a poll when nothing changed, the payout follow-up, programs and Me, and
 * the events the shell turns into notifications.
 */
interface Stats {
  requests: number;
  by_route: Record<string, number>;
}

const CONTENT = {
  title: 'Cache poisoning via X-Forwarded-Host',
  asset: 'https://www.example.com',
  description: COMPLETE_DESCRIPTION,
  cvss_vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:C/C:L/I:L/A:N',
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('engine sync', () => {
  const open = harnessPerTest((h) => h.sandbox.clearFaults());

  const stats = (x: Harness) => x.sandbox.control<Stats>('GET', '/__sandbox/stats');
  const resetStats = (x: Harness) => x.sandbox.control('DELETE', '/__sandbox/stats');

  async function submitted(x: Harness): Promise<string> {
    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, CONTENT);
    await x.engine.calls.submit(draft.reportId);
    await x.engine.session.drain();
    return draft.reportId;
  }

  it('polls at most once a minute by default, and once shortly after the user submits', async () => {
    expect(DEFAULT_CADENCES.reportsMs).toBeGreaterThanOrEqual(60_000);
    const x = await open(undefined, { engine: { cadences: { afterActionMs: 300 } }, sync: false });
    // The first pass runs at sign-in; wait for it to finish.
    for (let i = 0; i < 100 && (await x.engine.getStatus()).lastSyncAt === null; i++) {
      await pause(20);
    }
    await x.engine.calls.syncNow();
    await resetStats(x);
    await pause(1_500);
    expect((await stats(x)).requests).toBe(0);

    const draft = await x.engine.calls.createDraft(x.programs.open.id);
    await x.engine.calls.saveDraft(draft.reportId, CONTENT);
    await x.engine.calls.submit(draft.reportId);
    await x.engine.session.drain();
    await resetStats(x);
    let polled = 0;
    for (let i = 0; i < 50 && polled === 0; i++) {
      await pause(50);
      polled = (await stats(x)).by_route['GET /api/reports'] ?? 0;
    }
    expect(polled).toBe(1);
    await pause(1_000);
    expect((await stats(x)).by_route['GET /api/reports']).toBe(1);
  });

  it('an action during a running poll still gets its poll shortly after', async () => {
    const x = await open(undefined, { sync: false });
    await x.engine.calls.syncNow();
    const scheduler = new SyncScheduler(
      {
        api: x.engine.session.api,
        store: x.engine.session.store,
        events: x.engine.events,
        concurrency: 2,
      },
      { afterActionMs: 200 },
      { onSyncStart: () => undefined, onSyncEnd: () => undefined },
    );
    try {
      await x.sandbox.faults({ rate: 1, latency_ms: 300, seed: 1 });
      await resetStats(x);
      const running = scheduler.syncNow();
      await pause(50);
      scheduler.soon(); // the user's write answered while the poll is still out
      await running;
      await x.sandbox.clearFaults();
      await pause(600);
      expect((await stats(x)).by_route['GET /api/reports']).toBe(2);
    } finally {
      await scheduler.stop();
    }
  });

  it('a poll when nothing changed costs one request', async () => {
    const x = await open(undefined, { sync: false });
    await submitted(x);
    await x.engine.calls.syncNow();
    for (let i = 0; i < 3; i++) {
      await resetStats(x);
      // The scheduled poll (the user's "Sync now" also refreshes the account and payouts).
      await x.engine.session.syncNow(['reports']);
      const s = await stats(x);
      expect(s.requests).toBe(1);
      expect(s.by_route['GET /api/reports']).toBe(1);
    }
    // The engine's own view of the same thing.
    expect(x.engine.session.api.budget.snapshot().used).toBeGreaterThan(0);
  });

  it('emits report-changed, needs-info once across restarts, decision and payout-changed; follows the payout until received', async () => {
    const x = await open(undefined, { sync: false });
    const id = await submitted(x);
    await x.engine.calls.syncNow();
    const changedBefore = (x.events['report-changed'] ?? []).length;
    await x.sandbox.act(id, { actor: 'agent', status: 'needs_info', message: 'Which header?' });
    await x.engine.calls.syncNow();
    expect((x.events['report-changed'] ?? []).length).toBeGreaterThan(changedBefore);
    expect(x.events['needs-info']).toEqual([{ reportId: id, title: CONTENT.title }]);
    await x.restart();
    await x.engine.calls.syncNow();
    await x.engine.calls.syncNow();
    expect(x.events['needs-info']).toHaveLength(1);

    await x.sandbox.act(id, { actor: 'founder', status: 'accepted', message: 'Valid.' });
    await x.engine.calls.syncNow();
    expect(x.events.decision).toEqual([
      { reportId: id, title: CONTENT.title, outcome: 'accepted' },
    ]);
    await x.sandbox.payout(id, { status: 'approving', amount_cents: 50_000 });
    await x.engine.session.syncNow(['payouts']);
    await x.sandbox.payout(id, { status: 'received' });
    await x.engine.session.syncNow(['payouts']);
    expect(x.events['payout-changed']?.map((e) => [e.status, e.amountCents])).toEqual([
      ['approving', 50_000],
      ['received', 50_000],
    ]);
    // A received payout is not read again.
    await resetStats(x);
    await x.engine.session.syncNow(['payouts']);
    expect((await stats(x)).requests).toBe(0);
  });

  it('refreshes programs and Me', async () => {
    const x = await open(undefined, { sync: false });
    await x.engine.session.syncNow(['programs', 'account']);
    const id = x.programs.open.id;
    expect((await x.engine.calls.getProgram(id))?.intake).toBe('open');
    await x.sandbox.patchProgram(id, {
      intake: 'paused',
      policy: { scope: 'Only *.example.com' },
    });
    await x.sandbox.patchAccount(x.account.uid, { payments_status: 'pending' });
    await x.engine.session.syncNow(['programs', 'account']);
    const program = await x.engine.calls.getProgram(id);
    expect(program?.intake).toBe('paused');
    expect(JSON.stringify(program)).toContain('Only *.example.com');
    expect((await x.engine.getAccount())?.payments?.status).toBe('pending');
    expect(
      (await x.engine.calls.getChecklist((await x.engine.calls.createDraft(id)).reportId)).items,
    ).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'program_closed', ok: false }),
        expect.objectContaining({ id: 'payments_not_ready', ok: false }),
      ]),
    );
  });

  it('emits offline, online and sync-error events', async () => {
    const x = await open(undefined, { sync: false });
    await x.engine.calls.syncNow();
    await x.sandbox.faults({ rate: 1, statuses: [500], seed: 2 });
    await x.engine.calls.syncNow();
    expect(x.events['sync-error']?.at(-1)?.code).toBe('internal_error');
    expect((await x.engine.getStatus()).lastError?.code).toBe('internal_error');
    await x.sandbox.faults({ rate: 1, reset_connection: true, seed: 2 });
    await x.engine.calls.syncNow();
    expect(x.events.connectivity?.at(-1)?.state).toBe('offline');
    expect((await x.engine.getStatus()).connectivity).toBe('offline');
    expect(x.events['sync-error']?.at(-1)?.code).toBe('network_error');
    await x.sandbox.clearFaults();
    await x.engine.calls.syncNow();
    expect(x.events.connectivity?.at(-1)?.state).toBe('online');
    expect((await x.engine.getStatus()).lastError).toBeNull();
  });
});

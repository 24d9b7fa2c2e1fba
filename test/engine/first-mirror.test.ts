/**
 * Signing in to a large account. Against the sandbox with the API's rate limits, on a
 * clock linked to the sandbox's (bench/engine-clock.ts: the budget's waits are skipped by moving
 * both clocks, never by letting the client run ahead of the server).
 */
import { randomUUID } from '../support/random';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxLinkedClock } from '../../bench/engine-clock';
import type { Clock } from '../../src/engine/api';
import { openHarness, type Harness } from './harness';

const REPORTS = 300;
const NEEDS_INFO = 6;
const TRIAGING = 9;

interface Logged {
  method: string;
  path: string;
  status: number;
}

async function largeAccount(
  options: { cadences?: { reconcileMs?: number } } = {},
): Promise<{ h: Harness; log: Logged[] }> {
  const log: Logged[] = [];
  let linked: SandboxLinkedClock | null = null;
  // The sandbox's address is known once the harness opened it: the clock links then.
  const clock: Clock = {
    now: () => linked?.now() ?? Date.now(),
    setTimer: (ms, callback) => {
      if (!linked) throw new Error('clock not linked yet');
      return linked.setTimer(ms, callback);
    },
  };
  const h = await openHarness(undefined, {
    rateLimits: 'spec',
    engine: {
      autoStart: false,
      clock,
      cadences: { afterActionMs: 60_000, ...options.cadences },
      fetch: async (request: Request) => {
        const url = new URL(request.url);
        const response = await fetch(request);
        log.push({
          method: request.method,
          path: url.pathname + url.search,
          status: response.status,
        });
        return response;
      },
    },
  });
  linked = new SandboxLinkedClock(h.sandbox.url);
  await h.sandbox.control('POST', '/__sandbox/bulk-reports', {
    uid: h.account.uid,
    count: REPORTS,
    submitted_share: 0.5,
    needs_info: NEEDS_INFO,
    triaging: TRIAGING,
  });
  return { h, log };
}

const isList = (l: Logged) => l.method === 'GET' && /^\/api\/reports(\?|$)/.test(l.path);
const detailOf = (l: Logged) =>
  l.method === 'GET' ? /^\/api\/reports\/([0-9a-f-]{36})$/.exec(l.path)?.[1] : undefined;
const threadOf = (l: Logged) =>
  l.method === 'GET' ? /^\/api\/reports\/([0-9a-f-]{36})\/messages$/.exec(l.path)?.[1] : undefined;

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('the first mirror of a large account', () => {
  it('lists every page first, then needs_info with threads, open and drafts, the rest, and their threads last; the minimum requests, no 429', async () => {
    const opened = await largeAccount();
    h = opened.h;
    const { log } = opened;
    const engine = h.engine;
    await engine.connect({ serverUrl: h.sandbox.url, apiKey: h.key });
    // The server's window forgets connect()'s own requests (the probe has its own budget).
    await h.sandbox.clock(61);
    log.length = 0;

    await engine.calls.syncNow();
    // The pass ends once the list is in: every row shows, "Last sync" is set, the rest follows.
    const status = await engine.getStatus();
    expect(status.lastSyncAt).not.toBeNull();
    expect(status.mirror?.total).toBe(REPORTS);
    expect(status.mirror?.downloaded).toBeLessThan(REPORTS);
    expect(status.mirror?.secondsLeft).toBeGreaterThan(0);
    const page = await engine.calls.listReports({ limit: 1000 });
    expect(page.total).toBe(REPORTS);

    // "Sync now" during the mirror checks for changes without restarting it.
    const before = log.filter(isList).length;
    await engine.calls.syncNow();
    const polls = log.filter(isList).slice(before);
    expect(polls.length).toBe(1);
    expect(polls[0]?.path).toContain('updated_since=');

    await engine.session.mirrorIdle();
    expect((await engine.getStatus()).mirror).toBeNull();

    const store = engine.session.store;
    const statusOf = new Map(
      store.reports.listIds().map((id) => [id, store.reports.getStoredRow(id)?.status]),
    );
    const group = (id: string) => {
      const s = statusOf.get(id);
      if (s === 'needs_info') return 0;
      if (s === 'draft' || s === 'triaging') return 1;
      return 2;
    };
    const report = log.filter((l) => !isList(l) && (detailOf(l) ?? threadOf(l)));
    const firstDetail = log.findIndex((l) => detailOf(l) !== undefined);
    const lastFirstPage = log.findIndex((l) => isList(l) && l.path.includes('updated_since'));
    // Every list page of the first listing came before any report was read.
    expect(log.slice(0, firstDetail).filter(isList).length).toBe(Math.ceil(REPORTS / 100));
    expect(lastFirstPage).toBeGreaterThan(firstDetail);
    // Then the groups in order: each request's rank never goes down.
    const rank = (l: Logged): number => {
      const detail = detailOf(l);
      if (detail) return group(detail);
      const thread = threadOf(l) as string;
      return group(thread) === 2 ? 3 : group(thread);
    };
    const ranks = report.map(rank);
    const sorted = [...ranks].sort((a, b) => a - b);
    expect(ranks).toEqual(sorted);
    expect(ranks.filter((r) => r === 0).length).toBe(NEEDS_INFO * 2);
    // The decided and withdrawn: newest first.
    const restDetails = report.filter((l) => rank(l) === 2).map((l) => detailOf(l) as string);
    const updated = restDetails.map((id) => store.reports.getStoredRow(id)?.updated_at ?? '');
    // Within a chunk the requests run four at a time: newest first chunk by chunk.
    const chunks = [updated.slice(0, 50), updated.slice(-50)];
    expect(chunks[0]?.every((u) => chunks[1]?.every((older) => u > older))).toBe(true);

    // The minimum: every page, one read per report, one thread per submitted report.
    const minimum = Math.ceil(REPORTS / 100) + REPORTS + REPORTS / 2;
    expect(report.length + Math.ceil(REPORTS / 100)).toBe(minimum);
    expect(log.filter((l) => l.status === 429)).toEqual([]);

    // Everything is in, and a first mirror's threads are history: nothing unread.
    const counts = store.reports.countMirrored();
    expect(counts).toMatchObject({ listed: REPORTS, current: REPORTS, staleThreads: 0 });
    expect(store.syncState.deferredThreads()).toEqual([]);
    for (const id of restDetails.slice(0, 20)) {
      expect(store.messages.listThread(id).length).toBe(1);
    }
    const final = await engine.getStatus();
    expect(final.unread).toBe(0);
    expect(final.needsAction).toBe(NEEDS_INFO);
  }, 120_000);
});

describe('the reconcile', () => {
  async function backdate(harness: Harness, title: string): Promise<string> {
    // A report the server holds with an updated_at long before the client's `since`.
    const endsAt = new Date(Date.now() - 3 * 24 * 3600_000).toISOString();
    await harness.sandbox.control('POST', '/__sandbox/bulk-reports', {
      uid: harness.account.uid,
      count: 1,
      submitted_share: 1,
      ends_at: endsAt,
    });
    const ids = await harness.sandbox.reportIds(harness.key);
    const fresh = ids.find((id) => !harness.engine.session.store.reports.getStoredRow(id));
    if (!fresh) throw new Error(`no backdated report for ${title} among ${ids.length}`);
    return fresh;
  }

  it('brings a backdated report after "Resync everything" and after the periodic reconcile, and drops what the server no longer has but keeps local work', async () => {
    const opened = await largeAccount();
    h = opened.h;
    const engine = h.engine;
    await engine.connect({ serverUrl: h.sandbox.url, apiKey: h.key });
    await engine.calls.syncNow();
    await engine.session.mirrorIdle();
    const store = engine.session.store;

    // Two reports the server does not have (deleted there): one with a local draft not sent.
    // Stored in full and current, so only a full listing can tell they are gone.
    const draftId = store.reports
      .listIds()
      .find((id) => store.reports.getStoredRow(id)?.status === 'draft');
    const template = draftId ? store.reports.getReport(draftId) : null;
    if (!template) throw new Error('no draft in the mirror');
    const gone = { ...template, id: randomUUID() };
    const kept = { ...template, id: randomUUID() };
    store.reports.upsertReports([gone, kept]);
    store.drafts.setContent(kept.id, kept.program_id, {
      title: 'Typed here, not sent',
      asset: 'https://x.example',
      description: 'words',
      cvss_vector: '',
    });

    const first = await backdate(h, 'resync');
    // The incremental poll cannot see it.
    await engine.session.syncNow(['reports']);
    expect(store.reports.getStoredRow(first)).toBeNull();
    expect(store.reports.getStoredRow(gone.id)).not.toBeNull();
    await engine.calls.resyncEverything();
    expect(store.reports.getStoredRow(first)?.has_full).toBe(true);
    expect(store.messages.listThread(first).length).toBe(1);
    expect(store.reports.getStoredRow(gone.id)).toBeNull();
    expect(store.reports.getStoredRow(kept.id)).not.toBeNull();
    expect(store.drafts.get(kept.id)?.title).toBe('Typed here, not sent');

    const second = await backdate(h, 'periodic');
    await engine.session.syncNow(['reports']);
    expect(store.reports.getStoredRow(second)).toBeNull();
    // The reconcile's period (6 hours) passes: the next pass lists everything.
    const last = store.syncState.getLastSync('reconcile');
    expect(last).not.toBeNull();
    store.syncState.setLastSync('reconcile', new Date(Date.now() - 6 * 3600_000 - 1).toISOString());
    await engine.session.syncNow(['reports']);
    expect(store.reports.getStoredRow(second)?.has_full).toBe(true);
  }, 120_000);
});

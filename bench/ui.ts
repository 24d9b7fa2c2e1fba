/**
 * What the UI does, measured the way main does it: through the engine's process protocol
 * (src/main/engine-client.ts ⇄ src/core/host/), with the engine and the sandbox in processes of
 * their own and this process playing main, its event loop watched by a 1 ms timer
 * (stall-monitor.ts).
 *
 * 1. At 10,000 and 100,000 mirrored reports: the reports list's first page, a page in the middle,
 *    a status filter, a new search (two searches in turn, so that none is the one just made), a new
 *    search with a status filter, scrolling through a search page after page, opening a report
 *    and saving a draft. p95 round trip against a
 *    bare round trip of the protocol (getAccount: one row) measured in the same run, and main's
 *    longest stall during each. Before: the same calls on this thread the way the engine ran in
 *    main until issue 11, the list through the old read model kept in old-read-model.ts.
 * 2. The search-index drain of 100,000 queued reports. Before: the old drain (batches of 1,000,
 *    one per turn) on this thread. After: the engine process drains while main makes list and
 *    search calls, which must not wait for it.
 * 3. The initial mirror of 10,000 reports. Before: the engine on this thread. After: through the
 *    protocol, then again with the server's rate limits (request count and 429s).
 *
 * The mirrors of part 1 are filled directly with the store's own writes (bench/report-fixtures.ts:
 * drafts and decided reports with their threads), then the engine restores them as after any
 * restart; part 3 mirrors from the sandbox over HTTP.
 * Run alone with `bash scripts/with-keyring.sh npx tsx bench/ui.ts`, or through `npm run bench`.
 * `BENCH_UI_SIZES=10000` and `BENCH_UI_MIRROR=1000` make a quick run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { TEMPLATE_HEADINGS } from '../src/shared/api';
import type { ReportListPage, ReportQuery } from '../src/shared/bridge/views';
import { Engine } from '../src/core/engine';
import { KeytarSecretStore } from '../src/core/secrets';
import type { Store } from '../src/core/store';
import { oldListReports } from './old-read-model';
import { seedMirror } from './seed';
import { startEngineProcess, startSandboxProcess, type EngineProcess } from './processes';
import { formatResults, median, percentile, type BenchResult } from './result';
import {
  control,
  minimumMirrorRequests,
  newAccount,
  reportRequests,
  resetStats,
  routeSummary,
  stats,
} from './sandbox-control';
import { idleStalls, StallMonitor, startWitness, type Stalls, type Witness } from './stall-monitor';

const SIZES = (process.env['BENCH_UI_SIZES'] ?? '10000,100000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const MIRROR = Number(process.env['BENCH_UI_MIRROR'] ?? 10_000);
const PAGE = 200;
/**
 * Searches of the same breadth (each matches about a quarter of the reports), taken in turn: the
 * list keeps the last search's hits until something is written (store/report-hits.ts), so the
 * same search again would measure that cache, not a search.
 */
const SEARCHES = ['token', 'session'];
const SEARCH = SEARCHES[0] as string;
const searchOf = (i: number): string => SEARCHES[i % SEARCHES.length] as string;
/** Saves 300 ms apart, as the editor's autosave makes them (autosave.ts). */
const SAVES = 40;
const SAVE_PAUSE_MS = 300;
const PROGRAM = 'acme-web';
const UNLIMITED = 1_000_000_000;
const TARGET_CALL_MS = 10;
const FRAME_MS = 16;
/** Calls per figure through the protocol; the old path at 100,000 takes a second a call. */
const RUNS = 100;
const OLD_RUNS = (n: number): number => (n >= 100_000 ? 5 : 20);

const started = performance.now();
function progress(step: string): void {
  console.error(`[ui ${((performance.now() - started) / 1000).toFixed(1)} s] ${step}`);
}

interface Timed {
  p95: number;
  median: number;
  stalls: Watched;
}

/** Main's stalls over a span, with the witness's over the same span (the machine's own). */
type Watched = Stalls & { witness: number };
let witness: Witness | null = null;

async function watch<T>(fn: () => Promise<T> | T): Promise<{ value: T; stalls: Watched }> {
  const { value, stalls } = await new StallMonitor().during(fn);
  return { value, stalls: { ...stalls, witness: (await witness?.longest(stalls)) ?? Number.NaN } };
}

/** A turn of the event loop between calls, as separate clicks and IPC messages would have. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * `runs` calls one after the other (`pauseMs` apart: the editor saves a draft 300 ms after the
 * last keystroke, so saves never come closer), p95 and median, main's stalls over all of them.
 */
async function timeCalls(
  runs: number,
  call: (i: number) => Promise<unknown> | unknown,
  pauseMs = 0,
) {
  const warm = Math.min(5, runs);
  for (let i = 0; i < warm; i++) await call(i);
  await collectGarbage();
  const times: number[] = [];
  const { stalls } = await watch(async () => {
    // Numbered on from the warm-up: a call never repeats the one just before it.
    for (let i = warm; i < warm + runs; i++) {
      const t0 = performance.now();
      await call(i);
      times.push(performance.now() - t0);
      await (pauseMs > 0 ? new Promise((resolve) => setTimeout(resolve, pauseMs)) : nextTurn());
    }
  });
  return { p95: percentile(times, 95), median: median(times), stalls } satisfies Timed;
}

function description(i: number): string {
  return TEMPLATE_HEADINGS.map(
    (h) => `## ${h}\n\nEdit ${i}: the redirect accepts any absolute URL after sign-in.`,
  ).join('\n\n');
}

const count = (n: number): string => n.toLocaleString('en-US');

// This process plays main both before (the engine on its thread) and after: the garbage the old
// path leaves must not be collected during the figures of the new one.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
async function collectGarbage(): Promise<void> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
}

// ---- mirrors filled directly ---------------------------------------------------------------------

/** Signs in with an engine on this thread, mirrors the programs and adds `n` reports. */
async function seededAccount(sandboxUrl: string, n: number): Promise<{ dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-ui-'));
  const { key } = await newAccount(sandboxUrl, 0);
  const engine = inProcessEngine(dataDir);
  await engine.connect({ serverUrl: sandboxUrl, apiKey: key });
  await engine.session.syncNow(['programs', 'account']);
  await engine.close();
  await seedMirror(dataDir, n);
  return { dataDir };
}

function inProcessEngine(dataDir: string, budgetLimit = UNLIMITED): Engine {
  return new Engine({
    dataDir,
    secrets: new KeytarSecretStore(),
    autoStart: false,
    budgetLimit,
    cadences: { afterActionMs: 10 * 60_000 },
  });
}

/** The same, in the mirror of the account signed in under `dataDir` (no engine running). */
async function requeueInFile(dataDir: string): Promise<void> {
  const engine = inProcessEngine(dataDir);
  await engine.open();
  engine.session.store.searchIndex.stop();
  requeueIndex(engine.session.store);
  await engine.close();
}

/** Queues every report for the search index again, as right after writing them all. */
function requeueIndex(store: Store): void {
  store.db.sqlite.exec(`
    INSERT INTO reports_fts (reports_fts) VALUES ('delete-all');
    INSERT INTO reports_fts_pending (seq, indexed) SELECT seq, 0 FROM reports WHERE true
      ON CONFLICT (seq) DO UPDATE SET indexed = 0;`);
}

// ---- 1 and 2: calls at n reports, before and after -------------------------------------------

interface CallSet {
  first: Timed;
  middle: Timed;
  status: Timed;
  search: Timed;
  searchStatus: Timed;
  searchScroll: Timed;
  open: Timed;
  save: Timed;
}

const LABELS: Record<keyof CallSet, string> = {
  first: 'reports list, first page',
  middle: 'reports list, a page in the middle',
  status: 'reports list, status filter (accepted)',
  search: `reports list, a new search each call ("${SEARCHES.join('", "')}" in turn)`,
  searchStatus: 'reports list, a new search each call, with the status filter (accepted)',
  searchScroll: `reports list, scrolling through a search ("${SEARCH}": the next page each call)`,
  open: 'open a report',
  save: `save a draft (${SAVES}, ${SAVE_PAUSE_MS} ms apart as the editor saves)`,
};

type ListCall = 'first' | 'middle' | 'status' | 'search' | 'searchStatus' | 'searchScroll';

/** The query of each list call, by the call's number in its run. */
function queries(n: number): Record<ListCall, (i: number) => ReportQuery> {
  return {
    first: () => ({ offset: 0, limit: PAGE }),
    middle: () => ({ offset: Math.floor(n / 2), limit: PAGE }),
    status: () => ({ status: ['accepted'], offset: 0, limit: PAGE }),
    search: (i) => ({ search: searchOf(i), offset: 0, limit: PAGE }),
    searchStatus: (i) => ({ search: searchOf(i), status: ['accepted'], offset: 0, limit: PAGE }),
    searchScroll: (i) => ({ search: SEARCH, offset: (i % 100) * PAGE, limit: PAGE }),
  };
}

interface Drain {
  ms: number;
  stalls: Watched;
  /** Round trips of list and search calls made while it drained (after only). */
  calls?: { p95: number; max: number; count: number; indexing: number };
}

async function callsBefore(
  engine: Engine,
  n: number,
  ids: string[],
  draftId: string,
): Promise<CallSet> {
  const store = engine.session.store;
  const q = queries(n);
  const runs = OLD_RUNS(n);
  const list = (query: (i: number) => ReportQuery) =>
    timeCalls(runs, (i) => oldListReports(store, query(i)));
  return {
    first: await list(q.first),
    middle: await list(q.middle),
    status: await list(q.status),
    search: await list(q.search),
    searchStatus: await list(q.searchStatus),
    searchScroll: await list(q.searchScroll),
    open: await timeCalls(RUNS, (i) => engine.getReport(ids[i % ids.length] as string)),
    save: await timeCalls(
      SAVES,
      (i) =>
        engine.saveDraft(draftId, {
          title: `Draft edit ${i}`,
          asset: 'https://acme.example/',
          description: description(i),
          cvss_vector: '',
        }),
      SAVE_PAUSE_MS,
    ),
  };
}

async function callsAfter(
  engine: EngineProcess,
  n: number,
  ids: string[],
  draftId: string,
): Promise<CallSet & { bare: Timed }> {
  const call = (name: Parameters<EngineProcess['client']['call']>[0], ...args: unknown[]) =>
    engine.client.call(name, args);
  const q = queries(n);
  const list = (query: (i: number) => ReportQuery) =>
    timeCalls(RUNS, (i) => call('listReports', query(i)));
  return {
    bare: await timeCalls(RUNS, () => call('getAccount')),
    first: await list(q.first),
    middle: await list(q.middle),
    status: await list(q.status),
    search: await list(q.search),
    searchStatus: await list(q.searchStatus),
    searchScroll: await list(q.searchScroll),
    open: await timeCalls(RUNS, (i) => call('getReport', ids[i % ids.length])),
    save: await timeCalls(
      SAVES,
      (i) =>
        call('saveDraft', draftId, {
          title: `Draft edit ${i}`,
          asset: 'https://acme.example/',
          description: description(i),
          cvss_vector: '',
        }),
      SAVE_PAUSE_MS,
    ),
  };
}

/**
 * The old drain: batches of 1,000, one per turn of this thread's event loop, with FTS5 merging
 * inside the batches (its default until migration 9). The index is left merged as the new drain
 * leaves it, so that the figures after it do not pay for this one's segments.
 */
async function oldDrain(store: Store): Promise<Drain> {
  store.searchIndex.stop();
  const automerge = (n: number) =>
    store.db.sqlite.exec(`INSERT INTO reports_fts (reports_fts, rank) VALUES ('automerge', ${n})`);
  automerge(4);
  const t0 = performance.now();
  const { stalls } = await watch(async () => {
    while (store.searchIndex.indexBatch(1_000) > 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  });
  const ms = performance.now() - t0;
  automerge(0);
  store.searchIndex.flush();
  return { ms, stalls };
}

/** The engine process drains on its own; main lists and searches meanwhile. */
async function drainThroughProtocol(engine: EngineProcess): Promise<Drain> {
  const times: number[] = [];
  let indexing = 0;
  let done = false;
  const { value: ms, stalls } = await watch(async () => {
    const drained = engine.indexIdle().then((inEngine) => {
      done = true;
      return inEngine;
    });
    for (let i = 0; !done; i++) {
      const t0 = performance.now();
      const query = i % 2 === 0 ? { offset: 0, limit: PAGE } : { search: SEARCH, limit: PAGE };
      const page = (await engine.client.call('listReports', [query])) as ReportListPage;
      times.push(performance.now() - t0);
      indexing = Math.max(indexing, page.indexing);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return drained;
  });
  return {
    ms,
    stalls,
    calls: { p95: percentile(times, 95), max: Math.max(...times), count: times.length, indexing },
  };
}

async function benchCalls(sandboxUrl: string, n: number): Promise<BenchResult[]> {
  progress(`${count(n)} reports: seeding the mirror`);
  const { dataDir } = await seededAccount(sandboxUrl, n);
  try {
    // Before: the engine on this thread.
    const engine = inProcessEngine(dataDir);
    await engine.open();
    const store = engine.session.store;
    await store.searchIndex.idle();
    const ids = store.reports
      .listReports({ limit: 500, offset: Math.floor(n / 3) })
      .map((r) => r.id);
    const draft = await engine.createDraft(PROGRAM);
    progress(`${count(n)} reports: before (old read model on this thread)`);
    const before = await callsBefore(engine, n, ids, draft.reportId);
    let drainBefore: Drain | null = null;
    if (n >= 100_000) {
      progress(`${count(n)} reports: old drain of the search index on this thread`);
      requeueIndex(store);
      drainBefore = await oldDrain(store);
    }
    await engine.close();

    // After: the engine in its own process, restoring the same account and mirror.
    await collectGarbage();
    progress(`${count(n)} reports: calls through the protocol`);
    const child = await startEngineProcess(dataDir);
    let after: Awaited<ReturnType<typeof callsAfter>>;
    try {
      // Its first sync pass (programs, account, a poll) runs at start, as in the app.
      await child.client.call('syncNow', []);
      after = await callsAfter(child, n, ids, draft.reportId);
    } finally {
      await child.close();
    }
    const results = callFigures(n, before, after);
    if (drainBefore) {
      // A fresh engine process opening a mirror whose whole index is queued.
      await requeueInFile(dataDir);
      await collectGarbage();
      progress(`${count(n)} reports: the engine process drains the search index`);
      const drainer = await startEngineProcess(dataDir);
      try {
        results.push(...drainFigures(n, drainBefore, await drainThroughProtocol(drainer)));
      } finally {
        await drainer.close();
      }
    }
    const signOut = await startEngineProcess(dataDir);
    await signOut.client.call('signOut', []);
    await signOut.close();
    return results;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function stallFigure(name: string, stalls: Watched): BenchResult {
  return {
    name: `${name} (gaps over ${FRAME_MS} ms: ${stalls.overFrame}; longest GC pause ${stalls.longestGc.toFixed(1)} ms${stalls.gcKind ? ` (${stalls.gcKind})` : ''}; baseline: a process doing nothing, over the same span)`,
    value: stalls.longest,
    unit: 'ms',
    baseline: stalls.witness,
    ratio: stalls.longest / stalls.witness,
    target: `<= ${FRAME_MS} ms`,
    ok: stalls.longest <= FRAME_MS,
  };
}

function callFigures(n: number, before: CallSet, after: CallSet & { bare: Timed }): BenchResult[] {
  const results: BenchResult[] = [
    {
      name: `${count(n)} reports: bare protocol round trip (getAccount), p95 (baseline of this block)`,
      value: after.bare.p95,
      unit: 'ms',
    },
  ];
  for (const key of Object.keys(LABELS) as (keyof CallSet)[]) {
    const a = after[key];
    const b = before[key];
    results.push(
      {
        name: `${count(n)} reports: ${LABELS[key]}, p95 round trip (median ${a.median.toFixed(2)} ms; baseline: bare round trip)`,
        value: a.p95,
        unit: 'ms',
        baseline: after.bare.p95,
        ratio: a.p95 / after.bare.p95,
        ...(n >= 100_000 ? { target: `< ${TARGET_CALL_MS} ms`, ok: a.p95 < TARGET_CALL_MS } : {}),
      },
      {
        name: `  before: on main's thread${key === 'open' || key === 'save' ? '' : ', old read model'}, p95 (ratio: before / after)`,
        value: b.p95,
        unit: 'ms',
        baseline: a.p95,
        ratio: b.p95 / a.p95,
      },
      stallFigure(`  main's longest stall`, a.stalls),
      {
        name: `  before: main's longest stall (gaps over ${FRAME_MS} ms: ${b.stalls.overFrame}; a process doing nothing: ${b.stalls.witness.toFixed(1)} ms)`,
        value: b.stalls.longest,
        unit: 'ms',
      },
    );
  }
  return results;
}

function drainFigures(n: number, before: Drain, after: Drain): BenchResult[] {
  const calls = after.calls;
  return [
    {
      name: `search-index drain of ${count(n)} reports in the engine process (before: ${(before.ms / 1000).toFixed(1)} s on main's thread; ratio: after / before)`,
      value: after.ms / 1000,
      unit: 's',
      baseline: before.ms / 1000,
      ratio: after.ms / before.ms,
    },
    stallFigure(`  main's longest stall during the drain`, after.stalls),
    {
      name: `  before: main's longest stall during the drain (gaps over ${FRAME_MS} ms: ${before.stalls.overFrame}; a process doing nothing: ${before.stalls.witness.toFixed(1)} ms)`,
      value: before.stalls.longest,
      unit: 'ms',
    },
    ...(calls
      ? [
          {
            name: `  list and search calls during the drain, p95 round trip (${calls.count} calls, slowest ${calls.max.toFixed(1)} ms; a search saw up to ${count(calls.indexing)} reports as not indexed yet, none waited)`,
            value: calls.p95,
            unit: 'ms',
          },
        ]
      : []),
  ];
}

// ---- 3: initial mirror -----------------------------------------------------------------------

interface Mirror {
  ms: number;
  stalls: Watched;
  requests: number;
  all: number;
  limited: number;
}

async function mirrorBefore(sandboxUrl: string): Promise<Mirror> {
  const { key } = await newAccount(sandboxUrl, MIRROR);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-ui-mirror-'));
  const engine = inProcessEngine(dataDir);
  try {
    await engine.connect({ serverUrl: sandboxUrl, apiKey: key });
    await resetStats(sandboxUrl);
    const t0 = performance.now();
    const { stalls } = await watch(() => engine.syncNow());
    const ms = performance.now() - t0;
    const after = await stats(sandboxUrl);
    return {
      ms,
      stalls,
      requests: reportRequests(after),
      all: after.requests,
      limited: after.by_status['429'] ?? 0,
    };
  } finally {
    await engine.signOut();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function mirrorAfter(sandboxUrl: string, rateLimited: boolean): Promise<Mirror> {
  const { key } = await newAccount(sandboxUrl, MIRROR);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-ui-mirror-'));
  const child = await startEngineProcess(
    dataDir,
    rateLimited
      ? { autoStart: false, linkedClock: sandboxUrl }
      : { autoStart: false, budgetLimit: UNLIMITED },
  );
  try {
    await child.client.call('connect', [{ serverUrl: sandboxUrl, apiKey: key }]);
    // connect() made requests of its own: the server's window forgets them.
    if (rateLimited) await control(sandboxUrl, 'POST', '/__sandbox/clock', { advance_seconds: 61 });
    await resetStats(sandboxUrl);
    const t0 = performance.now();
    const { stalls } = await watch(() => child.client.call('syncNow', []));
    const ms = performance.now() - t0;
    const after = await stats(sandboxUrl);
    console.error(`[ui] mirror requests by route: ${routeSummary(after)}`);
    await child.client.call('signOut', []);
    return {
      ms,
      stalls,
      requests: reportRequests(after),
      all: after.requests,
      limited: after.by_status['429'] ?? 0,
    };
  } finally {
    await child.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function mirrorFigures(before: Mirror, after: Mirror, limited: Mirror): BenchResult[] {
  const minimum = minimumMirrorRequests(MIRROR);
  return [
    {
      name: `initial mirror of ${count(MIRROR)} reports through the protocol, wall time (baseline: the engine on main's thread)`,
      value: after.ms / 1000,
      unit: 's',
      baseline: before.ms / 1000,
      ratio: after.ms / before.ms,
    },
    stallFigure(`  main's longest stall during the mirror`, after.stalls),
    {
      name: `  before: main's longest stall, the engine on main's thread (gaps over ${FRAME_MS} ms: ${before.stalls.overFrame}; a process doing nothing: ${before.stalls.witness.toFixed(1)} ms)`,
      value: before.stalls.longest,
      unit: 'ms',
    },
    {
      name: `  report requests (list + detail + thread; baseline: the minimum; before: ${before.requests})`,
      value: after.requests,
      unit: 'requests',
      baseline: minimum,
      ratio: after.requests / minimum,
      target: `<= ${minimum}`,
      ok: after.requests <= minimum,
    },
    {
      name: `initial mirror of ${count(MIRROR)} reports through the protocol, the server's rate limits: 429 responses`,
      value: limited.limited,
      unit: 'responses',
      target: '= 0',
      ok: limited.limited === 0,
    },
    {
      name: '  report requests (baseline: the minimum)',
      value: limited.requests,
      unit: 'requests',
      baseline: minimum,
      ratio: limited.requests / minimum,
      target: `<= ${minimum}`,
      ok: limited.requests <= minimum,
    },
    stallFigure(`  main's longest stall`, limited.stalls),
    {
      name: '  wall time (the budget waits skipped by the linked clock)',
      value: limited.ms / 1000,
      unit: 's',
    },
  ];
}

// ---- the suite -------------------------------------------------------------------------------

export async function benchUi(): Promise<BenchResult[]> {
  witness = startWitness();
  const idle = await idleStalls(3_000);
  const results: BenchResult[] = [
    {
      name: "main's longest stall over 3 s of doing nothing (the machine's own noise; baseline of every stall)",
      value: idle.longest,
      unit: 'ms',
    },
  ];
  const sandbox = await startSandboxProcess({ port: 0, agent: 'manual', rateLimits: 'off' });
  try {
    for (const n of SIZES) results.push(...(await benchCalls(sandbox.url, n)));
    progress(`initial mirror of ${count(MIRROR)}: before, the engine on this thread`);
    const before = await mirrorBefore(sandbox.url);
    await collectGarbage();
    progress(`initial mirror of ${count(MIRROR)}: after, through the protocol`);
    const after = await mirrorAfter(sandbox.url, false);
    await sandbox.close();
    progress(`initial mirror of ${count(MIRROR)}: the server's rate limits`);
    const limitedSandbox = await startSandboxProcess({
      port: 0,
      agent: 'manual',
      rateLimits: 'spec',
    });
    try {
      const limited = await mirrorAfter(limitedSandbox.url, true);
      results.push(...mirrorFigures(before, after, limited));
    } finally {
      await limitedSandbox.close();
    }
  } finally {
    await sandbox.close();
    witness.close();
    witness = null;
  }
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(formatResults('ui', await benchUi()));
}

/**
 * What the UI does, measured the way main does it: through the engine's process protocol
 * (src/main/engine-client.ts ⇄ src/engine/host/), with the engine and the sandbox in processes of
 * their own and this process playing main, its event loop watched by a 1 ms timer
 * (stall-monitor.ts). This process loads no engine: the "before" figures (main while the engine still ran in it,
 * the engine on its thread) and the seeding run in a child that plays the old main
 * (ui-old-main.ts), so that main's heap holds what main's does.
 *
 * 1. At 10,000 and 100,000 mirrored reports: the reports list's first page, a page in the middle,
 *    a status filter, a new search (two searches in turn, so that none is the one just made), a
 *    new search with a status filter, scrolling through a search page after page, dragging the
 *    scroll bar through a search (a page anywhere, back and forth), opening a report and saving a
 *    draft. p95 round trip against a bare round trip of the protocol
 *    (getAccount: one row) measured in the same run, and main's longest stall during each.
 *    Before: the same calls on the old main's thread, the list through the old read model kept
 *    in old-read-model.ts.
 * 2. The search-index drain of 100,000 queued reports. Before: the old drain (batches of 1,000,
 *    one per turn) on the old main's thread. After: the engine process drains while main makes
 *    list and search calls, which must not wait for it.
 * 3. The initial mirror of 10,000 reports. Before: the engine on the old main's thread. After:
 *    through the protocol, then again with the server's rate limits (request count and 429s).
 *
 * The mirrors of part 1 are filled directly with the store's own writes (bench/report-fixtures.ts:
 * drafts and decided reports with their threads), then the engine restores them as after any
 * restart; part 3 mirrors from the sandbox over HTTP.
 * Run alone with `bash scripts/with-keyring.sh npx tsx bench/ui.ts`, or through `npm run bench`.
 * `BENCH_UI_SIZES=10000` and `BENCH_UI_MIRROR=1000` make a quick run; `BENCH_UI_DRAIN=1` drains the
 * search index at every size.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ReportListPageView, StatusView } from '../src/shared/bridge/views';
import { weighDeserializers, type Collections } from './deserializers';
import { describeBreakdown, type MemoryBreakdown } from './engine-memory';
import { sampleRss } from './memory';
import { mirrorBytes } from './mirror-disk';
import { weighPageCaches, type CacheWeight } from './page-cache';
import {
  startDrainMain,
  startEngineProcess,
  startSandboxProcess,
  type EngineProcess,
} from './processes';
import { formatResults, median, percentile, type BenchResult } from './result';
import { control, minimumMirrorRequests, newAccount, routeSummary } from './sandbox-control';
import {
  idleStalls,
  longestUnshared,
  StallMonitor,
  startWitness,
  type Witness,
} from './stall-monitor';
import {
  collectGarbage,
  PAGE,
  queries,
  RUNS,
  SAVE_PAUSE_MS,
  SAVES,
  SEARCH,
  SEARCHES,
  timeCallSet,
  timeCalls,
  timeMirror,
  type CallSet,
  type Drain,
  type Mirror,
  type Timed,
  type Watch,
  type Watched,
} from './ui-calls';
import type { OldMainOps } from './ui-old-main';

const SIZES = (process.env['BENCH_UI_SIZES'] ?? '10000,100000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const MIRROR = Number(process.env['BENCH_UI_MIRROR'] ?? 10_000);
const UNLIMITED = 1_000_000_000;
const TARGET_CALL_MS = 10;
const FRAME_MS = 16;
const started = performance.now();
function progress(step: string): void {
  console.error(`[ui ${((performance.now() - started) / 1000).toFixed(1)} s] ${step}`);
}

let witness: Witness | null = null;

/** The witness's longest gap over the span of `stalls` (this process's or the old main's). */
async function witnessed(stalls: Watched): Promise<Watched> {
  const seen = await witness?.over(stalls);
  if (!seen) return stalls;
  return { ...stalls, witness: seen.longest, unshared: longestUnshared(stalls.gaps, seen.gaps) };
}

const watch: Watch = async (fn) => {
  const { value, stalls } = await new StallMonitor().during(fn);
  return {
    value,
    stalls: await witnessed({ ...stalls, witness: Number.NaN, unshared: Number.NaN }),
  };
};

const count = (n: number): string => n.toLocaleString('en-US');

// ---- 1 and 2: calls at n reports, before and after -------------------------------------------

const LABELS: Record<keyof CallSet, string> = {
  first: 'reports list, first page',
  middle: 'reports list, a page in the middle',
  status: 'reports list, status filter (accepted)',
  search: `reports list, a new search each call ("${SEARCHES.join('", "')}" in turn)`,
  searchStatus: 'reports list, a new search each call, with the status filter (accepted)',
  searchScroll: `reports list, scrolling through a search ("${SEARCH}": the next page each call)`,
  searchJump: `reports list, dragging the scroll bar through a search ("${SEARCH}": a page anywhere each call)`,
  open: 'open a report',
  save: `save a draft (${SAVES}, ${SAVE_PAUSE_MS} ms apart as the editor saves)`,
};

interface SearchWays {
  inOrder: { p95: number; median: number };
  /** The app's way until the exact count is in: the page, then countReports when it is pending. */
  counted: { p95: number; median: number };
  fromHits: { p95: number; median: number };
}

async function callsAfter(
  engine: EngineProcess,
  n: number,
  ids: string[],
  draftId: string,
): Promise<CallSet & { bare: Timed; ways: SearchWays }> {
  const call = (name: Parameters<EngineProcess['client']['call']>[0], ...args: unknown[]) =>
    engine.client.call(name, args);
  const bare = await timeCalls(watch, RUNS, () => call('getAccount'));
  const calls = await timeCallSet(watch, n, RUNS, draftId, {
    list: (query) => call('listReports', query),
    open: (i) => call('getReport', ids[i % ids.length]),
    save: (id, content) => call('saveDraft', id, content),
  });
  return { bare, ...calls, ways: await searchBothWays(engine, n) };
}

/**
 * A new search each call, read the app's way (its first page from the index in the list's
 * order, rows first), the app's way until its exact count is in (the page, then countReports as
 * the screen asks it when the page's total is pending), and as before migration 14 (from the set
 * of every hit, counted), interleaved call by call in the same engine and mirror, so that all
 * see the same machine. Each way's searches alternate their words, so none is the one that way
 * just made (the count of a word is kept only until another search is counted).
 */
async function searchBothWays(engine: EngineProcess, n: number): Promise<SearchWays> {
  const query = queries(n).search;
  const times = { inOrder: [] as number[], counted: [] as number[], fromHits: [] as number[] };
  const orders = [
    ['inOrder', 'counted', 'fromHits'],
    ['fromHits', 'inOrder', 'counted'],
    ['counted', 'fromHits', 'inOrder'],
  ] as const;
  const warm = 6;
  await collectGarbage();
  for (let i = 0; i < warm + RUNS; i++) {
    for (const way of orders[i % orders.length] ?? orders[0]) {
      await engine.listOrder(way !== 'fromHits');
      const q = query(i);
      const t0 = performance.now();
      const page = (await engine.client.call('listReports', [q])) as ReportListPageView;
      if (way === 'counted' && page.totalPending)
        await engine.client.call('countReports', [{ search: q.search }]);
      if (i >= warm) times[way].push(performance.now() - t0);
    }
  }
  await engine.listOrder(true);
  const figures = (list: number[]) => ({ p95: percentile(list, 95), median: median(list) });
  return {
    inOrder: figures(times.inOrder),
    counted: figures(times.counted),
    fromHits: figures(times.fromHits),
  };
}

/**
 * The engine process drains on its own; a process with main's code alone lists and searches
 * meanwhile (drain-main.ts), its stalls seen beside the witness's as the bench's own are.
 */
async function drainInMain(dataDir: string): Promise<Drain & { heapMb: number }> {
  const main = await startDrainMain({ dataDir, page: PAGE, search: SEARCH, pauseMs: 20 });
  try {
    const { stalls, ...drained } = await main.drain();
    return {
      ...drained,
      stalls: await witnessed({ ...stalls, witness: Number.NaN, unshared: Number.NaN }),
    };
  } finally {
    await main.close();
  }
}

/** The engine's bounds: steady with the mirror open, and during a fast first mirror. */
const ENGINE_STEADY_MB = 150;
const ENGINE_MIRROR_MB = 200;
/** SQLite page cache sizes weighed beside the store's own (KiB). */
const OTHER_CACHE_KIB = [2_048, 8_192, 32_768];
/** Calls of each list kind per size. */
const CACHE_RUNS = 40;
/** The mirror's bound on disk, bytes per report. */
const DISK_PER_REPORT = 4_096;

function engineMemoryFigures(
  n: number,
  memory: { peak: number; end: number; made: MemoryBreakdown },
): BenchResult[] {
  return [
    {
      name: `${count(n)} reports: memory: the engine process's resident set at its largest during the calls above (at their end: ${memory.end.toFixed(0)} MB)`,
      value: memory.peak,
      unit: 'MB',
      target: `<= ${ENGINE_STEADY_MB} MB`,
      ok: memory.peak <= ENGINE_STEADY_MB,
    },
    {
      name: `  what the engine's resident set held at the end, after a full collection: ${describeBreakdown(memory.made)}`,
      value: memory.made.rss,
      unit: 'MB',
    },
  ];
}

function diskFigure(what: string, n: number, bytes: number): BenchResult {
  const perReport = bytes / n;
  return {
    name: `${what}: disk, bytes per report (the file and its WAL after the engine closed it: ${(bytes / 1024 / 1024).toFixed(0)} MB)`,
    value: perReport,
    unit: 'B',
    target: `<= ${DISK_PER_REPORT} B`,
    ok: perReport <= DISK_PER_REPORT,
  };
}

function cacheFigures(n: number, storeKib: number, weights: CacheWeight[]): BenchResult[] {
  const own = weights.find((w) => w.kib === storeKib);
  return weights.map((w) => ({
    name: `${count(n)} reports: SQLite page cache ${(w.kib / 1024).toFixed(0)} MiB${w.kib === storeKib ? " (the store's)" : ''}, one engine per size, calls in turn: every list call p95 (a page in the middle p95 ${w.middle.toFixed(2)} ms, a new search p95 ${w.search.toFixed(2)} ms; the engine's resident set after ${w.rss.toFixed(0)} MB; baseline: the store's size)`,
    value: w.all,
    unit: 'ms',
    baseline: own?.all ?? Number.NaN,
    ratio: w.all / (own?.all ?? Number.NaN),
  }));
}

// ---- the old main: a child process with the engine on its thread ------------------------------

interface OldMain {
  call<K extends keyof OldMainOps>(
    op: K,
    args: Parameters<OldMainOps[K]>[0],
  ): Promise<Awaited<ReturnType<OldMainOps[K]>>>;
  close(): void;
}

function startOldMain(): OldMain {
  const child = fork(fileURLToPath(new URL('./ui-old-main.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 1;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  child.on('message', (raw) => {
    const answer = raw as { id: number; ok: boolean; value?: unknown; error?: string };
    const pending = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (answer.ok) pending?.resolve(answer.value);
    else pending?.reject(new Error(`old main: ${answer.error ?? 'failed'}`));
  });
  child.on('exit', (code) => {
    for (const pending of waiting.values()) pending.reject(new Error(`old main exited: ${code}`));
    waiting.clear();
  });
  return {
    call: (op, args) =>
      new Promise((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, op, args });
      }),
    close: () => void child.kill(),
  };
}

async function withWitness(set: CallSet): Promise<CallSet> {
  const out = { ...set };
  for (const key of Object.keys(set) as (keyof CallSet)[])
    out[key] = { ...set[key], stalls: await witnessed(set[key].stalls) };
  return out;
}

async function benchCalls(oldMain: OldMain, sandboxUrl: string, n: number): Promise<BenchResult[]> {
  progress(`${count(n)} reports: seeding the mirror`);
  const dataDir = await oldMain.call('seed', { sandboxUrl, n });
  try {
    // Before: the engine on the old main's thread.
    progress(`${count(n)} reports: before (old read model on the old main's thread)`);
    const old = await oldMain.call('before', { dataDir, n });
    const before = await withWitness(old.calls);
    const drainBefore = old.drain
      ? { ...old.drain, stalls: await witnessed(old.drain.stalls) }
      : null;

    // After: the engine in its own process, restoring the same account and mirror.
    await collectGarbage();
    progress(`${count(n)} reports: calls through the protocol`);
    const child = await startEngineProcess(dataDir);
    let after: Awaited<ReturnType<typeof callsAfter>>;
    let engineMemory: { peak: number; end: number; made: MemoryBreakdown };
    let storeKib = 0;
    try {
      // Its first sync pass (programs, account, a poll) runs at start, as in the app.
      await child.client.call('syncNow', []);
      const sampled = await sampleRss(
        () => [child.pid()],
        () => callsAfter(child, n, old.ids, old.draftId),
      );
      after = sampled.value;
      engineMemory = { peak: sampled.peak, end: sampled.end, made: await child.memory(true) };
      storeKib = await child.cacheKib(0);
    } finally {
      await child.close();
    }
    const disk = mirrorBytes(dataDir);
    const results = [
      ...callFigures(n, before, after),
      ...engineMemoryFigures(n, engineMemory),
      diskFigure(`${count(n)} reports, the mirror as the store writes it in batches`, n, disk),
    ];
    if (drainBefore) {
      // A fresh engine process opening a mirror whose whole index is queued.
      await oldMain.call('requeue', { dataDir });
      await collectGarbage();
      progress(`${count(n)} reports: the engine process drains the search index`);
      results.push(...drainFigures(n, drainBefore, await drainInMain(dataDir)));
    }
    // Last: a 100,000-report run once lost the account's sign-in right after the weighing (the
    // old main's next open found no key, under a load average of 12; not seen at 10,000).
    progress(`${count(n)} reports: SQLite page cache sizes, one engine each`);
    const sizes = [storeKib, ...OTHER_CACHE_KIB.filter((kib) => kib !== storeKib)];
    results.push(
      ...cacheFigures(n, storeKib, await weighPageCaches(dataDir, n, sizes, CACHE_RUNS)),
    );
    const signOut = await startEngineProcess(dataDir);
    await signOut.client.call('signOut', []);
    await signOut.close();
    return results;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function stallFigures(name: string, stalls: Watched): BenchResult[] {
  const raw: BenchResult = {
    name: `${name} (gaps over ${FRAME_MS} ms: ${stalls.overFrame}; longest GC pause ${stalls.longestGc.toFixed(1)} ms${stalls.gcKind ? ` (${stalls.gcKind})` : ''}; baseline: a process doing nothing, over the same span)`,
    value: stalls.longest,
    unit: 'ms',
    baseline: stalls.witness,
    ratio: stalls.longest / stalls.witness,
  };
  return [raw, unsharedFigure(stalls), ownWorkFigure(stalls)];
}

/** Main's longest stall less what the idle process was stalled at the same time. */
function unsharedFigure(stalls: Watched): BenchResult {
  return {
    name: `    main's longest stall while the idle process ran (a stall both saw at once is the machine's)`,
    value: stalls.unshared,
    unit: 'ms',
  };
}

/**
 * Main's own work in its stalls, the figure the frame's target (16 ms) is held to: on a machine
 * whose cores are shared a gap lasts as long as the scheduler makes it (a process doing nothing
 * stalled 13-37 ms during the drain at 100,000 reports); the time main's thread ran inside it is
 * what main's code cost the window. The wall-clock figures above are printed beside it.
 */
function ownWorkFigure(stalls: Watched): BenchResult {
  const { busiest: b, longestParts: l } = stalls;
  const ms = (v: number): string => `${v.toFixed(1)} ms`;
  return {
    name: `    main's own work in one gap, at most: the time its thread ran between two ticks (in a gap of ${ms(b.gap)}, ${ms(b.wait)} of it waiting for a core; the longest gap: ${ms(l.run)} run, ${ms(l.wait)} waiting for a core)`,
    value: b.run,
    unit: 'ms',
    target: `<= ${FRAME_MS} ms`,
    ok: b.run <= FRAME_MS,
  };
}

function callFigures(
  n: number,
  before: CallSet,
  after: CallSet & { bare: Timed; ways: SearchWays },
): BenchResult[] {
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
      ...stallFigures(`  main's longest stall`, a.stalls),
      {
        name: `  before: main's longest stall (gaps over ${FRAME_MS} ms: ${b.stalls.overFrame}; a process doing nothing: ${b.stalls.witness.toFixed(1)} ms)`,
        value: b.stalls.longest,
        unit: 'ms',
      },
    );
    if (key === 'search') results.push(...searchWayFigures(n, after.ways));
  }
  return results;
}

function searchWayFigures(n: number, ways: SearchWays): BenchResult[] {
  const { inOrder, counted, fromHits } = ways;
  return [
    {
      name: `  a new search, interleaved: first page from the index in the list's order, rows first (the app), p95 (median ${inOrder.median.toFixed(2)} ms; baseline: from the set of every hit, as before migration 14)`,
      value: inOrder.p95,
      unit: 'ms',
      baseline: fromHits.p95,
      ratio: inOrder.p95 / fromHits.p95,
      ...(n >= 100_000
        ? { target: `< ${TARGET_CALL_MS} ms`, ok: inOrder.p95 < TARGET_CALL_MS }
        : {}),
    },
    {
      name: `    and its exact count in (the page, then countReports as the screen asks it), p95 (median ${counted.median.toFixed(2)} ms; ratio: to the set of every hit)`,
      value: counted.p95,
      unit: 'ms',
      baseline: fromHits.p95,
      ratio: counted.p95 / fromHits.p95,
    },
    {
      name: `    from the set of every hit (before migration 14), p95 (median ${fromHits.median.toFixed(2)} ms)`,
      value: fromHits.p95,
      unit: 'ms',
    },
  ];
}

function drainFigures(n: number, before: Drain, after: Drain & { heapMb: number }): BenchResult[] {
  const calls = after.calls;
  return [
    {
      name: `search-index drain of ${count(n)} reports in the engine process (before: ${(before.ms / 1000).toFixed(1)} s on main's thread; ratio: after / before)`,
      value: after.ms / 1000,
      unit: 's',
      baseline: before.ms / 1000,
      ratio: after.ms / before.ms,
    },
    ...stallFigures(
      `  main's longest stall during the drain (main played by a process with main's code alone, its heap ${after.heapMb.toFixed(1)} MB at the end)`,
      after.stalls,
    ),
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

async function mirrorAfter(
  sandboxUrl: string,
  rateLimited: boolean,
): Promise<Mirror & { rssPeak: number; rssEnd: number; made: MemoryBreakdown; disk: number }> {
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
    // The pass lists; a large account's reports follow in the background mirror, until the
    // status says the mirror is complete.
    const sampled = await sampleRss(
      () => [child.pid()],
      () =>
        timeMirror(watch, sandboxUrl, async () => {
          await child.client.call('syncNow', []);
          while (((await child.client.call('getStatus', [])) as StatusView).mirror) {
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }),
    );
    const { after, ...mirror } = sampled.value;
    console.error(`[ui] mirror requests by route: ${routeSummary(after)}`);
    const made = await child.memory(true);
    await child.client.call('signOut', []);
    await child.close();
    return {
      ...mirror,
      rssPeak: sampled.peak,
      rssEnd: sampled.end,
      made,
      disk: mirrorBytes(dataDir),
    };
  } finally {
    await child.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function mirrorFigures(
  before: Mirror,
  after: Mirror & { rssPeak: number; rssEnd: number; made: MemoryBreakdown; disk: number },
  limited: Mirror,
): BenchResult[] {
  const minimum = minimumMirrorRequests(MIRROR);
  return [
    {
      name: `initial mirror of ${count(MIRROR)} reports, no rate limits: memory: the engine process's resident set at its largest (at the end: ${after.rssEnd.toFixed(0)} MB)`,
      value: after.rssPeak,
      unit: 'MB',
      target: `<= ${ENGINE_MIRROR_MB} MB`,
      ok: after.rssPeak <= ENGINE_MIRROR_MB,
    },
    {
      name: `  what the engine's resident set held at the end, after a full collection: ${describeBreakdown(after.made)}`,
      value: after.made.rss,
      unit: 'MB',
    },
    {
      name: `initial mirror of ${count(MIRROR)} reports through the protocol, wall time (baseline: the engine on main's thread)`,
      value: after.ms / 1000,
      unit: 's',
      baseline: before.ms / 1000,
      ratio: after.ms / before.ms,
    },
    diskFigure(`initial mirror of ${count(MIRROR)} reports over HTTP`, MIRROR, after.disk),
    ...stallFigures(`  main's longest stall during the mirror`, after.stalls),
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
    ...stallFigures(`  main's longest stall`, limited.stalls),
    {
      name: '  wall time (the budget waits skipped by the linked clock)',
      value: limited.ms / 1000,
      unit: 's',
    },
  ];
}

/** Why the drain's main takes the engine's answers as JSON (deserializers.ts). */
function deserializerFigures(ways: Collections[]): BenchResult[] {
  const scoped = ways.find((w) => w.way === 'scoped');
  const label: Record<Collections['way'], string> = {
    'node-channel': "Node's channel deserializer (`v8.deserialize`)",
    scoped: "a scoped deserializer, as Electron's main has (`structuredClone`)",
    json: "JSON, as the bench's processes playing main receive the engine's answers",
  };
  return ways.map((w) => ({
    name: `a 200-row list page every 20 ms, the receiver's longest scavenge: ${label[w.way]} (collections ${w.msPerSecond.toFixed(1)} ms a second; baseline: the scoped one)`,
    value: w.longestMinor,
    unit: 'ms',
    ...(scoped
      ? { baseline: scoped.longestMinor, ratio: w.longestMinor / scoped.longestMinor }
      : {}),
  }));
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
  progress('list pages received by three deserializers');
  results.push(...deserializerFigures(await weighDeserializers()));
  const sandbox = await startSandboxProcess({ port: 0, agent: 'manual', rateLimits: 'off' });
  const oldMain = startOldMain();
  try {
    for (const n of SIZES) results.push(...(await benchCalls(oldMain, sandbox.url, n)));
    progress(`initial mirror of ${count(MIRROR)}: before, the engine on the old main's thread`);
    const mirrored = await oldMain.call('mirror', { sandboxUrl: sandbox.url, reports: MIRROR });
    const before = { ...mirrored, stalls: await witnessed(mirrored.stalls) };
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
    oldMain.close();
    await sandbox.close();
    witness.close();
    witness = null;
  }
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(formatResults('ui', await benchUi()));
}

/**
 * The engine process of the UI benchmark: the app's own host (`serveEngine`, the protocol main
 * speaks) around an Engine with bench options from `BENCH_ENGINE` (JSON): no request budget for
 * the wall-time mirror, or a clock linked to the sandbox's for the rate-limited one
 * (engine-clock.ts). Beside the protocol, one question only the bench asks: `bench-index-idle`
 * answers once the search index drained, with how long that took in this process.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Engine, type EngineOptions } from '../src/engine/commands';
import { serveEngine } from '../src/engine/host/engine-host';
import { sizeHeapForMemory } from '../src/engine/host/heap-size';
import { KeychainSecretStore } from '../src/engine/secrets';
import type { ReportListRepository, Store } from '../src/engine/store';
import { createReportListRepository } from '../src/engine/store/report-list';
import { parentPort, type ParentPort } from '../src/shared/process/parent-port';
import { SandboxLinkedClock } from './engine-clock';
import { memoryBreakdown, type MemoryBreakdown } from './engine-memory';

export interface BenchEngineConfig {
  budgetLimit?: number;
  syncConcurrency?: number;
  autoStart?: boolean;
  /** The sandbox whose clock the engine's budget follows. */
  linkedClock?: string;
  /** No periodic pass during the run (the mirror bench counts the mirror's requests only). */
  quietCadences?: boolean;
  /** V8's default heap sizing instead of the app's (heap-size.ts), to weigh the two. */
  v8Defaults?: boolean;
}

export type ToBenchEngine =
  | { type: 'bench-index-idle' | 'bench-mirror-state'; id: number }
  | { type: 'bench-memory'; id: number; collect: boolean }
  | { type: 'bench-clock-hold'; id: number; held: boolean }
  | { type: 'bench-list-order'; id: number; indexOrder: boolean }
  | { type: 'bench-cache-kib'; id: number; kib: number };
export type FromBenchEngine = {
  type: 'bench-answer';
  id: number;
  value: number | MirrorState | MemoryBreakdown;
};

/** What the mirror bench asks the engine's mirror directly (it must not open reports to know). */
export interface MirrorState {
  listed: number;
  current: number;
  /** needs_info reports not yet stored in full with their thread. */
  needsInfoPending: number;
  mirroring: boolean;
}

const DAY = 24 * 3600_000;
setFlagsFromString('--expose-gc');
const fullGc = runInNewContext('gc') as () => void;
const config = JSON.parse(process.env['BENCH_ENGINE'] ?? '{}') as BenchEngineConfig;
// As the app's engine process does (src/engine/host/engine-process.ts), unless weighed against it.
if (!config.v8Defaults) sizeHeapForMemory();
const port = parentPort();
let engine: Engine | null = null;
const linked = config.linkedClock ? new SandboxLinkedClock(config.linkedClock) : null;

async function indexIdle(): Promise<number> {
  const started = performance.now();
  const store = engine?.session.store;
  while (store && store.searchIndex.pending() > 0) {
    await store.searchIndex.idle();
    // idle() resolves when a drain ends; a write may have queued more meanwhile.
    if (store.searchIndex.pending() > 0) store.searchIndex.schedule();
  }
  return performance.now() - started;
}

function mirrorState(): MirrorState {
  const session = engine?.session;
  if (!session) return { listed: 0, current: 0, needsInfoPending: 0, mirroring: false };
  const store = session.store;
  const counts = store.reports.countMirrored();
  const needsInfo = store.reportList.page({ status: ['needs_info'], offset: 0, limit: 1_000_000 });
  const needsInfoPending = needsInfo.rows
    .map((row) => store.reports.getStoredRow(row.id))
    .filter(
      (r) => !r || !r.has_full || r.stale || store.messages.listThread(r.id).length === 0,
    ).length;
  return { ...counts, needsInfoPending, mirroring: counts.listed > counts.current };
}

const lists = new WeakMap<
  Store,
  { inOrder: ReportListRepository; fromHits: ReportListRepository }
>();

/**
 * The store's reports list from now on: its own (a search's first pages read from the index in
 * the list's order), or one that reads every search from the set of its hits, as before
 * migration 14 (store/report-list/ordered.ts). The UI bench measures both in turn.
 */
function useListOrder(indexOrder: boolean): void {
  const store = engine?.session.store;
  if (!store) return;
  let both = lists.get(store);
  if (!both) {
    both = {
      inOrder: store.reportList,
      fromHits: createReportListRepository(store.db, { indexOrder: false }),
    };
    lists.set(store, both);
  }
  (store as { reportList: ReportListRepository }).reportList = indexOrder
    ? both.inOrder
    : both.fromHits;
}

const withBench: ParentPort = {
  postMessage: (message) => port.postMessage(message),
  onMessage: (listener) =>
    port.onMessage((raw) => {
      const message = raw as ToBenchEngine | { type: string };
      if (message.type === 'bench-clock-hold') {
        const { id, held } = message as ToBenchEngine & { held: boolean };
        linked?.hold(held);
        port.postMessage({ type: 'bench-answer', id, value: 0 } satisfies FromBenchEngine);
        return;
      }
      if (message.type === 'bench-list-order') {
        const { id, indexOrder } = message as ToBenchEngine & { indexOrder: boolean };
        useListOrder(indexOrder);
        port.postMessage({ type: 'bench-answer', id, value: 0 } satisfies FromBenchEngine);
        return;
      }
      if (message.type === 'bench-cache-kib') {
        // SQLite's page cache of the store's connection, to weigh its size against the calls
        // (0: left as the store set it); the answer is the size in KiB.
        const { id, kib } = message as ToBenchEngine & { kib: number };
        const sqlite = engine?.session.store.db.sqlite;
        if (kib > 0) sqlite?.pragma(`cache_size = -${Math.trunc(kib)}`);
        const pages = Number(sqlite?.pragma('cache_size', { simple: true }) ?? 0);
        const pageSize = Number(sqlite?.pragma('page_size', { simple: true }) ?? 0);
        // Negative: KiB; positive: pages.
        const value = pages < 0 ? -pages : (pages * pageSize) / 1024;
        port.postMessage({ type: 'bench-answer', id, value } satisfies FromBenchEngine);
        return;
      }
      if (message.type === 'bench-memory') {
        // After a full collection when asked: V8's live heap without the garbage not yet collected.
        const { id, collect } = message as ToBenchEngine & { collect: boolean };
        if (collect) fullGc();
        port.postMessage({ type: 'bench-answer', id, value: memoryBreakdown() });
        return;
      }
      if (message.type === 'bench-mirror-state') {
        const { id } = message as ToBenchEngine;
        port.postMessage({ type: 'bench-answer', id, value: mirrorState() });
        return;
      }
      if (message.type !== 'bench-index-idle') return listener(raw);
      const { id } = message as ToBenchEngine;
      void indexIdle().then((value) =>
        port.postMessage({ type: 'bench-answer', id, value } satisfies FromBenchEngine),
      );
    }),
};

serveEngine(
  withBench,
  (options) => {
    const engineOptions: EngineOptions = {
      dataDir: options.dataDir,
      secrets: new KeychainSecretStore(),
      // No extra poll a few seconds after the bench's own writes.
      cadences: {
        afterActionMs: 10 * 60_000,
        ...(config.quietCadences
          ? { reportsMs: DAY, payoutsMs: DAY, programsMs: DAY, accountMs: DAY, reconcileMs: DAY }
          : {}),
      },
      ...(config.budgetLimit ? { budgetLimit: config.budgetLimit } : {}),
      ...(config.syncConcurrency ? { syncConcurrency: config.syncConcurrency } : {}),
      ...(config.autoStart !== undefined ? { autoStart: config.autoStart } : {}),
      ...(linked ? { clock: linked } : {}),
    };
    engine = new Engine(engineOptions);
    return engine;
  },
  (code) => process.exit(code),
);

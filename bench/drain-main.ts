/**
 * The process that plays main while the engine drains the search index (ui.ts, part 2). It holds
 * what main holds on that path, main's engine client bundled as the app bundles main, and none of
 * the bench's own modules, results or tsx's loader: the collections that stalled the bench
 * process during the drain were the memory reducer's, over a heap that was mostly the bench's
 * own (docs/architecture.md). Main's stall during the drain is then a figure of main's heap.
 *
 * Started with `BENCH_DRAIN_MAIN` (DrainMainConfig, JSON): says `ready` once the engine answers,
 * answers `drain` with DrainedInMain, and ends on `close`.
 */
import { getHeapStatistics } from 'node:v8';
import type { ReportListPageView } from '../src/shared/bridge/views';
import { engineProcessOf } from './engine-process';
import { percentile } from './result';
import { StallMonitor, type Stalls } from './stall-monitor';

export interface DrainMainConfig {
  /** The bench's engine bundle (engineBundle()). */
  engineEntry: string;
  dataDir: string;
  /** The list's page size and the search main asks for while the index drains. */
  page: number;
  search: string;
  /** Main's pause between two calls, ms. */
  pauseMs: number;
}

export interface DrainedInMain {
  ms: number;
  stalls: Stalls;
  calls: { p95: number; max: number; count: number; indexing: number };
  /** V8's used heap of this process at the drain's end, MB. */
  heapMb: number;
}

export type ToDrainMain = { type: 'drain' } | { type: 'close' };
export type FromDrainMain = { type: 'ready' } | { type: 'drained'; drain: DrainedInMain };

const config = JSON.parse(process.env['BENCH_DRAIN_MAIN'] ?? '{}') as DrainMainConfig;
const engine = await engineProcessOf(config.engineEntry, config.dataDir);
const send = (message: FromDrainMain): void => void process.send?.(message);

/** The engine drains on its own; main lists and searches meanwhile, a call every `pauseMs`. */
async function drain(): Promise<DrainedInMain> {
  const times: number[] = [];
  let indexing = 0;
  let done = false;
  const { value: ms, stalls } = await new StallMonitor().during(async () => {
    const drained = engine.indexIdle().then((inEngine) => {
      done = true;
      return inEngine;
    });
    for (let i = 0; !done; i++) {
      const t0 = performance.now();
      const query =
        i % 2 === 0
          ? { offset: 0, limit: config.page }
          : { search: config.search, limit: config.page };
      const page = (await engine.client.call('listReports', [query])) as ReportListPageView;
      times.push(performance.now() - t0);
      indexing = Math.max(indexing, page.indexing);
      await new Promise((resolve) => setTimeout(resolve, config.pauseMs));
    }
    return drained;
  });
  return {
    ms,
    stalls,
    calls: { p95: percentile(times, 95), max: Math.max(...times), count: times.length, indexing },
    heapMb: getHeapStatistics().used_heap_size / 1024 / 1024,
  };
}

process.on('message', (raw) => {
  const message = raw as ToDrainMain;
  if (message.type === 'drain')
    void drain().then((result) => send({ type: 'drained', drain: result }));
  else void engine.close().then(() => process.exit(0));
});
send({ type: 'ready' });

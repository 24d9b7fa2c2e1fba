/**
 * SQLite page cache sizes weighed against the reports list's calls, fairly: one engine process per
 * size, each on its own copy of the same mirror (one connection's cache cannot hold two sizes at
 * once, and a smaller size drops what a larger one held), all warmed with the same calls, then the
 * same calls made in turn, call by call, the engines' order rotating, so every size sees the same
 * queries and the same moments of the shared machine. Each engine's resident set is read at the
 * end: what the size costs in memory.
 */
import { cpSync, rmSync } from 'node:fs';
import type { ReportQuery } from '../src/shared/bridge/views';
import { rssMb } from './memory';
import { startEngineProcess, type EngineProcess } from './processes';
import { percentile } from './result';
import { queries } from './ui-calls';

/** The list calls weighed (every kind the reports screen makes). */
const KINDS = [
  'first',
  'middle',
  'status',
  'search',
  'searchStatus',
  'searchScroll',
  'searchJump',
] as const;
const WARM = 6;

export interface CacheWeight {
  kib: number;
  /** p95 of every list call, and of the two the cache matters most to. */
  all: number;
  middle: number;
  search: number;
  /** The engine's resident set after the calls, MB. */
  rss: number;
}

/**
 * Weighs `sizes` (KiB) on copies of the signed-in account under `dataDir` (no engine may run on
 * it meanwhile); `runs` calls of each kind per size.
 */
export async function weighPageCaches(
  dataDir: string,
  n: number,
  sizes: readonly number[],
  runs: number,
): Promise<CacheWeight[]> {
  const dirs = sizes.map((kib) => `${dataDir}-cache-${kib}`);
  for (const dir of dirs) cpSync(dataDir, dir, { recursive: true });
  const engines: EngineProcess[] = [];
  try {
    for (const [i, dir] of dirs.entries()) {
      const engine = await startEngineProcess(dir, { quietCadences: true });
      engines.push(engine);
      await engine.cacheKib(sizes[i] ?? 0);
      await engine.indexIdle();
    }
    const q = queries(n);
    const call = (engine: EngineProcess, query: ReportQuery) =>
      engine.client.call('listReports', [query]);
    for (let i = 0; i < WARM; i++)
      for (const kind of KINDS) for (const engine of engines) await call(engine, q[kind](i));
    const times = engines.map(() => new Map(KINDS.map((k) => [k, [] as number[]])));
    for (let i = WARM; i < WARM + runs; i++) {
      for (const kind of KINDS) {
        for (let j = 0; j < engines.length; j++) {
          const at = (i + j) % engines.length;
          const engine = engines[at] as EngineProcess;
          const t0 = performance.now();
          await call(engine, q[kind](i));
          times[at]?.get(kind)?.push(performance.now() - t0);
        }
      }
    }
    return sizes.map((kib, at) => {
      const own = times[at] ?? new Map<string, number[]>();
      return {
        kib,
        all: percentile([...own.values()].flat(), 95),
        middle: percentile(own.get('middle') ?? [], 95),
        search: percentile(own.get('search') ?? [], 95),
        rss: rssMb(engines[at]?.pid() ?? 0),
      };
    });
  } finally {
    for (const engine of engines) await engine.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

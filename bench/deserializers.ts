/**
 * What a list page costs the heap of the process that receives it, by the way it is deserialized
 * (ui.ts, before the drain). A page of 200 rows, as `listReports` answers, arrives every 20 ms for
 * a few seconds; each way runs in a child of its own, and the child reports its collections.
 *
 * - `node-channel`: `v8.deserialize`, the JS-wrapped `v8.Deserializer` that Node's `'advanced'`
 *   child-process channel reads each message with. Its map of every object it made is a strong
 *   handle until V8 collects the deserializer: every page since the last scavenge survives it.
 * - `scoped`: `structuredClone`, whose deserializer ends with the call, as Electron's main
 *   deserializes a utility process's message (`electron::DeserializeV8Value`).
 * - `json`: `JSON.parse`, what the drain's main stand-in receives (utility-child.ts).
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import type { ReportListPageView } from '../src/shared/bridge/views';
import { makeReports } from './report-fixtures';
import { forkChild } from './utility-child';

export const WAYS = ['node-channel', 'scoped', 'json'] as const;
export type Way = (typeof WAYS)[number];

export interface Collections {
  way: Way;
  /** The longest scavenge, and all collections' time per second, ms. */
  longestMinor: number;
  msPerSecond: number;
}

const SECONDS = 4;
const PAUSE_MS = 20;

function page(): ReportListPageView {
  const items = makeReports(200).map((r, i) => ({
    id: r.id,
    programId: r.program_id,
    programName: `Program ${i % 40}`,
    status: r.status,
    displayStatus: r.display_status,
    title: r.title,
    updatedAt: r.updated_at,
    unsent: false,
    conflict: false,
    needsAction: false,
    queuedAction: null,
    severity: 9.8,
  }));
  const programs = Array.from({ length: 40 }, (_, i) => ({
    id: `program-${i}`,
    name: `Program ${i}`,
    count: 2_500,
  }));
  return { items, total: 100_000, counts: {}, statusLabels: {}, programs, indexing: 0 };
}

/** In the child: receives pages the way `way` does, and says what its collections took. */
async function receive(way: Way): Promise<Collections> {
  const message = { id: 1, ok: true, value: page() };
  const bytes = serialize(message);
  const text = JSON.stringify(message);
  const read: Record<Way, () => unknown> = {
    'node-channel': () => deserialize(bytes),
    scoped: () => structuredClone(message),
    json: () => JSON.parse(text),
  };
  let longestMinor = 0;
  let total = 0;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      total += entry.duration;
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind !== constants.NODE_PERFORMANCE_GC_MAJOR)
        longestMinor = Math.max(longestMinor, entry.duration);
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  const end = performance.now() + SECONDS * 1000;
  let rows = 0;
  while (performance.now() < end) {
    rows += (read[way]() as { value: ReportListPageView }).value.items.length;
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
  gc.disconnect();
  if (rows === 0) throw new Error('no page was read');
  return { way, longestMinor, msPerSecond: total / SECONDS };
}

/** Each way in a child of its own (a heap of its own), one after the other. */
export async function weighDeserializers(): Promise<Collections[]> {
  const results: Collections[] = [];
  for (const way of WAYS) {
    const child = forkChild(fileURLToPath(import.meta.url), { BENCH_DESERIALIZE: way });
    results.push(
      await new Promise<Collections>((resolve, reject) => {
        child.once('message', (answer) => resolve(answer as Collections));
        child.once('exit', (code) =>
          reject(new Error(`deserializers.ts (${way}) exited: ${code}`)),
        );
      }),
    );
    child.kill();
  }
  return results;
}

const asked = process.env['BENCH_DESERIALIZE'] as Way | undefined;
if (asked && process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.send?.(await receive(asked));
}

import type { ResearcherApi } from '../api';
import type { EngineEvents } from '../engine/events';
import type { Store } from '../store';

export interface SyncContext {
  api: ResearcherApi;
  store: Store;
  events: EngineEvents;
  /** Reports whose detail requests run at once during a pass (the budget still rules the rate). */
  concurrency: number;
  /** When each report was last read in full (this run): follow-ups skip what a poll just read. */
  fetchedAt?: Map<string, number>;
}

/** Runs `work` over `items` with at most `limit` running at once, in order of start. */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  });
  await Promise.all(workers);
}

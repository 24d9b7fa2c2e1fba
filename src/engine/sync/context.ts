import pLimit from 'p-limit';
import type { ResearcherApi } from '../api';
import type { EngineEvents } from '../events/engine-events';
import type { Store } from '../store';

export interface SyncContext {
  api: ResearcherApi;
  store: Store;
  events: EngineEvents;
  /** Reports whose detail requests run at once during a pass (the budget still rules the rate). */
  concurrency: number;
  /** When each report was last read in full (this run): follow-ups skip what a poll just read. */
  fetchedAt?: Map<string, number>;
  /** Reports being read now (a report opened on demand): the mirror does not read them twice. */
  reading?: Set<string>;
}

/**
 * Runs `work` over `items` with at most `limit` running at once, in order of start. The first
 * failure rejects, and items not yet started are dropped (what runs already finishes).
 */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const run = pLimit(Math.max(1, limit));
  await Promise.all(
    items.map((item) =>
      run(() => work(item)).catch((error: unknown) => {
        run.clearQueue();
        throw error;
      }),
    ),
  );
}

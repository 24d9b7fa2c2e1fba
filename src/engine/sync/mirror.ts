/**
 * The mirror's order: what the researcher needs first. Every list page comes first
 * (the poll, report-poller.ts), then the stale reports group by group: `needs_info` with their
 * threads, the other open statuses and drafts, then the decided and withdrawn ones newest first
 * with their threads put off, and those threads last. Each chunk is taken from the top again, so a
 * report that turns `needs_info` meanwhile goes next. The requests stay the minimum: one read per
 * report, one thread per submitted report.
 */
import type { Priority } from '../api';
import type { SyncContext } from './context';
import { fetchDeferredThreads, fetchReports } from './report-fetcher';

/** Reports taken from the top of the order at a time. */
const CHUNK = 50;

export async function fetchBacklog(
  ctx: SyncContext,
  priority: Priority,
  signal?: AbortSignal,
): Promise<number> {
  let fetched = 0;
  // A report read and still stale (the server answered an older state) waits for the next pass
  // instead of being read again in a loop.
  const tried = new Set<string>();
  for (;;) {
    signal?.throwIfAborted();
    const ids = ctx.store.reports.listStaleByNeed(CHUNK, tried)?.ids ?? [];
    if (ids.length > 0) {
      for (const id of ids) tried.add(id);
      fetched += await fetchReports(ctx, ids, priority, signal, { deferTerminalThreads: true });
      // Only what is still stale stays tried (the set stays small).
      for (const id of ids)
        if (ctx.store.reports.getStoredRow(id)?.stale !== true) tried.delete(id);
      continue;
    }
    const threads = ctx.store.syncState.deferredThreads(CHUNK);
    if (threads.length === 0) return fetched;
    fetched += await fetchDeferredThreads(ctx, threads, priority, signal);
  }
}

export interface MirrorProgress {
  /** Reports in the mirror (every list page read so far). */
  total: number;
  /** Of them, stored in full. */
  downloaded: number;
  /** Requests still to make: stale reports, their threads and the threads put off. */
  remainingRequests: number;
}

/** Where the mirror is: null once every report and thread is in. */
export function mirrorProgress(ctx: Pick<SyncContext, 'store'>): MirrorProgress | null {
  const counts = ctx.store.reports.countMirrored();
  const threads = ctx.store.syncState.deferredThreads().length;
  const stale = counts.listed - counts.current;
  if (stale === 0 && threads === 0) return null;
  return {
    total: counts.listed,
    downloaded: counts.full,
    remainingRequests: stale + counts.staleThreads + threads,
  };
}

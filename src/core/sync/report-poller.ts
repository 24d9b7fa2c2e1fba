import { fetchReports } from './report-fetcher';
import type { SyncContext } from './context';

/** Reports changed in the same instant as `since` must not slip through: look back a little. */
const OVERLAP_MS = 1_000;
const PAGE = 100;

export interface PollResult {
  listed: number;
  fetched: number;
}

/**
 * The polling procedure of part 6: page through `GET /api/reports?updated_since=` with
 * `next_cursor`, fetch every changed report in full (and its thread once submitted), then move
 * `since` to the newest `updated_at` of the first page. `since` moves only after a whole pass,
 * so an interrupted pass is simply repeated; unchanged reports of the overlap cost nothing.
 */
export async function pollReports(ctx: SyncContext, signal?: AbortSignal): Promise<PollResult> {
  const since = ctx.store.syncState.getSince();
  const updatedSince = since ? new Date(Date.parse(since) - OVERLAP_MS).toISOString() : undefined;
  let cursor: string | undefined;
  let newest: string | null = null;
  let first = true;
  let listed = 0;
  do {
    const page = await ctx.api.listReports(
      { limit: PAGE, ...(cursor ? { cursor } : {}), ...(updatedSince ? { updatedSince } : {}) },
      { priority: 'poll', ...(signal ? { signal } : {}) },
    );
    if (first) {
      newest = page.reports[0]?.updated_at ?? null;
      first = false;
    }
    listed += page.reports.length;
    ctx.store.reports.upsertSummaries(page.reports);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  // Stale ids include those a previous, interrupted pass listed but did not fetch.
  const stale = ctx.store.reports.listStaleIds(Number.MAX_SAFE_INTEGER);
  const fetched = await fetchReports(ctx, stale, 'poll', signal);
  if (newest && (!since || newest > since)) ctx.store.syncState.setSince(newest);
  return { listed, fetched };
}

import type { Priority } from '../api';
import type { SyncContext } from './context';
import { fetchBacklog } from './mirror';

/** Reports changed in the same instant as `since` must not slip through: look back a little. */
const OVERLAP_MS = 1_000;
const PAGE = 100;
/**
 * Stale reports a poll reads itself; more (a first mirror, a big reconcile) are left to the
 * scheduler's background mirror, so the pass ends once the list is in and "Sync now" stays free.
 */
export const INLINE_BACKLOG = 100;

export interface PollResult {
  listed: number;
  fetched: number;
  /** Reports the reconcile dropped (the server no longer lists them). */
  dropped: number;
  /** Stale reports left to the background mirror. */
  backlog: number;
}

export interface PollOptions {
  /**
   * The reconcile: every list page without `updated_since`. Whatever differs from the mirror
   * (revision, `updated_at`) is read again, and reports the server no longer lists are dropped,
   * unless they hold local work not sent yet.
   */
  full?: boolean;
  /** Stale reports read inline at most (INLINE_BACKLOG); 0 while the background mirror runs. */
  inlineBacklog?: number;
}

/**
 * The polling procedure of part 6: page through `GET /api/reports?updated_since=` with
 * `next_cursor` and mark every changed summary stale, then move `since` to the newest
 * `updated_at` of the first page (the stale marks are in the mirror, so an interrupted read of the
 * reports loses nothing), then read the stale reports in the mirror's order (mirror.ts) unless
 * there are too many to wait for.
 */
export async function pollReports(
  ctx: SyncContext,
  signal?: AbortSignal,
  options: PollOptions = {},
): Promise<PollResult> {
  const since = ctx.store.syncState.getSince();
  // The first list of an account is what the researcher waits for: every row, ahead of the
  // account's other background work (the outbox's share; the person keeps headroom).
  const priority: Priority = since ? 'poll' : 'outbox';
  const startedAt = Date.now();
  const listing = await listPages(ctx, options.full ? undefined : since, priority, signal);
  let dropped = 0;
  // An empty mirror has nothing to drop (and the next poll lists what moved meanwhile).
  if (options.full && since) {
    // A report changed during the listing moved ahead of the cursor: list those once more.
    const moved = await listPages(ctx, new Date(startedAt).toISOString(), 'poll', signal);
    for (const id of moved.ids) listing.ids.add(id);
    dropped = dropUnlisted(ctx, listing.ids);
  }
  const { newest } = listing;
  if (newest && (!since || newest > since)) ctx.store.syncState.setSince(newest);
  const counts = ctx.store.reports.countMirrored();
  const backlog = counts.listed - counts.current;
  const inline = options.inlineBacklog ?? INLINE_BACKLOG;
  const fetched = inline > 0 && backlog <= inline ? await fetchBacklog(ctx, 'poll', signal) : 0;
  return { listed: listing.ids.size, fetched, dropped, backlog: fetched ? 0 : backlog };
}

async function listPages(
  ctx: SyncContext,
  since: string | null | undefined,
  priority: Priority,
  signal: AbortSignal | undefined,
): Promise<{ ids: Set<string>; newest: string | null }> {
  const updatedSince = since ? new Date(Date.parse(since) - OVERLAP_MS).toISOString() : undefined;
  const ids = new Set<string>();
  let cursor: string | undefined;
  let newest: string | null = null;
  let first = true;
  do {
    const page = await ctx.api.listReports(
      { limit: PAGE, ...(cursor ? { cursor } : {}), ...(updatedSince ? { updatedSince } : {}) },
      { priority, ...(signal ? { signal } : {}) },
    );
    if (first) {
      newest = page.reports[0]?.updated_at ?? null;
      first = false;
    }
    for (const report of page.reports) ids.add(report.id);
    const marked = ctx.store.reports.upsertSummaries(page.reports);
    // New rows show at once: one event a page (the list reloads as a whole).
    if (marked[0]) ctx.events.emit('report-changed', { reportId: marked[0] });
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return { ids, newest };
}

/** Drops what the server no longer lists, keeping any report with local work not sent yet. */
function dropUnlisted(ctx: SyncContext, listed: ReadonlySet<string>): number {
  const { store } = ctx;
  const gone = store.reports
    .listIds()
    .filter((id) => !listed.has(id))
    .filter((id) => !store.drafts.get(id) && store.outbox.countUnsent(id) === 0);
  if (gone.length === 0) return 0;
  store.db.transaction(() => {
    for (const id of gone) store.reports.deleteReport(id);
    store.syncState.forgetDeferredThreads(gone);
  });
  for (const id of gone) ctx.events.emit('report-changed', { reportId: id });
  return gone.length;
}

import { fetchReports } from './report-fetcher';
import type { SyncContext } from './context';

/**
 * Payout progress does not change `updated_at` (part 6), so the poll never sees it: accepted
 * reports whose payout is not `received` yet are read one by one on a slower cadence. Only the
 * report: an accepted report is final, so its thread cannot grow. A report read since
 * `skipFetchedSince` (by the poll of the same pass) is already fresh: the first mirror would
 * otherwise read every accepted report twice. Reports not read in full yet are the mirror's.
 */
export async function followPayouts(
  ctx: SyncContext,
  options: { signal?: AbortSignal; skipFetchedSince?: number } = {},
): Promise<number> {
  const since = options.skipFetchedSince ?? Number.POSITIVE_INFINITY;
  // A report only listed so far is read by the mirror anyway (with its thread).
  const ids = ctx.store.reports
    .listPayoutFollowUps()
    .filter((id) => (ctx.fetchedAt?.get(id) ?? Number.NEGATIVE_INFINITY) < since);
  return fetchReports(ctx, ids, 'prefetch', options.signal, { threads: false });
}

const PROGRAM_PAGE = 50;

/** Programs (list and policies, private ones the key is invited to included). */
export async function refreshPrograms(ctx: SyncContext, signal?: AbortSignal): Promise<number> {
  const listedAt = new Date().toISOString();
  const options = { priority: 'prefetch' as const, ...(signal ? { signal } : {}) };
  let page = 1;
  let pages: number;
  do {
    const result = await ctx.api.listPrograms({ limit: PROGRAM_PAGE, page }, options);
    ctx.store.programs.upsertSummaries(result.programs, listedAt);
    pages = result.pages;
    page++;
  } while (page <= pages);
  ctx.store.programs.removeNotListedSince(listedAt);
  const needDetail = ctx.store.programs.listNeedingDetail();
  for (const id of needDetail) {
    const program = await ctx.api.getProgram(id, options);
    ctx.store.programs.upsertProgram(program);
  }
  return needDetail.length;
}

/** Me (the stored payments status) and, for a verified account, a fresh payments status. */
export async function refreshAccount(
  ctx: SyncContext,
  options: { freshPayments: boolean; signal?: AbortSignal },
): Promise<void> {
  const call = { priority: 'poll' as const, ...(options.signal ? { signal: options.signal } : {}) };
  const me = await ctx.api.getMe(call);
  ctx.store.account.setMe(me);
  ctx.store.account.setPayments(me.payments);
  if (options.freshPayments && me.email_verified) {
    ctx.store.account.setPayments(await ctx.api.getPaymentsStatus(call));
  }
}

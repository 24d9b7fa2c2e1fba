/**
 * The rowid a report has in the search index (`reports_fts`, migration 14): the list's default
 * order, newest update first, so that FTS5 hands a search's hits over in that order and the first
 * page of a new search stops after about a page of them (report-list/ordered.ts) instead of
 * collecting every hit (25,000 for a common word at 100,000 reports) to sort them.
 *
 * Layout (a positive 64-bit integer): the high 31 bits are the update time's bucket of
 * `BUCKET_MS` milliseconds, inverted (newer is smaller); the low 32 bits are `reports.seq`, which
 * makes the key unique and gives the report back (`seq = rowid & SEQ_MASK`). SQLite assigns a new
 * report the next seq, so seq stays below 2^32 short of four billion reports ever stored. Rows of
 * one bucket come out in seq order, not in the list's (update time, then id): a reader takes
 * every hit of the bucket where its page ends and sorts (a bucket is 4 s of updates).
 *
 * The keys pass 2^53: they stay in SQL, never in JavaScript numbers (the bucket alone is safe).
 */
export const SEQ_MASK = 4294967295;
const BUCKET_SHIFT = 12;
export const BUCKET_MS = 2 ** BUCKET_SHIFT;
const LAST_BUCKET = 2147483647;

/** The inverted bucket of an update time column, in SQL (update times before 1970 count as 0). */
export function orderBucketSql(updatedMs: string): string {
  return `(${LAST_BUCKET} - min(max(${updatedMs}, 0) >> ${BUCKET_SHIFT}, ${LAST_BUCKET}))`;
}

/** The index rowid of a report row (`alias.updated_ms`, `alias.seq`), in SQL. */
export function indexKeySql(alias: string): string {
  return `((${orderBucketSql(`${alias}.updated_ms`)} << 32) | ${alias}.seq)`;
}

/** The report (`reports.seq`) of an index rowid, in SQL. */
export const seqOfKeySql = (rowid: string): string => `(${rowid} & ${SEQ_MASK})`;

/** The inverted bucket of an index rowid, in SQL: a safe JavaScript number. */
export const bucketOfKeySql = (rowid: string): string => `(${rowid} >> 32)`;

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
 * every hit of the bucket where its page ends and sorts.
 *
 * The bucket is about 4.7 hours (migration 17; 4 s before). FTS5 stores each hit as the delta to
 * the previous rowid: between two buckets that delta is at least 2^32, a 5-byte varint where seqs
 * of one bucket take 1–2 bytes, and with 4 s buckets nearly every hit crossed one (the index was
 * 45% of the mirror on disk). A coarser bucket costs a search only the hits of one more bucket's
 * reports at its page's end: at the bench's one update a minute, 280 reports; a researcher's own
 * reports are much sparser in time, so they save less but pay nothing either. Reports updated at
 * one instant (a program closing many at once) share a bucket whatever its width.
 *
 * The keys pass 2^53: they stay in SQL, never in JavaScript numbers (the bucket alone is safe).
 */
export const SEQ_MASK = 4294967295;
const BUCKET_SHIFT = 24;
export const BUCKET_MS = 2 ** BUCKET_SHIFT;
/** The bucket of migration 14's keys (4 s): its released trigger keeps it. */
export const FIRST_BUCKET_SHIFT = 12;
const LAST_BUCKET = 2147483647;

/** The inverted bucket of an update time column, in SQL (update times before 1970 count as 0). */
export function orderBucketSql(updatedMs: string, shift = BUCKET_SHIFT): string {
  return `(${LAST_BUCKET} - min(max(${updatedMs}, 0) >> ${shift}, ${LAST_BUCKET}))`;
}

/** The index rowid of a report row (`alias.updated_ms`, `alias.seq`), in SQL. */
export function indexKeySql(alias: string): string {
  return `((${orderBucketSql(`${alias}.updated_ms`)} << 32) | ${alias}.seq)`;
}

/** The report (`reports.seq`) of an index rowid, in SQL. */
export const seqOfKeySql = (rowid: string): string => `(${rowid} & ${SEQ_MASK})`;

/** The inverted bucket of an index rowid, in SQL: a safe JavaScript number. */
export const bucketOfKeySql = (rowid: string): string => `(${rowid} >> 32)`;

import type { Db } from '../database';
import type { ReportFacets } from '../report-facets';
import type { ReportHits } from './hits';
import { bucketOfKeySql, seqOfKeySql } from '../report-index-key';
import { facetedSearchParams, type ReportSearch } from '../report-search';

/**
 * The first pages of a search in the list's default order (newest update first), read from the
 * search index in that order: its rowids are the order's keys (report-index-key.ts), so FTS5 hands
 * over the hits newest first and stops after about a page of them. The set of every hit
 * (hits.ts) costs about 240 ns a hit to fill: 11 ms of the 15 ms a new search for a word in
 * a quarter of 100,000 reports took; read in order, its first page costs about a page of hits.
 *
 * The rowid orders by update time in buckets of 4 s, by seq inside one: a window takes the hits
 * up to its end, then every other hit of the bucket it ends in, and sorts them exactly as the
 * list does (update time, then id). A hit after that bucket is older than every hit taken, so it
 * belongs after the window. The rows matched without the index (queued, or whose local draft
 * matches: `extra`) are left out of the index's stream and added to every window, so each report
 * counts once.
 *
 * Exact only while the index holds every report not queued under its current key, and the search
 * saw every queued report (`indexing` 0): the caller keeps the set of hits otherwise.
 */
export interface OrderedSearch {
  /** Matching mirrored reports (memoized until the data or the search changes). */
  count(search: ReportSearch, facets: ReportFacets): number;
  /** The count when it is memoized (or null): what a page that answers first can say at once. */
  countKnown(search: ReportSearch, facets: ReportFacets): number | null;
  /**
   * The seqs of the reports of a window of the list, possibly with more (sorted by the caller);
   * `every` when they are all the matching reports (fewer hits than were asked for: the count
   * is then known, and memoized).
   */
  candidates(
    search: ReportSearch,
    facets: ReportFacets,
    end: number,
  ): { seqs: number[]; every: boolean };
}

/**
 * Windows that end within this many rows of the list are read in order; a deeper one reads the set
 * of hits (kept for the pages after it).
 */
export const ORDERED_ROWS = 1_000;
/** Hits read past a window's end, so that its last bucket usually ends among them. */
const SLACK = 32;

export function createOrderedSearch(db: Db, hitSet: ReportHits): OrderedSearch {
  const sqlite = db.sqlite;
  const seq = seqOfKeySql('rowid');
  // The index's hits, less the queued rows it holds an older version of and those the search
  // matched without it; with neither (the usual case), FTS5's alone: testing each of 25,000 hits
  // against two empty lists took a third of the count.
  const statementsOf = (exact: boolean) => {
    const indexHits = `reports_fts WHERE reports_fts MATCH @fts${
      exact
        ? ''
        : ` AND NOT (@skipQueued AND ${seq} IN (SELECT seq FROM reports_fts_pending))
            AND ${seq} NOT IN (SELECT value FROM json_each(@extra))`
    }`;
    return {
      inOrder: sqlite.prepare<Params & { limit: number }, { seq: number; bucket: number }>(
        `SELECT ${seq} AS seq, ${bucketOfKeySql('rowid')} AS bucket FROM ${indexHits}
         ORDER BY rowid LIMIT @limit`,
      ),
      ofBucket: sqlite
        .prepare<Params & { bucket: number }, number>(
          `SELECT ${seq} FROM ${indexHits}
           AND rowid >= (@bucket << 32) AND rowid < ((@bucket + 1) << 32)`,
        )
        .pluck(),
      count: sqlite.prepare<Params, number>(`SELECT count(*) FROM ${indexHits}`).pluck(),
    };
  };
  const indexAlone = statementsOf(true);
  const indexLess = statementsOf(false);
  const indexHits = (params: Params) =>
    params.skipQueued === 0 && params.extra === '[]' ? indexAlone : indexLess;
  const extraRows = sqlite
    .prepare<Params, number>(
      `SELECT DISTINCT k.seq FROM json_each(@extra) e CROSS JOIN reports k ON k.seq = e.value
       WHERE (@statuses = '[]' OR k.status IN (SELECT value FROM json_each(@statuses)))
         AND (@program IS NULL OR k.program_id = @program)`,
    )
    .pluck();

  let counted: { key: string; n: number } | null = null;
  const keyOf = (params: Params): string =>
    [...Object.values(params), hitSet.version()].join('\u0000');
  const remember = (key: string, n: number): void => {
    counted = sqlite.inTransaction ? null : { key, n };
  };

  return {
    count(search, facets) {
      const params = facetedSearchParams(search, facets);
      const key = keyOf(params);
      if (counted?.key !== key || sqlite.inTransaction) {
        const n = (indexHits(params).count.get(params) ?? 0) + extraRows.all(params).length;
        remember(key, n);
        return n;
      }
      return counted.n;
    },
    countKnown(search, facets) {
      if (sqlite.inTransaction) return null;
      const key = keyOf(facetedSearchParams(search, facets));
      return counted?.key === key ? counted.n : null;
    },
    candidates(search, facets, end) {
      const params = facetedSearchParams(search, facets);
      const limit = end + SLACK;
      const { inOrder, ofBucket } = indexHits(params);
      const hits = inOrder.all({ ...params, limit });
      const seqs = hits.map((hit) => hit.seq);
      const boundary = hits[end - 1];
      // The window's last bucket may go on past the hits read: all of it is taken.
      if (boundary && hits.length === limit && hits[limit - 1]?.bucket === boundary.bucket)
        seqs.push(...ofBucket.all({ ...params, bucket: boundary.bucket }));
      seqs.push(...extraRows.all(params));
      const unique = [...new Set(seqs)];
      // The index's hits left out the extra rows: with fewer hits than asked, these are all.
      const every = hits.length < limit;
      if (every) remember(keyOf(params), unique.length);
      return { seqs: unique, every };
    },
  };
}

type Params = ReturnType<typeof facetedSearchParams>;

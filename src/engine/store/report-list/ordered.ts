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
 * The rowid orders by update time in buckets (report-index-key.ts), by seq inside one: a window
 * takes the hits up to its end, then the hits after it while they are of the bucket it ends in,
 * and sorts them exactly as the list does (update time, then id). A hit of a later bucket is
 * older than every hit taken, so it belongs after the window. One pass of one statement, stopped
 * there: a second statement for the rest of the bucket cost a second search of the index (FTS5
 * merges a prefix's doclists whole for each statement: 0.7 ms at 100,000 reports). The rows
 * matched without the index (queued, or whose local draft matches: `extra`) are left out of the
 * index's stream and added to every window, so each report counts once.
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
      // Read as far as a window needs (iterated, then stopped).
      inOrder: sqlite.prepare<Params, { seq: number; bucket: number }>(
        `SELECT ${seq} AS seq, ${bucketOfKeySql('rowid')} AS bucket FROM ${indexHits}
         ORDER BY rowid`,
      ),
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
      const seqs: number[] = [];
      let bucket: number | null = null;
      // The index's hits read to their end: these are all (the extra rows left out of them).
      let every = true;
      for (const hit of indexHits(params).inOrder.iterate(params)) {
        // Past the window's end, the rest of its last bucket only.
        if (seqs.length >= end && hit.bucket !== bucket) {
          every = false;
          break;
        }
        seqs.push(hit.seq);
        bucket = hit.bucket;
      }
      seqs.push(...extraRows.all(params));
      const unique = [...new Set(seqs)];
      if (every) remember(keyOf(params), unique.length);
      return { seqs: unique, every };
    },
  };
}

type Params = ReturnType<typeof facetedSearchParams>;

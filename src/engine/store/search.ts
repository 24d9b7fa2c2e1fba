import type { Db } from './database';
import { toFtsMatch } from './fts-query';
import { seqOfKeySql } from './report-index-key';
import { createReportSearcher } from './report-search';

export type SearchKind = 'report' | 'program';

export interface SearchHit {
  kind: SearchKind;
  id: string;
  /**
   * Higher is better (negated bm25, comparable within one kind). Reports not indexed yet come
   * after the indexed ones, scored by a column-weighted count of the words they hold.
   */
  score: number;
}

export interface SearchRepository {
  /** Reports and programs, best first. Any user text is safe (see fts-query.ts). */
  search(query: string, options?: { limit?: number }): SearchHit[];
  searchReports(query: string, options?: { limit?: number }): SearchHit[];
  searchPrograms(query: string, options?: { limit?: number }): SearchHit[];
}

// Column weights: a hit in a title or name counts more than one deep in a description; the
// report index's columns are title, description, messages, facets, asset.
const reportRank = 'bm25(reports_fts, 5.0, 1.0, 1.0, 1.0, 3.0)';
const programRank = 'bm25(programs_fts, 5.0, 2.0, 2.0, 1.0)';

export function createSearchRepository(db: Db): SearchRepository {
  const sqlite = db.sqlite;
  const searcher = createReportSearcher(db);
  // Hits of rows queued for the index are the index's older version of them: left out when the
  // queued rows were matched without it (report-search.ts).
  const reports = sqlite.prepare<
    { fts: string; skipQueued: number; limit: number },
    { id: string; rank: number }
  >(`
    SELECT r.id, f.rank FROM
      (SELECT ${seqOfKeySql('rowid')} AS seq, ${reportRank} AS rank FROM reports_fts
         WHERE reports_fts MATCH @fts
         AND NOT (@skipQueued AND ${seqOfKeySql('rowid')} IN (SELECT seq FROM reports_fts_pending))
       ORDER BY rank LIMIT @limit) f
    JOIN reports r ON r.seq = f.seq ORDER BY f.rank, r.id`);
  const idsOf = sqlite.prepare<[string], { seq: number; id: string }>(
    'SELECT seq, id FROM reports WHERE seq IN (SELECT value FROM json_each(?))',
  );
  const programs = sqlite.prepare<[string, number], { id: string; rank: number }>(`
    SELECT p.id, f.rank FROM
      (SELECT rowid, ${programRank} AS rank FROM programs_fts WHERE programs_fts MATCH ?
       ORDER BY rank LIMIT ?) f
    JOIN programs p ON p.seq = f.rowid ORDER BY f.rank, p.id`);

  function runReports(query: string, limit: number): SearchHit[] {
    const search = searcher.prepare(query);
    if (search === null) return [];
    const indexed: SearchHit[] = reports
      .all({ fts: search.fts, skipQueued: search.skipQueued, limit })
      .map((row) => ({ kind: 'report', id: row.id, score: -row.rank }));
    const scores = new Map(search.queuedHits.map((hit) => [hit.seq, hit.score]));
    const queued: SearchHit[] = idsOf
      .all(JSON.stringify([...scores.keys()]))
      .map((row) => ({ kind: 'report' as const, id: row.id, score: scores.get(row.seq) ?? 0 }))
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    return [...indexed, ...queued].slice(0, limit);
  }

  function run(kind: SearchKind, query: string, limit: number): SearchHit[] {
    if (kind === 'report') return runReports(query, limit);
    const match = toFtsMatch(query);
    if (match === null) return [];
    return programs.all(match, limit).map((row) => ({ kind, id: row.id, score: -row.rank }));
  }

  return {
    search(query, options = {}) {
      const limit = options.limit ?? 50;
      return [...run('report', query, limit), ...run('program', query, limit)]
        .sort((a, b) => b.score - a.score)
        .slice(0, limit);
    },
    searchReports: (query, options = {}) => run('report', query, options.limit ?? 50),
    searchPrograms: (query, options = {}) => run('program', query, options.limit ?? 50),
  };
}

import type { Db } from './database';
import type { ReportIndexer } from './fts-index';
import { toFtsMatch } from './fts-query';

export type SearchKind = 'report' | 'program';

export interface SearchHit {
  kind: SearchKind;
  id: string;
  /** Higher is better (negated bm25, comparable within one kind). */
  score: number;
}

export interface SearchRepository {
  /** Reports and programs, best first. Any user text is safe (see fts-query.ts). */
  search(query: string, options?: { limit?: number }): SearchHit[];
  searchReports(query: string, options?: { limit?: number }): SearchHit[];
  searchPrograms(query: string, options?: { limit?: number }): SearchHit[];
}

// Column weights: a hit in a title or name counts more than one deep in a description.
const reportRank = 'bm25(reports_fts, 5.0, 1.0, 1.0)';
const programRank = 'bm25(programs_fts, 5.0, 2.0, 2.0, 1.0)';

export function createSearchRepository(db: Db, index: ReportIndexer): SearchRepository {
  const sqlite = db.sqlite;
  const reports = sqlite.prepare<[string, number], { id: string; rank: number }>(`
    SELECT r.id, f.rank FROM
      (SELECT rowid, ${reportRank} AS rank FROM reports_fts WHERE reports_fts MATCH ?
       ORDER BY rank LIMIT ?) f
    JOIN reports r ON r.seq = f.rowid ORDER BY f.rank, r.id`);
  const programs = sqlite.prepare<[string, number], { id: string; rank: number }>(`
    SELECT p.id, f.rank FROM
      (SELECT rowid, ${programRank} AS rank FROM programs_fts WHERE programs_fts MATCH ?
       ORDER BY rank LIMIT ?) f
    JOIN programs p ON p.seq = f.rowid ORDER BY f.rank, p.id`);

  function run(kind: SearchKind, query: string, limit: number): SearchHit[] {
    const match = toFtsMatch(query);
    if (match === null) return [];
    // Reports written a moment ago may still be queued for the index.
    if (kind === 'report') index.flush();
    const statement = kind === 'report' ? reports : programs;
    return statement.all(match, limit).map((row) => ({ kind, id: row.id, score: -row.rank }));
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

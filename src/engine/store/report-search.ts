import type { Db } from './database';
import { ftsExpression } from './fts-query';
import { facetExpression, textColumnsMatch, type ReportFacets } from './report-facets';
import { seqOfKeySql } from './report-index-key';
import { matchesColumns, matchScore, parseSearch, type SearchWord } from './text-match';

/**
 * A report search that never waits for the index (see fts-index.ts). The rows the index holds are
 * found by FTS5; the rows still queued for it (`reports_fts_pending`: written a moment ago, or
 * left by a crash) and the local drafts (never indexed) are matched in JavaScript with the same
 * rules (text-match.ts). The queue is normally a few rows: the background drain empties it within
 * a few event-loop turns of each write (a sync writes 200 reports at a time). Only after a bulk
 * write (or a crash with a long queue) does it exceed `QUEUE_SCAN_LIMIT`; the search then answers
 * from the index alone and says how many reports it could not see (`indexing`), instead of
 * blocking the engine for the whole queue (reading a queued report's text costs about 8 µs, so
 * the limit keeps the scan near 4 ms) or waiting for the drain.
 */
export const QUEUE_SCAN_LIMIT = 500;

export interface ReportSearch {
  words: SearchWord[];
  /** The FTS5 MATCH expression for the indexed rows (their text columns). */
  fts: string;
  /**
   * 1 when FTS hits of queued rows must be ignored (the index holds an older version of them, or
   * none): the queued rows were matched in JavaScript instead, into `queuedHits`.
   */
  skipQueued: 0 | 1;
  /** Queued rows whose current text matches, with a rough relevance (see matchScore). */
  queuedHits: { seq: number; score: number }[];
  /** reports.seq of mirrored reports whose local draft matches. */
  draftHits: number[];
  /** report ids of local-only drafts (not in the mirror yet) that match. */
  localHits: string[];
  /** Queued reports this search could not look at (0 when it saw everything). */
  indexing: number;
}

export interface ReportSearcher {
  /** Null when nothing searchable was typed (no filtering). */
  prepare(input: string): ReportSearch | null;
}

interface TextRow {
  seq: number;
  title: string;
  description: string;
  messages: string;
  asset: string;
}

interface DraftRow {
  report_id: string;
  seq: number | null;
  title: string;
  description: string;
  asset: string;
}

export function createReportSearcher(db: Db): ReportSearcher {
  const sqlite = db.sqlite;
  const countQueued = sqlite.prepare<[number], { n: number }>(
    'SELECT count(*) AS n FROM (SELECT 1 FROM reports_fts_pending LIMIT ?)',
  );
  // CROSS JOIN: the queue drives (else SQLite may read every report to join the few queued).
  const queuedText = sqlite.prepare<[], TextRow>(
    `SELECT s.seq, s.title, s.description, s.messages, s.asset
     FROM reports_fts_pending p CROSS JOIN report_fts_source s ON s.seq = p.seq`,
  );
  const countAllQueued = sqlite
    .prepare<[], number>('SELECT count(*) FROM reports_fts_pending')
    .pluck();
  // A draft is matched on what the index would hold of it: title, description and asset.
  const drafts = sqlite.prepare<[], DraftRow>(
    `SELECT d.report_id, r.seq, d.title, d.description, d.asset
     FROM drafts d LEFT JOIN reports r ON r.id = d.report_id`,
  );

  return {
    prepare(input) {
      const words = parseSearch(input);
      if (words === null) return null;
      const queued = countQueued.get(QUEUE_SCAN_LIMIT + 1)?.n ?? 0;
      const scan = queued <= QUEUE_SCAN_LIMIT;
      const queuedHits: ReportSearch['queuedHits'] = [];
      if (scan) {
        for (const row of queuedText.all()) {
          const score = matchScore(words, [row.title, row.description, row.messages, row.asset]);
          if (score !== null) queuedHits.push({ seq: row.seq, score });
        }
      }
      const draftHits: number[] = [];
      const localHits: string[] = [];
      for (const draft of drafts.all()) {
        if (!matchesColumns(words, [draft.title, draft.description, draft.asset])) continue;
        if (draft.seq === null) localHits.push(draft.report_id);
        else draftHits.push(draft.seq);
      }
      return {
        words,
        fts: textColumnsMatch(words, ftsExpression(words)),
        // With nothing queued there is nothing to ignore: the test per hit costs 0.5 ms at 25,000.
        skipQueued: scan && queued > 0 ? 1 : 0,
        queuedHits,
        draftHits,
        localHits,
        indexing: scan ? 0 : (countAllQueued.get() ?? 0),
      };
    },
  };
}

/**
 * The SQL condition "report `alias` matches the search", for statements that bind `@fts`,
 * `@skipQueued` and `@extra` (see `searchParams`). One IN over one list, so that SQLite can either
 * test each row against the hits or look the hits up by rowid.
 */
export function matchCondition(alias: string): string {
  return `${alias}.seq IN (
    SELECT ${seqOfKeySql('rowid')} FROM reports_fts WHERE reports_fts MATCH @fts
      AND NOT (@skipQueued AND ${seqOfKeySql('rowid')} IN (SELECT seq FROM reports_fts_pending))
    UNION ALL SELECT value FROM json_each(@extra))`;
}

export function searchParams(search: ReportSearch): {
  fts: string;
  skipQueued: number;
  extra: string;
} {
  return {
    fts: search.fts,
    skipQueued: search.skipQueued,
    extra: JSON.stringify([...search.queuedHits.map((hit) => hit.seq), ...search.draftHits]),
  };
}

/**
 * `searchParams` narrowed by the list's filter: the index's hits by the facets it holds
 * (report-facets.ts), the rows matched without it (`extra`) by `statuses` and `program`.
 */
export function facetedSearchParams(
  search: ReportSearch,
  facets: ReportFacets,
): { fts: string; skipQueued: number; extra: string; statuses: string; program: string | null } {
  const params = searchParams(search);
  const facet = facetExpression(facets);
  return {
    ...params,
    fts: facet === null ? params.fts : `${params.fts} AND ${facet}`,
    statuses: JSON.stringify(facets.statuses),
    program: facets.program,
  };
}

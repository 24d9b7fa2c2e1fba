import type Database from 'better-sqlite3';
import type { ReportStatus } from './api-types';
import type { Db } from './database';
import {
  createReportSearcher,
  matchCondition,
  searchParams,
  type ReportSearch,
} from './report-search';
import { namedPlaceholders, namedValues } from './sql-values';

/**
 * The reports screen's list, paged, filtered, counted and searched in SQL: a page reads `limit`
 * rows whatever the size of the mirror. The list is the drafts made offline that the mirror does
 * not hold yet (newest first), then the mirrored reports (newest update first), each with the
 * flags of its local draft and of the outbox joined in. Counts per status come from
 * `report_status_counts` (kept by triggers); a search is FTS5 for what the index holds and
 * JavaScript for what it does not yet (report-search.ts).
 */
export interface ReportListQuery {
  /** Only these statuses (none: every status). */
  status?: readonly ReportStatus[];
  search?: string;
  offset: number;
  limit: number;
}

export interface ReportListRow {
  id: string;
  program_id: string;
  program_name: string;
  status: ReportStatus;
  display_status: string;
  /** The local draft's title when there is one (what the user last typed). */
  title: string;
  updated_at: string | null;
  /** A draft made offline that the server has not acknowledged yet. */
  local_only: boolean;
  /** Open outbox entries (not sent yet). */
  unsent: boolean;
  /** An outbox entry waits for the user (parked with its error). */
  parked: boolean;
  conflict: boolean;
  /** In needs_info and not opened since it entered it. */
  needs_info_unseen: boolean;
}

export interface ReportListPage {
  rows: ReportListRow[];
  /** Rows of the whole list with this filter and search. */
  total: number;
  /** Every report by status, drafts made offline included (not narrowed by filter or search). */
  counts: Partial<Record<ReportStatus, number>>;
  /** Reports queued for the search index that this search could not look at (see report-search.ts). */
  indexing: number;
}

export interface ReportListRepository {
  page(query: ReportListQuery): ReportListPage;
  /** Mirrored reports by status, read from the counts the triggers keep. */
  countByStatus(): Partial<Record<ReportStatus, number>>;
}

type Flag = 0 | 1;
type SqlRow = Omit<
  ReportListRow,
  'local_only' | 'unsent' | 'parked' | 'conflict' | 'needs_info_unseen'
> &
  Record<'local_only' | 'unsent' | 'parked' | 'conflict' | 'needs_info_unseen', Flag>;

type Params = Record<string, string | number>;

// Flags from a report's outbox entries, through the partial index on open entries (a parked
// entry is open: said explicitly, so that SQLite sees the index applies).
const unsentFlag = (id: string): string =>
  `EXISTS (SELECT 1 FROM outbox o WHERE o.report_id = ${id} AND o.state <> 'done') AS unsent`;
const parkedFlag = (id: string): string =>
  `EXISTS (SELECT 1 FROM outbox o WHERE o.report_id = ${id} AND o.state <> 'done'
    AND o.state = 'parked') AS parked`;

const localOnly = `FROM drafts d WHERE NOT EXISTS (SELECT 1 FROM reports r WHERE r.id = d.report_id)`;
const localMatch = `d.report_id IN (SELECT value FROM json_each(@local))`;

function toRow(row: SqlRow): ReportListRow {
  return {
    ...row,
    local_only: row.local_only === 1,
    unsent: row.unsent === 1,
    parked: row.parked === 1,
    conflict: row.conflict === 1,
    needs_info_unseen: row.needs_info_unseen === 1,
  };
}

/** `status IN (@s0, @s1, …)`, or nothing for no filter. */
function statusCondition(alias: string, count: number): string | null {
  return count === 0 ? null : `${alias}.status IN (${namedPlaceholders('s', count)})`;
}

function whereOf(conditions: (string | null)[]): string {
  const present = conditions.filter((c): c is string => c !== null);
  return present.length ? `WHERE ${present.join(' AND ')}` : '';
}

export function createReportListRepository(db: Db): ReportListRepository {
  const sqlite = db.sqlite;
  const searcher = createReportSearcher(db);
  const selectCounts = sqlite.prepare<[], { status: ReportStatus; n: number }>(
    'SELECT status, n FROM report_status_counts WHERE n > 0',
  );
  const localPage = (searching: boolean) =>
    sqlite.prepare<Params, SqlRow>(`
      SELECT d.report_id AS id, d.program_id,
        coalesce((SELECT p.name FROM programs p WHERE p.id = d.program_id), d.program_id)
          AS program_name,
        'draft' AS status, 'Draft (not sent yet)' AS display_status, d.title, d.updated_at,
        1 AS local_only, 1 AS unsent, ${parkedFlag('d.report_id')},
        d.conflict_json IS NOT NULL AS conflict, 0 AS needs_info_unseen
      ${localOnly} ${searching ? `AND ${localMatch}` : ''}
      ORDER BY d.updated_at DESC, d.report_id LIMIT @limit OFFSET @offset`);
  const localCount = (searching: boolean) =>
    sqlite
      .prepare<Params, number>(
        `SELECT count(*) ${localOnly} ${searching ? `AND ${localMatch}` : ''}`,
      )
      .pluck();
  const local = {
    all: { page: localPage(false), count: localCount(false) },
    matching: { page: localPage(true), count: localCount(true) },
  };

  // Statements depend on the number of statuses and on search: built once per shape.
  const statements = new Map<string, Database.Statement<Params, unknown>>();
  function statement<T>(key: string, sql: () => string): Database.Statement<Params, T> {
    let prepared = statements.get(key);
    if (!prepared) {
      prepared = sqlite.prepare<Params, unknown>(sql());
      statements.set(key, prepared);
    }
    return prepared as Database.Statement<Params, T>;
  }

  /**
   * The page's keys, then its rows by rowid (CROSS JOIN keeps the page the outer loop: with LIMIT
   * bound as a parameter, the planner otherwise scanned all of `reports` to join it).
   * - `walk`: the list order itself. One status walks its range of `reports_by_status`; several
   *   (or none) walk `reports_list`, which holds the status too, so skipped rows cost an index
   *   step, not a table read. A search tests each entry's rowid against its hits, and the walk
   *   stops at the page: cheap when hits are dense.
   * - `hits`: a search's hits looked up by rowid and sorted: cheap when they are few.
   */
  function mirroredPage(statuses: number, plan: 'walk' | 'hits', searching: boolean) {
    return statement<SqlRow>(`page:${statuses}:${plan}:${searching}`, () => {
      const index = statuses === 1 ? 'reports_by_status' : 'reports_list';
      const access = plan === 'hits' ? 'NOT INDEXED' : `INDEXED BY ${index}`;
      const where = whereOf([
        statusCondition('k', statuses),
        searching ? matchCondition('k') : null,
      ]);
      return `
        WITH page AS (
          SELECT k.seq FROM reports AS k ${access} ${where}
          ORDER BY k.updated_ms DESC, k.id LIMIT @limit OFFSET @offset)
        SELECT r.id, r.program_id, r.program_name, r.status, r.display_status,
          coalesce(d.title, r.title) AS title, r.updated_at, 0 AS local_only,
          ${unsentFlag('r.id')}, ${parkedFlag('r.id')},
          d.conflict_json IS NOT NULL AS conflict,
          r.status = 'needs_info' AND r.needs_info_seen = 0 AS needs_info_unseen
        FROM page CROSS JOIN reports r ON r.seq = page.seq
        LEFT JOIN drafts d ON d.report_id = r.id
        ORDER BY r.updated_ms DESC, r.id`;
    });
  }

  /** Hits of some statuses: their ranges of the status index (`walk`), or the hits' rows. */
  function countWithStatus(statuses: number, plan: 'walk' | 'hits') {
    return statement<number>(`count:${statuses}:${plan}`, () => {
      const access = plan === 'hits' ? 'NOT INDEXED' : 'INDEXED BY reports_by_status';
      const where = whereOf([statusCondition('k', statuses), matchCondition('k')]);
      return `SELECT count(*) FROM reports AS k ${access} ${where}`;
    }).pluck();
  }

  // All hits, whatever their status, from the index alone: its hits, minus those of queued rows
  // it must ignore, plus the rows matched without it that it does not hold as hits.
  const ftsHits = sqlite
    .prepare<Params, number>('SELECT count(*) FROM reports_fts WHERE reports_fts MATCH @fts')
    .pluck();
  const isHit = `EXISTS (SELECT 1 FROM reports_fts f WHERE reports_fts MATCH @fts
    AND f.rowid = q.seq)`;
  const ignoredHits = sqlite
    .prepare<Params, number>(
      `SELECT CASE WHEN @skipQueued THEN
         (SELECT count(*) FROM reports_fts_pending q WHERE ${isHit}) ELSE 0 END`,
    )
    .pluck();
  const extraNotHits = sqlite
    .prepare<Params, number>(
      `SELECT count(*) FROM (SELECT DISTINCT value AS seq FROM json_each(@extra)) q
       WHERE NOT (${isHit} AND NOT (@skipQueued
         AND q.seq IN (SELECT seq FROM reports_fts_pending)))`,
    )
    .pluck();

  function countByStatus(): Partial<Record<ReportStatus, number>> {
    const counts: Partial<Record<ReportStatus, number>> = {};
    for (const row of selectCounts.all()) counts[row.status] = row.n;
    return counts;
  }

  function sum(counts: Partial<Record<ReportStatus, number>>, only: readonly ReportStatus[]) {
    const wanted = only.length ? only : (Object.keys(counts) as ReportStatus[]);
    return wanted.reduce((total, status) => total + (counts[status] ?? 0), 0);
  }

  /** The page and total of mirrored reports. */
  function mirroredPart(
    statuses: readonly ReportStatus[],
    search: ReportSearch | null,
    window: { offset: number; limit: number },
    counts: Partial<Record<ReportStatus, number>>,
  ): { rows: SqlRow[]; total: number } {
    const params: Params = {
      ...(search ? searchParams(search) : {}),
      ...namedValues('s', statuses),
    };
    const read = (plan: 'walk' | 'hits', total: number) => ({
      rows:
        window.limit > 0 && window.offset < total
          ? mirroredPage(statuses.length, plan, search !== null).all({ ...params, ...window })
          : [],
      total,
    });
    if (search === null) return read('walk', sum(counts, statuses));
    const hits =
      (ftsHits.get(params) ?? 0) - (ignoredHits.get(params) ?? 0) + (extraNotHits.get(params) ?? 0);
    // Walking the list visits about (offset + limit) × mirror / hits entries; reading the hits
    // costs about four entry visits each (a lookup, then the sort).
    const plan =
      4 * hits * hits < (window.offset + window.limit) * sum(counts, []) ? 'hits' : 'walk';
    if (statuses.length === 0) return read(plan, hits);
    const range = sum(counts, statuses);
    const total = countWithStatus(statuses.length, 2 * hits < range ? 'hits' : 'walk').get(params);
    return read(plan, total ?? 0);
  }

  return {
    countByStatus,
    page(query) {
      const statuses = [...new Set(query.status ?? [])];
      const limit = Math.max(0, Math.trunc(query.limit));
      const offset = Math.max(0, Math.trunc(query.offset));
      const search = query.search === undefined ? null : searcher.prepare(query.search);

      const mirrored = countByStatus();
      const withLocal = statuses.length === 0 || statuses.includes('draft');
      const localParams: Params = search ? { local: JSON.stringify(search.localHits) } : {};
      const locals = search ? local.matching : local.all;
      const localAll = local.all.count.get({}) ?? 0;
      const localTotal = !withLocal ? 0 : search ? (locals.count.get(localParams) ?? 0) : localAll;
      const counts = { ...mirrored };
      if (localAll > 0) counts.draft = (counts.draft ?? 0) + localAll;

      const rows: SqlRow[] = [];
      if (withLocal && offset < localTotal) {
        rows.push(...locals.page.all({ ...localParams, limit, offset }));
      }
      const rest = mirroredPart(
        statuses,
        search,
        { offset: Math.max(0, offset - localTotal), limit: limit - rows.length },
        mirrored,
      );
      rows.push(...rest.rows);
      return {
        rows: rows.map(toRow),
        total: localTotal + rest.total,
        counts,
        indexing: search?.indexing ?? 0,
      };
    },
  };
}

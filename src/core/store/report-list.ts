import type Database from 'better-sqlite3';
import type { ReportStatus } from './api-types';
import type { Db } from './database';
import { compareLeading, statusRank, type ReportSort } from './report-order';
import { NO_FACETS } from './report-facets';
import { createReportHits } from './report-hits';
import { createReportSearcher, type ReportSearch } from './report-search';
import { namedPlaceholders, namedValues } from './sql-values';

/**
 * The reports screen's list, paged, sorted, filtered, counted and searched in SQL: a page reads
 * about `limit` rows whatever the size of the mirror. The list holds the drafts made offline that
 * the mirror does not hold yet and the mirrored reports, each with the flags of its local draft
 * and of the outbox joined in, in one of four orders (report-order.ts):
 * - `updated`: the drafts made offline first (newest first), then the mirror by newest update;
 * - `status`, `program`, `severity`: by the order's key (the status's place in triage, the
 *   program's name, the CVSS base score highest first and none last), then the drafts made
 *   offline before the mirrored reports of the same key, then the newest update.
 * Each order of the mirror walks an index that holds its key and the filtered columns (migration
 * 7), so the rows a filter skips cost an index step; a sparse filter (a small program, a rare
 * status, a narrow search) reads its rows instead and sorts them. The drafts made offline are few
 * and merged in by their key. Counts per status come from `report_status_counts` and per program
 * from `report_program_counts` (kept by triggers); a search is FTS5 for what the index holds and
 * JavaScript for what it does not yet (report-search.ts).
 */
export interface ReportListQuery {
  /** Only these statuses (none: every status). */
  status?: readonly ReportStatus[];
  /** Only this program's reports (a program id). */
  program?: string;
  search?: string;
  /** Default `updated`. */
  sort?: ReportSort;
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
  /** The CVSS base score the list sorts by: the local draft's while there is one. */
  severity_score: number | null;
  /** A draft made offline that the server has not acknowledged yet. */
  local_only: boolean;
  /** Open outbox entries (not sent yet). */
  unsent: boolean;
  /** An outbox entry waits for the user (parked with its error). */
  parked: boolean;
  conflict: boolean;
  /** In needs_info and not answered since it entered it. */
  needs_info_unseen: boolean;
}

/** A program with reports in the list, and how many (drafts made offline included). */
export interface ReportListProgram {
  id: string;
  name: string;
  count: number;
}

export interface ReportListPage {
  rows: ReportListRow[];
  /** Rows of the whole list with this filter and search. */
  total: number;
  /** Every report by status, drafts made offline included (not narrowed by filter or search). */
  counts: Partial<Record<ReportStatus, number>>;
  /** Every program with reports, by name (not narrowed by filter or search). */
  programs: ReportListProgram[];
  /** Reports queued for the search index that this search could not look at (see report-search.ts). */
  indexing: number;
}

export interface ReportListRepository {
  page(query: ReportListQuery): ReportListPage;
  /** Mirrored reports by status, read from the counts the triggers keep. */
  countByStatus(): Partial<Record<ReportStatus, number>>;
}

type Flag = 0 | 1;
type FlagName = 'local_only' | 'unsent' | 'parked' | 'conflict' | 'needs_info_unseen';
type SqlRow = Omit<ReportListRow, FlagName> &
  Record<FlagName, Flag> & {
    /** The mirror's own sort key of the update time (mirrored rows only). */
    updated_ms?: number;
  };

type Params = Record<string, string | number>;
/**
 * How a page reads the mirror: `walk` follows the order's index; the others read the matching
 * rows from a source (a search's hits by rowid, a program's range, the statuses' ranges) and sort
 * them.
 */
type Plan = 'walk' | 'search' | 'program' | 'status';

// Flags from a report's outbox entries, through the partial index on open entries (a parked
// entry is open: said explicitly, so that SQLite sees the index applies).
const unsentFlag = (id: string): string =>
  `EXISTS (SELECT 1 FROM outbox o WHERE o.report_id = ${id} AND o.state <> 'done') AS unsent`;
const parkedFlag = (id: string): string =>
  `EXISTS (SELECT 1 FROM outbox o WHERE o.report_id = ${id} AND o.state <> 'done'
    AND o.state = 'parked') AS parked`;

const localOnly = `FROM drafts d WHERE NOT EXISTS (SELECT 1 FROM reports r WHERE r.id = d.report_id)`;
const localMatch = `d.report_id IN (SELECT value FROM json_each(@local))`;
const localProgram = `d.program_id = @program`;

/**
 * Each order of the mirror: its ORDER BY (for a table alias) and the index it walks. The program
 * order is by name as SQLite's NOCASE compares (report-order.ts does the same for the merge).
 */
const ORDERS: Record<ReportSort, { by: (t: string) => string; index: string }> = {
  updated: { by: (t) => `${t}.updated_ms DESC, ${t}.id`, index: 'reports_list' },
  status: {
    by: (t) => `${t}.status_rank, ${t}.updated_ms DESC, ${t}.id`,
    index: 'reports_by_status_rank',
  },
  program: {
    by: (t) => `${t}.program_name COLLATE NOCASE, ${t}.program_id, ${t}.updated_ms DESC, ${t}.id`,
    index: 'reports_by_program_name',
  },
  severity: {
    by: (t) => `${t}.severity_score DESC, ${t}.updated_ms DESC, ${t}.id`,
    index: 'reports_by_severity',
  },
};

/**
 * What reading a filter's rows and sorting them costs, in index steps of a walk: a search's hits
 * are looked up by rowid and sorted (measured with issue 11's search); a row found in a program's
 * or a status's range is read from the table and sorted (about 1.2 µs a row against 45 ns an
 * index step at 100,000 reports).
 */
const HIT_COST = { search: 4, row: 25 } as const;

function toRow(row: SqlRow): ReportListRow {
  return {
    id: row.id,
    program_id: row.program_id,
    program_name: row.program_name,
    status: row.status,
    display_status: row.display_status,
    title: row.title,
    updated_at: row.updated_at,
    severity_score: row.severity_score,
    local_only: row.local_only === 1,
    unsent: row.unsent === 1,
    parked: row.parked === 1,
    conflict: row.conflict === 1,
    needs_info_unseen: row.needs_info_unseen === 1,
  };
}

const keyOf = (row: SqlRow) => ({
  // The same rank as the stored `status_rank` (report-order.ts), without reading it.
  statusRank: statusRank(row.status),
  programName: row.program_name,
  programId: row.program_id,
  severity: row.severity_score,
});

/** `status IN (@s0, @s1, …)`, or nothing for no filter. */
function statusCondition(alias: string, count: number): string | null {
  return count === 0 ? null : `${alias}.status IN (${namedPlaceholders('s', count)})`;
}

function whereOf(conditions: (string | null)[]): string {
  const present = conditions.filter((c): c is string => c !== null);
  return present.length ? `WHERE ${present.join(' AND ')}` : '';
}

/** The shape of a mirrored query: what it filters on, in which order, read how. */
interface Shape {
  sort: ReportSort;
  statuses: number;
  program: boolean;
  searching: boolean;
  plan: Plan;
  /** A walk in the `updated` order that starts after a row (`@afterMs`, `@afterId`). */
  resume: boolean;
}

/**
 * Where a page of a search ended in the `updated` order: the next page walks on from there. A walk
 * costs what it skips (8 ms to row 20,000 of a search matching a quarter of 100,000 reports), and
 * a list is scrolled a page after the other.
 */
interface ResumePoint {
  /** The row's place among the mirrored rows of the list; the walk resumes after that row. */
  offset: number;
  ms: number;
  id: string;
}
/** The parameters of a walk that resumes after `point` (none from the top). */
const resumeParams = (point: ResumePoint | null): Params =>
  point ? { afterMs: point.ms, afterId: point.id } : {};

/** A shape's statements are built once: the key of what makes them differ. */
const shapeKey = (s: Shape): string =>
  `${s.sort}:${s.statuses}:${s.program}:${s.searching}:${s.plan}:${s.resume}`;

/** Points kept per search (the pages a scroll went through, and those a long walk laid). */
const RESUME_POINTS = 128;
/**
 * A walk longer than this (rows of the list) lays a resume point every `POINT_SPACING` rows on
 * its way, so that a later jump anywhere before its end (dragging the scroll bar back and forth
 * through a search) walks at most that far: at 100,000 reports, a jump to row 19,000 of a search
 * after one to row 20,000 walked from the top again (12 ms).
 */
const POINT_SPACING = 2_000;

/**
 * The index a shape reads and its conditions. A walk follows the order's index (newest first:
 * the index of the one program or status filtered on, whose range is the list itself); the other
 * plans read their source (`NOT INDEXED`: the search's hits by rowid) and sort what matches.
 */
function accessOf(
  shape: Shape,
  match: string,
): { index: string | null; conditions: (string | null)[] } {
  const conditions = [
    statusCondition('k', shape.statuses),
    shape.program ? 'k.program_id = @program' : null,
    shape.searching ? match : null,
  ];
  if (shape.plan === 'search') return { index: null, conditions };
  if (shape.plan === 'program') return { index: 'reports_by_program', conditions };
  if (shape.plan === 'status') return { index: 'reports_by_status', conditions };
  if (shape.sort === 'updated') {
    if (shape.resume) {
      // After the row: an older update, or the same one and a later id (the order's tie-break).
      conditions.push('k.updated_ms <= @afterMs AND (k.updated_ms < @afterMs OR k.id > @afterId)');
    }
    const index = shape.program
      ? 'reports_by_program'
      : shape.statuses === 1
        ? 'reports_by_status'
        : 'reports_list';
    return { index, conditions };
  }
  if (shape.sort === 'status' && shape.statuses > 0) {
    // The ranges of the statuses filtered on, in rank order.
    conditions.push(`k.status_rank IN (${namedPlaceholders('r', shape.statuses)})`);
  }
  return { index: ORDERS[shape.sort].index, conditions };
}

export function createReportListRepository(db: Db): ReportListRepository {
  const sqlite = db.sqlite;
  const searcher = createReportSearcher(db);
  const hitSet = createReportHits(db);
  const selectCounts = sqlite.prepare<[], { status: ReportStatus; n: number }>(
    'SELECT status, n FROM report_status_counts WHERE n > 0',
  );

  // Statements depend on the shape of the query: built once per shape.
  const statements = new Map<string, Database.Statement<Params, unknown>>();
  function statement<T>(key: string, sql: () => string): Database.Statement<Params, T> {
    let prepared = statements.get(key);
    if (!prepared) {
      prepared = sqlite.prepare<Params, unknown>(sql());
      statements.set(key, prepared);
    }
    return prepared as Database.Statement<Params, T>;
  }

  /** Drafts made offline with the filters; paged only in the `updated` order (they come first). */
  function localRows(program: boolean, searching: boolean, paged: boolean) {
    return statement<SqlRow>(`local:${program}:${searching}:${paged}`, () => {
      const where = [program ? localProgram : null, searching ? localMatch : null]
        .filter((c) => c !== null)
        .map((c) => `AND ${c}`)
        .join(' ');
      return `
        SELECT d.report_id AS id, d.program_id,
          coalesce((SELECT p.name FROM programs p WHERE p.id = d.program_id), d.program_id)
            AS program_name,
          'draft' AS status, 'Draft (not sent yet)' AS display_status, d.title, d.updated_at,
          d.cvss_score AS severity_score,
          1 AS local_only, 1 AS unsent, ${parkedFlag('d.report_id')},
          d.conflict_json IS NOT NULL AS conflict, 0 AS needs_info_unseen
        ${localOnly} ${where}
        ORDER BY d.updated_at DESC, d.report_id ${paged ? 'LIMIT @limit OFFSET @offset' : ''}`;
    });
  }
  function localCount(program: boolean, searching: boolean) {
    return statement<number>(`local-count:${program}:${searching}`, () => {
      const where = [program ? localProgram : null, searching ? localMatch : null]
        .filter((c) => c !== null)
        .map((c) => `AND ${c}`)
        .join(' ');
      return `SELECT count(*) ${localOnly} ${where}`;
    }).pluck();
  }

  /**
   * The page's keys, then its rows by rowid (CROSS JOIN keeps the page the outer loop: with LIMIT
   * bound as a parameter, the planner otherwise scanned all of `reports` to join it).
   */
  function mirroredPage(shape: Shape) {
    return statement<SqlRow>(`page:${shapeKey(shape)}`, () => {
      const order = ORDERS[shape.sort].by;
      return `
        WITH page AS (
          SELECT k.seq FROM ${walked(shape)}
          ORDER BY ${order('k')} LIMIT @limit OFFSET @offset)
        SELECT r.id, r.program_id, r.program_name, r.status, r.display_status,
          coalesce(d.title, r.title) AS title, r.updated_at, r.updated_ms, r.severity_score,
          0 AS local_only, ${unsentFlag('r.id')}, ${parkedFlag('r.id')},
          d.conflict_json IS NOT NULL AS conflict,
          r.status = 'needs_info' AND r.needs_info_seen = 0 AS needs_info_unseen
        FROM page CROSS JOIN reports r ON r.seq = page.seq
        LEFT JOIN drafts d ON d.report_id = r.id
        ORDER BY ${order('r')}`;
    });
  }

  /** The row `@offset` rows on in a walk (from a resume point or the top): the next point. */
  function pointAfter(shape: Shape) {
    return statement<{ ms: number; id: string }>(
      `point:${shapeKey(shape)}`,
      () => `
        SELECT k.updated_ms AS ms, k.id FROM ${walked(shape)}
        ORDER BY ${ORDERS[shape.sort].by('k')} LIMIT 1 OFFSET @offset`,
    );
  }

  /** `reports AS k` as a shape reads it: the index it walks (or none) and its conditions. */
  function walked(shape: Shape): string {
    const { index, conditions } = accessOf(shape, hitSet.condition('k'));
    const access = index ? `INDEXED BY ${index}` : 'NOT INDEXED';
    return `reports AS k ${access} ${whereOf(conditions)}`;
  }

  /** Matching mirrored reports: the range of an index (`walk`), or the matching rows. */
  function countMatching(statuses: number, program: boolean, plan: 'walk' | 'hits') {
    return statement<number>(`count:${statuses}:${program}:${plan}`, () => {
      const index = program ? 'reports_by_program' : 'reports_by_status';
      const access = plan === 'hits' ? 'NOT INDEXED' : `INDEXED BY ${index}`;
      const where = whereOf([
        statusCondition('k', statuses),
        program ? 'k.program_id = @program' : null,
        hitSet.condition('k'),
      ]);
      return `SELECT count(*) FROM reports AS k ${access} ${where}`;
    }).pluck();
  }

  /** A program's mirrored reports (of some statuses), from the counts the triggers keep. */
  function programCount(statuses: number) {
    return statement<number>(`program-count:${statuses}`, () => {
      const where = whereOf(['c.program_id = @program', statusCondition('c', statuses)]);
      return `SELECT coalesce(sum(c.n), 0) FROM report_program_counts c ${where}`;
    }).pluck();
  }

  // Every program with reports: its name from the programs mirrored, else from its newest report.
  const selectPrograms = sqlite.prepare<[], ReportListProgram>(`
    WITH counted AS (
      SELECT program_id, sum(n) AS n FROM report_program_counts GROUP BY program_id
      UNION ALL
      SELECT d.program_id, count(*) ${localOnly} GROUP BY d.program_id)
    SELECT c.program_id AS id, sum(c.n) AS count,
      coalesce((SELECT p.name FROM programs p WHERE p.id = c.program_id),
        (SELECT r.program_name FROM reports r INDEXED BY reports_by_program
          WHERE r.program_id = c.program_id ORDER BY r.updated_ms DESC LIMIT 1),
        c.program_id) AS name
    FROM counted c GROUP BY c.program_id HAVING sum(c.n) > 0
    ORDER BY name COLLATE NOCASE, id`);

  // The program list changes only with a write: it is kept until the data's version moves (this
  // connection's writes, triggers included, or another connection's commit).
  let programs: { key: string; list: ReportListProgram[] } | null = null;
  function listPrograms(): ReportListProgram[] {
    const key = hitSet.version();
    if (programs?.key !== key) programs = { key, list: selectPrograms.all() };
    return programs.list.map((program) => ({ ...program }));
  }

  function countByStatus(): Partial<Record<ReportStatus, number>> {
    const counts: Partial<Record<ReportStatus, number>> = {};
    for (const row of selectCounts.all()) counts[row.status] = row.n;
    return counts;
  }

  function sum(counts: Partial<Record<ReportStatus, number>>, only: readonly ReportStatus[]) {
    const wanted = only.length ? only : (Object.keys(counts) as ReportStatus[]);
    return wanted.reduce((total, status) => total + (counts[status] ?? 0), 0);
  }

  interface Filters {
    statuses: readonly ReportStatus[];
    program: string | null;
    search: ReportSearch | null;
  }

  /**
   * The mirrored reports of the filters: their total, and a reader of any window of them in
   * `sort`, with the cheaper plan for that window.
   */
  function mirroredPart(
    sort: ReportSort,
    filters: Filters,
    counts: Partial<Record<ReportStatus, number>>,
  ): { total: number; read(window: { offset: number; limit: number }): SqlRow[] } {
    const { statuses, program, search } = filters;
    const params: Params = {
      ...namedValues('s', statuses),
      ...namedValues('r', statuses.map(statusRank)),
      ...(program !== null ? { program } : {}),
    };
    const all = sum(counts, []);
    const ofStatuses = sum(counts, statuses);
    const ofProgram = program === null ? null : (programCount(0).get(params) ?? 0);
    const ofBoth =
      program === null
        ? ofStatuses
        : statuses.length === 0
          ? (ofProgram ?? 0)
          : (programCount(statuses.length).get(params) ?? 0);

    let total: number;
    let hits = 0;
    if (search === null) {
      total = ofBoth;
    } else {
      // The index's facets are the reports' own while the search saw every queued report (the
      // index's hits of those are left out); past the queue-scan limit, a report whose status
      // changed a moment ago still has its old one there: the hits are then the search's alone.
      const faceted = search.indexing === 0;
      hits = hitSet.load(search, faceted ? { statuses, program } : NO_FACETS);
      if (faceted || (statuses.length === 0 && program === null)) {
        total = hits;
      } else {
        // Counted once per search and filter while the hits are kept (the next pages reuse it).
        const memo = searchMemo(statuses, program);
        if (memo?.total == null) {
          const range = program !== null ? (ofProgram ?? 0) : ofStatuses;
          const plan = 2 * hits < range ? 'hits' : 'walk';
          total = countMatching(statuses.length, program !== null, plan).get(params) ?? 0;
          if (memo) memo.total = total;
        } else {
          total = memo.total;
        }
      }
    }

    // The index range a walk covers, and whether every entry in it is in the list.
    const walkIn = walkRange(sort, { statuses, program, search }, { all, ofStatuses, ofProgram });
    // The cheapest source of the matching rows, for reading them all and sorting them.
    const sources: { plan: Plan; cost: number }[] = [];
    if (search !== null) sources.push({ plan: 'search', cost: HIT_COST.search * hits });
    if (program !== null)
      sources.push({ plan: 'program', cost: (ofProgram ?? 0) + HIT_COST.row * total });
    else if (statuses.length > 0)
      sources.push({ plan: 'status', cost: ofStatuses + HIT_COST.row * total });
    const source = sources.sort((a, b) => a.cost - b.cost)[0];
    return {
      total,
      read(window) {
        if (window.limit <= 0 || window.offset >= total) return [];
        // A search may read on from where one of its earlier pages ended (the walk skips less).
        const memo = search !== null && sort === 'updated' ? searchMemo(statuses, program) : null;
        let from: ResumePoint | null = null;
        for (const point of memo?.points ?? [])
          if (point.offset <= window.offset && (!from || point.offset > from.offset)) from = point;
        let plan: Plan = 'walk';
        if (!walkIn.exact && source) {
          // Walking visits about (rows skipped + limit) × range / matching entries (the whole
          // range at most).
          const skipped = window.offset - (from?.offset ?? 0);
          const steps = Math.min(
            walkIn.size,
            ((skipped + window.limit) * walkIn.size) / Math.max(total, 1),
          );
          if (source.cost < steps) plan = source.plan;
        }
        if (plan !== 'walk') from = null;
        const shapeOf = (resume: boolean): Shape => ({
          sort,
          statuses: statuses.length,
          program: program !== null,
          searching: search !== null,
          plan,
          resume,
        });
        if (plan === 'walk' && memo) {
          // A long walk goes in steps that each leave a point behind.
          while (window.offset - (from?.offset ?? 0) > POINT_SPACING) {
            const at = (from?.offset ?? 0) + POINT_SPACING;
            const row = pointAfter(shapeOf(from !== null)).get({
              ...params,
              offset: POINT_SPACING - 1,
              ...resumeParams(from),
            });
            if (!row) break;
            from = remember(memo, { offset: at, ms: row.ms, id: row.id });
          }
        }
        const shape = shapeOf(from !== null);
        const rows = mirroredPage(shape).all({
          ...params,
          limit: window.limit,
          offset: window.offset - (from?.offset ?? 0),
          ...resumeParams(from),
        });
        const last = rows.at(-1);
        if (memo && last?.updated_ms !== undefined) {
          remember(memo, { offset: window.offset + rows.length, ms: last.updated_ms, id: last.id });
        }
        return rows;
      },
    };
  }

  /**
   * What is known of the search the hits table holds, with one filter: its total (filtered) and
   * where its pages ended. Forgotten with the hits (their key changes with any write); none
   * while the hits are not kept (inside a transaction).
   */
  interface SearchMemo {
    total: number | null;
    points: ResumePoint[];
  }
  let known: ({ key: string } & SearchMemo) | null = null;
  function remember(memo: SearchMemo, point: ResumePoint): ResumePoint {
    if (!memo.points.some((p) => p.offset === point.offset)) {
      memo.points.push(point);
      if (memo.points.length > RESUME_POINTS) memo.points.shift();
    }
    return point;
  }
  function searchMemo(
    statuses: readonly ReportStatus[],
    program: string | null,
  ): SearchMemo | null {
    const hits = hitSet.heldKey();
    if (hits === null) return null;
    const key = `${hits}\u0000${[...statuses].sort().join(',')}\u0000${program ?? ''}`;
    if (known?.key !== key) known = { key, total: null, points: [] };
    return known;
  }

  /** How many index entries a walk may visit, and whether each of them is in the list. */
  function walkRange(
    sort: ReportSort,
    filters: Filters,
    sizes: { all: number; ofStatuses: number; ofProgram: number | null },
  ): { size: number; exact: boolean } {
    const { statuses, program, search } = filters;
    const searching = search !== null;
    if (sort === 'updated' && program !== null)
      return { size: sizes.ofProgram ?? 0, exact: statuses.length === 0 && !searching };
    if (sort === 'updated' && statuses.length === 1)
      return { size: sizes.ofStatuses, exact: !searching };
    if (sort === 'status' && statuses.length > 0)
      return { size: sizes.ofStatuses, exact: program === null && !searching };
    return {
      size: sizes.all,
      exact: statuses.length === 0 && program === null && !searching,
    };
  }

  /**
   * The window of the list in an order where the drafts made offline sit among the mirrored
   * reports: rows `offset - local` onwards of the mirror hold every mirrored row of the window,
   * and each row's place is its rank in its own part plus the rows of the other part before it.
   */
  function mergedWindow(
    sort: ReportSort,
    locals: SqlRow[],
    mirrored: { read(window: { offset: number; limit: number }): SqlRow[] },
    offset: number,
    limit: number,
  ): SqlRow[] {
    // A draft made offline comes before a mirrored report of the same key.
    const before = (local: SqlRow, report: SqlRow) =>
      compareLeading(sort, keyOf(local), keyOf(report)) <= 0;
    const from = Math.max(0, offset - locals.length);
    const wanted = offset + limit - from;
    const fetched = mirrored.read({ offset: from, limit: wanted });
    const ended = fetched.length < wanted;
    const placed: { at: number; row: SqlRow }[] = [];
    let localsBefore = 0;
    fetched.forEach((report, i) => {
      while (localsBefore < locals.length && before(locals[localsBefore] as SqlRow, report))
        localsBefore++;
      placed.push({ at: from + i + localsBefore, row: report });
    });
    let reportsBefore = 0;
    locals.forEach((local, i) => {
      while (reportsBefore < fetched.length && !before(local, fetched[reportsBefore] as SqlRow))
        reportsBefore++;
      // Before the first row read: known only when that is the list's first (else it is above
      // the window); after the last: known only when the mirror ended there (else below).
      if (reportsBefore === 0 && from > 0 && fetched.length > 0) return;
      if (reportsBefore === fetched.length && !ended && fetched.length > 0) return;
      placed.push({ at: from + reportsBefore + i, row: local });
    });
    return placed
      .filter((p) => p.at >= offset && p.at < offset + limit)
      .sort((a, b) => a.at - b.at)
      .map((p) => p.row);
  }

  return {
    countByStatus,
    page(query) {
      const statuses = [...new Set(query.status ?? [])];
      const program = query.program || null;
      // One program's reports by program are its reports newest first.
      const sort: ReportSort =
        program !== null && query.sort === 'program' ? 'updated' : (query.sort ?? 'updated');
      const limit = Math.max(0, Math.trunc(query.limit));
      const offset = Math.max(0, Math.trunc(query.offset));
      const search = query.search === undefined ? null : searcher.prepare(query.search);

      const mirrored = countByStatus();
      const withLocal = statuses.length === 0 || statuses.includes('draft');
      const localParams: Params = {
        ...(search ? { local: JSON.stringify(search.localHits) } : {}),
        ...(program !== null ? { program } : {}),
      };
      const localAll = localCount(false, false).get({}) ?? 0;
      const localTotal = !withLocal
        ? 0
        : search || program !== null
          ? (localCount(program !== null, search !== null).get(localParams) ?? 0)
          : localAll;
      const counts = { ...mirrored };
      if (localAll > 0) counts.draft = (counts.draft ?? 0) + localAll;

      const rest = mirroredPart(sort, { statuses, program, search }, mirrored);
      const rows: SqlRow[] = [];
      if (sort === 'updated' || localTotal === 0) {
        // The drafts made offline first, then the mirror.
        if (localTotal > 0 && offset < localTotal) {
          rows.push(
            ...localRows(program !== null, search !== null, true).all({
              ...localParams,
              limit,
              offset,
            }),
          );
        }
        rows.push(
          ...rest.read({ offset: Math.max(0, offset - localTotal), limit: limit - rows.length }),
        );
      } else {
        const locals = localRows(program !== null, search !== null, false)
          .all(localParams)
          .sort((a, b) => compareLeading(sort, keyOf(a), keyOf(b)));
        rows.push(...mergedWindow(sort, locals, rest, offset, limit));
      }
      return {
        rows: rows.map(toRow),
        total: localTotal + rest.total,
        counts,
        programs: listPrograms(),
        indexing: search?.indexing ?? 0,
      };
    },
  };
}

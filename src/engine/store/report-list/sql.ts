import type Database from 'better-sqlite3';
import type { ReportStatus } from '../api-types';
import type { Db } from '../database';
import type { ReportSort } from '../report-order';
import type { ReportHits } from './hits';
import type { ReportListProgram, ReportListRow } from './types';
import { namedPlaceholders } from '../sql-values';
import { CHANGES_STATUS } from '../outbox';

/**
 * The SQL of the reports list (index.ts): the rows of drafts made offline, a page of the
 * mirror in each order and plan, the counts, the programs. Statements are built once per shape.
 */
type Flag = 0 | 1;
type FlagName = 'local_only' | 'unsent' | 'parked' | 'conflict' | 'needs_info_unseen';
export type SqlRow = Omit<ReportListRow, FlagName> &
  Record<FlagName, Flag> & {
    /** The mirror's own sort key of the update time (mirrored rows only). */
    updated_ms?: number;
  };

export type Params = Record<string, string | number>;
/**
 * How a page reads the mirror: `walk` follows the order's index; the others read the matching
 * rows from a source (a search's hits by rowid, a program's range, the statuses' ranges) and sort
 * them.
 */
export type Plan = 'walk' | 'search' | 'program' | 'status';

// Flags from a report's outbox entries, through the partial index on open entries (a parked
// entry is open: said explicitly, so that SQLite sees the index applies).
const unsentFlag = (id: string): string =>
  `EXISTS (SELECT 1 FROM outbox o WHERE o.report_id = ${id} AND o.state <> 'done') AS unsent`;
const parkedFlag = (id: string): string =>
  `EXISTS (SELECT 1 FROM outbox o WHERE o.report_id = ${id} AND o.state <> 'done'
    AND o.state = 'parked') AS parked`;
// A submit or withdraw on its way (not stopped): until the server has it, its status is the one
// before, and the row says what is coming (a report submitted offline read "Draft · Unsent").
const statusChanges = Object.entries(CHANGES_STATUS)
  .filter(([, changes]) => changes)
  .map(([kind]) => `'${kind}'`)
  .join(', ');
const queuedActionColumn = (id: string): string =>
  `(SELECT o.kind FROM outbox o WHERE o.report_id = ${id} AND o.state <> 'done'
    AND o.state <> 'parked' AND o.kind IN (${statusChanges}) ORDER BY o.id DESC LIMIT 1)
    AS queued_action`;

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

export function toRow(row: SqlRow): ReportListRow {
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
    queued_action: row.queued_action,
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

/** The shape of a mirrored query: what it filters on, in which order, read how. */
export interface Shape {
  sort: ReportSort;
  statuses: number;
  program: boolean;
  searching: boolean;
  plan: Plan;
  /** A walk in the `updated` order that starts after a row (`@afterMs`, `@afterId`). */
  resume: boolean;
}

/** A shape's statements are built once: the key of what makes them differ. */
const shapeKey = (s: Shape): string =>
  `${s.sort}:${s.statuses}:${s.program}:${s.searching}:${s.plan}:${s.resume}`;

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

/** The rows of a page whose keys `keys` selects (`seq`), in `order`; read by `fromPageRow`. */
function pageOf(keys: string, order: (t: string) => string): string {
  return `
    WITH page AS (${keys})
    SELECT r.id, r.program_id, r.program_name, r.status, r.display_status,
      coalesce(d.title, r.title) AS title, r.updated_at, r.updated_ms, r.severity_score,
      ${unsentFlag('r.id')}, ${parkedFlag('r.id')},
      d.conflict_json IS NOT NULL AS conflict,
      r.status = 'needs_info' AND r.needs_info_seen = 0 AS needs_info_unseen,
      ${queuedActionColumn('r.id')}
    FROM page CROSS JOIN reports r ON r.seq = page.seq
    LEFT JOIN drafts d ON d.report_id = r.id
    ORDER BY ${order('r')}`;
}

/** A row of `pageOf` as SQLite returns it in raw mode (its columns in order). */
type PageSqlRow = [
  id: string,
  programId: string,
  programName: string,
  status: SqlRow['status'],
  displayStatus: string,
  title: string,
  updatedAt: string | null,
  updatedMs: number,
  severityScore: number | null,
  unsent: Flag,
  parked: Flag,
  conflict: Flag,
  needsInfoUnseen: Flag,
  queuedAction: SqlRow['queued_action'],
];

/**
 * Pages are read raw and made objects here: better-sqlite3 builds each row object property by
 * property, and the 200 rows of a page cost a third more that way (1.4 ms against 2.3 for the
 * rows of a new search's first page, on a loaded machine).
 */
function fromPageRow(row: PageSqlRow): SqlRow {
  return {
    id: row[0],
    program_id: row[1],
    program_name: row[2],
    status: row[3],
    display_status: row[4],
    title: row[5],
    updated_at: row[6],
    updated_ms: row[7],
    severity_score: row[8],
    local_only: 0,
    unsent: row[9],
    parked: row[10],
    conflict: row[11],
    needs_info_unseen: row[12],
    queued_action: row[13],
  };
}

/** A statement of `pageOf`, read raw: `all` gives its rows as `SqlRow`s. */
function pageReader(statement: Database.Statement<Params, unknown>) {
  const raw = statement.raw() as unknown as Database.Statement<Params, PageSqlRow>;
  return { all: (params: Params): SqlRow[] => raw.all(params).map(fromPageRow) };
}

export type ListStatements = ReturnType<typeof createListStatements>;

export function createListStatements(db: Db, hitSet: ReportHits) {
  const sqlite = db.sqlite;
  const selectCounts = sqlite.prepare<[], { status: ReportStatus; n: number }>(
    'SELECT status, n FROM report_status_counts WHERE n > 0',
  );
  // The newest report's label of a status, through the status index: one step per status.
  const selectStatusLabel = sqlite
    .prepare<[ReportStatus], string>(
      'SELECT display_status FROM reports WHERE status = ? ORDER BY updated_ms DESC LIMIT 1',
    )
    .pluck();

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

  // The readers of pages, built once per shape with their statement.
  const pages = new Map<string, ReturnType<typeof pageReader>>();
  function page(key: string, sql: () => string) {
    let reader = pages.get(key);
    if (!reader) {
      reader = pageReader(sqlite.prepare<Params, unknown>(sql()));
      pages.set(key, reader);
    }
    return reader;
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
          d.conflict_json IS NOT NULL AS conflict, 0 AS needs_info_unseen,
          ${queuedActionColumn('d.report_id')}
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
    return page(`page:${shapeKey(shape)}`, () => {
      const order = ORDERS[shape.sort].by;
      return pageOf(
        `SELECT k.seq FROM ${walked(shape)} ORDER BY ${order('k')} LIMIT @limit OFFSET @offset`,
        order,
      );
    });
  }

  /**
   * A window of the `updated` order among some reports (`@seqs`, JSON: the candidates of
   * ordered.ts), sorted here.
   */
  function candidatesPage() {
    return page('page:candidates', () => {
      const order = ORDERS.updated.by;
      return pageOf(
        `SELECT k.seq FROM json_each(@seqs) c CROSS JOIN reports k ON k.seq = c.value
         ORDER BY ${order('k')} LIMIT @limit OFFSET @offset`,
        order,
      );
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

  /**
   * Each mirrored status as the service labels it for display (`display_status` of its newest
   * report): the status filter says what the rows say ("In triage", not the app's "Triaging").
   * Kept until the data's version moves, as the programs are.
   */
  let labels: { key: string; byStatus: Partial<Record<ReportStatus, string>> } | null = null;
  function statusLabels(): Partial<Record<ReportStatus, string>> {
    const key = hitSet.version();
    if (labels?.key !== key) {
      const byStatus: Partial<Record<ReportStatus, string>> = {};
      for (const { status } of selectCounts.all()) {
        const label = selectStatusLabel.get(status)?.trim();
        if (label) byStatus[status] = label;
      }
      labels = { key, byStatus };
    }
    return { ...labels.byStatus };
  }

  function countByStatus(): Partial<Record<ReportStatus, number>> {
    const counts: Partial<Record<ReportStatus, number>> = {};
    for (const row of selectCounts.all()) counts[row.status] = row.n;
    return counts;
  }

  return {
    localRows,
    localCount,
    mirroredPage,
    candidatesPage,
    pointAfter,
    countMatching,
    programCount,
    listPrograms,
    countByStatus,
    statusLabels,
  };
}

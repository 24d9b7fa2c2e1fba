import type { ReportStatus } from './api-types';
import type { Db } from './database';
import type { StoredReportRow } from './report-rows';
import { compareLeading, type ReportSort } from './report-order';
import { createReportHits } from './report-hits';
import { createReportSearcher } from './report-search';
import { createListStatements, toRow, type Params, type SqlRow } from './report-list-sql';
import { createSearchMemos } from './report-list-resume';
import { mirroredPart } from './report-list-plan';
import { createOrderedSearch } from './report-list-ordered';
import { keyOf, mergedWindow } from './report-list-merge';

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
 * JavaScript for what it does not yet (report-search.ts). A search's first pages in the `updated`
 * order read the index in that order (report-list-ordered.ts); the others read the set of its
 * hits (report-hits.ts).
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
  /**
   * Answer the rows before the total: a new search's count reads every hit, so its page may say
   * a lower bound instead (`totalPending`) and `count` gives the exact total after it.
   */
  rowsFirst?: boolean;
}

/** The stored row's columns the list shows, and what the local draft and the outbox add. */
export interface ReportListRow extends Pick<
  StoredReportRow,
  'id' | 'program_id' | 'program_name' | 'status' | 'display_status' | 'updated_at'
> {
  /** The local draft's title when there is one (what the user last typed). */
  title: string;
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
  /** Rows of the whole list with this filter and search (at least, while `totalPending`). */
  total: number;
  /** `total` is a lower bound: asked with `rowsFirst`, the search was not counted yet. */
  totalPending: boolean;
  /** Every report by status, drafts made offline included (not narrowed by filter or search). */
  counts: Partial<Record<ReportStatus, number>>;
  /** Every program with reports, by name (not narrowed by filter or search). */
  programs: ReportListProgram[];
  /** Reports queued for the search index that this search could not look at (see report-search.ts). */
  indexing: number;
}

export interface ReportListRepository {
  page(query: ReportListQuery): ReportListPage;
  /** The exact total of a query's list (what `page` says; after a page asked `rowsFirst`). */
  count(query: Omit<ReportListQuery, 'offset' | 'limit' | 'rowsFirst'>): number;
  /** Mirrored reports by status, read from the counts the triggers keep. */
  countByStatus(): Partial<Record<ReportStatus, number>>;
}

export interface ReportListOptions {
  /**
   * Read a search's first pages in the default order from the search index in that order
   * (report-list-ordered.ts); default true. False keeps the set of every hit for every page: the
   * tests and the bench compare both.
   */
  indexOrder?: boolean;
}

export function createReportListRepository(
  db: Db,
  options: ReportListOptions = {},
): ReportListRepository {
  const searcher = createReportSearcher(db);
  const hitSet = createReportHits(db);
  const statements = createListStatements(db, hitSet);
  const memos = createSearchMemos(hitSet);
  const ordered = (options.indexOrder ?? true) ? createOrderedSearch(db, hitSet) : null;
  const { countByStatus, listPrograms, localCount, localRows } = statements;

  const repository: ReportListRepository = {
    countByStatus,
    count: (query) => repository.page({ ...query, offset: 0, limit: 0 }).total,
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

      const rest = mirroredPart(
        { statements, memos, hitSet, ordered },
        sort,
        { statuses, program, search },
        mirrored,
        query.rowsFirst === true,
      );
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
      const mirroredTotal = rest.total();
      return {
        rows: rows.map(toRow),
        total: localTotal + mirroredTotal.n,
        totalPending: !mirroredTotal.exact,
        counts,
        programs: listPrograms(),
        indexing: search?.indexing ?? 0,
      };
    },
  };
  return repository;
}

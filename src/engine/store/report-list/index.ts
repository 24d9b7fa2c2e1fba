import type { Db } from '../database';
import { compareLeading, type ReportSort } from '../report-order';
import { createReportHits } from './hits';
import { createReportSearcher } from '../report-search';
import { createListStatements, toRow, type Params, type SqlRow } from './sql';
import { createSearchMemos } from './resume';
import { mirroredPart } from './plan';
import { createOrderedSearch } from './ordered';
import { keyOf, mergedWindow } from './merge';
import type { ReportListOptions, ReportListRepository } from './types';

export type * from './types';

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
 * order read the index in that order (ordered.ts); the others read the set of its
 * hits (hits.ts).
 */
export function createReportListRepository(
  db: Db,
  options: ReportListOptions = {},
): ReportListRepository {
  const searcher = createReportSearcher(db);
  const hitSet = createReportHits(db);
  const statements = createListStatements(db, hitSet);
  const memos = createSearchMemos(hitSet);
  const ordered = (options.indexOrder ?? true) ? createOrderedSearch(db, hitSet) : null;
  const { countByStatus, listPrograms, localCount, localRows, statusLabels } = statements;

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
        statusLabels: statusLabels(),
        programs: listPrograms(),
        indexing: search?.indexing ?? 0,
      };
    },
  };
  return repository;
}

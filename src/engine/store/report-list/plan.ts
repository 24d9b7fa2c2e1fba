import type { ReportStatus } from '../api-types';
import { NO_FACETS } from '../report-facets';
import type { ReportHits } from './hits';
import { ORDERED_ROWS, type OrderedSearch } from './ordered';
import type { ReportSearch } from '../report-search';
import type { ListStatements, Params, Plan, Shape, SqlRow } from './sql';
import { POINT_SPACING, resumeParams, type ResumePoint, type SearchMemos } from './resume';
import { statusRank, type ReportSort } from '../report-order';
import { namedValues } from '../sql-values';

/**
 * The cost planner of the reports list: for the mirrored part of a list (its filters and order),
 * the total, and for each window read the cheaper of walking the order's index or reading the
 * filter's rows and sorting them.
 */

/**
 * What reading a filter's rows and sorting them costs, in index steps of a walk: a search's hits
 * are looked up by rowid and sorted (measured with the reports screen's search); a row found in a program's
 * or a status's range is read from the table and sorted (about 1.2 µs a row against 45 ns an
 * index step at 100,000 reports).
 */
const HIT_COST = { search: 4, row: 25 } as const;

function sum(counts: Partial<Record<ReportStatus, number>>, only: readonly ReportStatus[]) {
  const wanted = only.length ? only : (Object.keys(counts) as ReportStatus[]);
  return wanted.reduce((total, status) => total + (counts[status] ?? 0), 0);
}

export interface Filters {
  statuses: readonly ReportStatus[];
  program: string | null;
  search: ReportSearch | null;
}

/**
 * The mirrored reports of the filters: their total, and a reader of any window of them in
 * `sort`, with the cheaper plan for that window.
 */

export function mirroredPart(
  deps: {
    statements: ListStatements;
    memos: SearchMemos;
    hitSet: ReportHits;
    /** The index read in the list's order (ordered.ts); null: never. */
    ordered: OrderedSearch | null;
  },
  sort: ReportSort,
  filters: Filters,
  counts: Partial<Record<ReportStatus, number>>,
  /** Read the rows before counting: the total may then be a lower bound (see `total`). */
  rowsFirst = false,
): MirroredPart {
  const { statuses, program, search } = filters;
  // A search in the default order whose hits the index holds under their current keys: its first
  // pages are read from the index in order, without the set of every hit.
  if (deps.ordered && search !== null && sort === 'updated' && search.indexing === 0) {
    const ordered = deps.ordered;
    const facets = { statuses, program };
    // The count reads every hit (25,000 for a word in a quarter of 100,000 reports: 2.6 ms); a
    // page that answers first leaves it for the count asked after it, unless it is known already.
    let total = rowsFirst ? ordered.countKnown(search, facets) : ordered.count(search, facets);
    /** The matching reports seen by the windows read (a lower bound of the total). */
    let seen = 0;
    let deep: MirroredPart | null = null;
    const rest = () => (deep ??= hitsPart(deps, sort, filters, counts));
    return {
      total() {
        if (total !== null) return { n: total, exact: true };
        if (deep) return deep.total();
        if (seen > 0) return { n: seen, exact: false };
        total = ordered.count(search, facets);
        return { n: total, exact: true };
      },
      read(window) {
        if (window.limit <= 0 || (total !== null && window.offset >= total)) return [];
        const end = window.offset + window.limit;
        if (end > ORDERED_ROWS) return rest().read(window);
        const { seqs, every } = ordered.candidates(search, facets, end);
        if (every) total = seqs.length;
        seen = Math.max(seen, seqs.length);
        return deps.statements.candidatesPage().all({
          seqs: JSON.stringify(seqs),
          offset: window.offset,
          limit: window.limit,
        });
      },
    };
  }
  return hitsPart(deps, sort, filters, counts);
}

interface MirroredPart {
  /** Its reports in all; a lower bound (`exact` false) when the rows were read first. */
  total(): { n: number; exact: boolean };
  read(window: { offset: number; limit: number }): SqlRow[];
}

/** The mirrored part read from its index walks, a search from the set of its hits. */
function hitsPart(
  deps: { statements: ListStatements; memos: SearchMemos; hitSet: ReportHits },
  sort: ReportSort,
  filters: Filters,
  counts: Partial<Record<ReportStatus, number>>,
): MirroredPart {
  const { statuses, program, search } = filters;
  const params: Params = {
    ...namedValues('s', statuses),
    ...namedValues('r', statuses.map(statusRank)),
    ...(program !== null ? { program } : {}),
  };
  const all = sum(counts, []);
  const ofStatuses = sum(counts, statuses);
  const ofProgram = program === null ? null : (deps.statements.programCount(0).get(params) ?? 0);
  const ofBoth =
    program === null
      ? ofStatuses
      : statuses.length === 0
        ? (ofProgram ?? 0)
        : (deps.statements.programCount(statuses.length).get(params) ?? 0);

  let total: number;
  let hits = 0;
  if (search === null) {
    total = ofBoth;
  } else {
    // The index's facets are the reports' own while the search saw every queued report (the
    // index's hits of those are left out); past the queue-scan limit, a report whose status
    // changed a moment ago still has its old one there: the hits are then the search's alone.
    const faceted = search.indexing === 0;
    hits = deps.hitSet.load(search, faceted ? { statuses, program } : NO_FACETS);
    if (faceted || (statuses.length === 0 && program === null)) {
      total = hits;
    } else {
      // Counted once per search and filter while the hits are kept (the next pages reuse it).
      const memo = deps.memos.searchMemo(statuses, program);
      if (memo?.total == null) {
        const range = program !== null ? (ofProgram ?? 0) : ofStatuses;
        const plan = 2 * hits < range ? 'hits' : 'walk';
        total =
          deps.statements.countMatching(statuses.length, program !== null, plan).get(params) ?? 0;
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
    total: () => ({ n: total, exact: true }),
    read(window) {
      if (window.limit <= 0 || window.offset >= total) return [];
      // A search may read on from where one of its earlier pages ended (the walk skips less).
      const memo =
        search !== null && sort === 'updated' ? deps.memos.searchMemo(statuses, program) : null;
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
          const row = deps.statements.pointAfter(shapeOf(from !== null)).get({
            ...params,
            offset: POINT_SPACING - 1,
            ...resumeParams(from),
          });
          if (!row) break;
          from = deps.memos.remember(memo, { offset: at, ms: row.ms, id: row.id });
        }
      }
      const shape = shapeOf(from !== null);
      const rows = deps.statements.mirroredPage(shape).all({
        ...params,
        limit: window.limit,
        offset: window.offset - (from?.offset ?? 0),
        ...resumeParams(from),
      });
      const last = rows.at(-1);
      if (memo && last?.updated_ms !== undefined) {
        deps.memos.remember(memo, {
          offset: window.offset + rows.length,
          ms: last.updated_ms,
          id: last.id,
        });
      }
      return rows;
    },
  };
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

import type { ReportStatus } from '../api-types';
import type { ReportHits } from './hits';
import type { Params } from './sql';

/**
 * Where a page of a search ended in the `updated` order: the next page walks on from there. A walk
 * costs what it skips (8 ms to row 20,000 of a search matching a quarter of 100,000 reports), and
 * a list is scrolled a page after the other.
 */
export interface ResumePoint {
  /** The row's place among the mirrored rows of the list; the walk resumes after that row. */
  offset: number;
  ms: number;
  id: string;
}
/** The parameters of a walk that resumes after `point` (none from the top). */
export const resumeParams = (point: ResumePoint | null): Params =>
  point ? { afterMs: point.ms, afterId: point.id } : {};

/** Points kept per search (the pages a scroll went through, and those a long walk laid). */
export const RESUME_POINTS = 128;
/**
 * A walk longer than this (rows of the list) lays a resume point every `POINT_SPACING` rows on
 * its way, so that a later jump anywhere before its end (dragging the scroll bar back and forth
 * through a search) walks at most that far: at 100,000 reports, a jump to row 19,000 of a search
 * after one to row 20,000 walked from the top again (12 ms).
 */
export const POINT_SPACING = 2_000;

/**
 * What is known of the search the hits table holds, with one filter: its total (filtered) and
 * where its pages ended. Forgotten with the hits (their key changes with any write); none
 * while the hits are not kept (inside a transaction).
 */
export interface SearchMemo {
  total: number | null;
  points: ResumePoint[];
}

export type SearchMemos = ReturnType<typeof createSearchMemos>;

/** The memo of the search the hits table holds now (one at a time). */
export function createSearchMemos(hitSet: ReportHits) {
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

  return { remember, searchMemo };
}

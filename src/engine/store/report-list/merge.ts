import { compareLeading, statusRank, type ReportSort } from '../report-order';
import type { SqlRow } from './sql';

export const keyOf = (row: SqlRow) => ({
  // The same rank as the stored `status_rank` (report-order.ts), without reading it.
  statusRank: statusRank(row.status),
  programName: row.program_name,
  programId: row.program_id,
  severity: row.severity_score,
});

/**
 * The window of the list in an order where the drafts made offline sit among the mirrored
 * reports: rows `offset - local` onwards of the mirror hold every mirrored row of the window,
 * and each row's place is its rank in its own part plus the rows of the other part before it.
 */
export function mergedWindow(
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

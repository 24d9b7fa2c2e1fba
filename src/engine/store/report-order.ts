import { parseCvss31 } from '@shared/rules/cvss';
import type { ReportSort } from '@shared/bridge/views';
import { REPORT_STATUSES } from '@shared/api';

export type { ReportSort };

/**
 * What the reports list sorts by (report-list/): the stored columns behind each order and the
 * rules that compare a local draft with a mirrored report the way SQLite does.
 */
/**
 * The list's status order is the report's way through triage, then the decisions: the order of
 * `REPORT_STATUSES`, the API document's own. Stored in `reports.status_rank` (migration 7), so
 * changing it needs a migration that recomputes it. A status the API adds later sorts after the
 * known ones.
 */
export const UNKNOWN_STATUS_RANK = REPORT_STATUSES.length;

export function statusRank(status: string): number {
  const rank = (REPORT_STATUSES as readonly string[]).indexOf(status);
  return rank < 0 ? UNKNOWN_STATUS_RANK : rank;
}

/** `status_rank` of a status column, in SQL (the same ranks as `statusRank`). */
export function statusRankSql(column: string): string {
  const cases = REPORT_STATUSES.map((status, rank) => `WHEN '${status}' THEN ${rank}`).join(' ');
  return `(CASE ${column} ${cases} ELSE ${UNKNOWN_STATUS_RANK} END)`;
}

const scores = new Map<string, number | null>();
const SCORE_CACHE = 4096;

/**
 * The CVSS 3.1 base score of a vector, or null when there is none (empty or invalid). Vectors
 * repeat across reports and a score costs about 20 µs, so recent ones are remembered.
 */
export function cvssScore(vector: string | null | undefined): number | null {
  if (typeof vector !== 'string' || vector === '') return null;
  const known = scores.get(vector);
  if (known !== undefined) return known;
  const parsed = parseCvss31(vector);
  const score = parsed.ok ? parsed.baseScore : null;
  if (scores.size >= SCORE_CACHE) scores.clear();
  scores.set(vector, score);
  return score;
}

const encoder = new TextEncoder();

/**
 * SQLite's NOCASE collation: ASCII letters folded to lower case, then the UTF-8 bytes compared
 * (BINARY). JavaScript's own `<` compares UTF-16 units and orders some characters differently.
 */
export function compareNoCase(a: string, b: string): number {
  return compareBinary(
    a.replace(/[A-Z]/gu, (c) => c.toLowerCase()),
    b.replace(/[A-Z]/gu, (c) => c.toLowerCase()),
  );
}

/** SQLite's BINARY collation: the UTF-8 bytes compared. */
export function compareBinary(a: string, b: string): number {
  if (a === b) return 0;
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** The leading sort key of a row: what decides between a local draft and a mirrored report. */
export interface SortKey {
  statusRank: number;
  programName: string;
  programId: string;
  severity: number | null;
}

/**
 * Compares a row's leading key with another's, for `sort`: negative when `a` comes first. Rows
 * equal on it are ordered by what follows in each order (local drafts first, then the newest
 * update), which the caller decides.
 */
export function compareLeading(sort: ReportSort, a: SortKey, b: SortKey): number {
  switch (sort) {
    case 'updated':
      return 0;
    case 'status':
      return a.statusRank - b.statusRank;
    case 'program':
      return compareNoCase(a.programName, b.programName) || compareBinary(a.programId, b.programId);
    case 'severity':
      // Highest first; no score last (SQLite orders NULL below every number, DESC puts it last).
      if (a.severity === b.severity) return 0;
      if (a.severity === null) return 1;
      if (b.severity === null) return -1;
      return b.severity - a.severity;
  }
}

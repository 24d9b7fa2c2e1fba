import type { PayoutStatus, ReportStatus } from './api-types';

/** A `reports` row as the store reads it: its indexed columns, without parsing the full JSON. */
export interface StoredReportRow {
  id: string;
  program_id: string;
  program_name: string;
  status: ReportStatus;
  display_status: string;
  title: string;
  revision: number;
  created_at: string | null;
  updated_at: string | null;
  submitted_at: string | null;
  withdrawn_at: string | null;
  has_payout: boolean;
  payout_status: PayoutStatus | null;
  /**
   * False while a report sits in needs_info and the researcher has not answered its question (the
   * column keeps its first name: it was once set by opening the thread).
   */
  needs_info_seen: boolean;
  /** The list page knows a newer state than the stored full report: the sync must fetch it. */
  stale: boolean;
  /** A full form is stored (false for reports only known from a list page). */
  has_full: boolean;
}

/** A `reports` row as SQLite returns it (flags as 0 and 1). */
export interface StoredReportSqlRow extends Omit<
  StoredReportRow,
  'has_payout' | 'needs_info_seen' | 'stale' | 'has_full'
> {
  has_payout: number;
  needs_info_seen: number;
  stale: number;
  has_full: number;
}

export const listColumns = `id, program_id, program_name, status, display_status, title, revision,
  created_at, updated_at, submitted_at, withdrawn_at, has_payout, payout_status, needs_info_seen,
  stale, has_full`;

export function toStoredReportRow(row: StoredReportSqlRow): StoredReportRow {
  return {
    ...row,
    has_payout: row.has_payout === 1,
    needs_info_seen: row.needs_info_seen === 1,
    stale: row.stale === 1,
    has_full: row.has_full === 1,
  };
}

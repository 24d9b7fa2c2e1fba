import type { ReportStatus } from '../api-types';
import type { StoredReportRow } from '../report-rows';
import type { ReportSort } from '../report-order';
import type { StatusChangeKind } from '../outbox';

/** What the reports list is asked (index.ts answers it). */
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
  /** A submit or withdraw queued and not stopped: the server's status is still the one before. */
  queued_action: StatusChangeKind | null;
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
  /** The service's label for display of each status it has reports in (`display_status`). */
  statusLabels: Partial<Record<ReportStatus, string>>;
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
   * (ordered.ts); default true. False keeps the set of every hit for every page: the
   * tests and the bench compare both.
   */
  indexOrder?: boolean;
}

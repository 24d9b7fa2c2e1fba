import type {
  Me,
  Message,
  PaymentsStatus,
  Program,
  ProgramPage,
  Report,
  ReportStatus,
} from '../api';

/** What the renderer may know about the signed-in account. Never the key itself. */
export interface AccountView {
  serverUrl: string;
  /** The embedded sandbox started by the app itself. */
  sandbox: boolean;
  /** A read key makes the whole app read-only. */
  scope: 'read' | 'write';
  me: Me | null;
  payments: PaymentsStatus | null;
}

export type Connectivity = 'online' | 'offline' | 'unknown';

/** An API error in words a researcher understands, with what to do next. */
export interface ErrorView {
  status: number;
  code: string;
  title: string;
  advice: string;
  /** The input at fault, when the error names one (the form shows the advice beside it). */
  field?: string;
  /** Shown for 500s so the user can quote it to support. */
  requestId?: string;
}

/** A report in the researcher's inbox: triage messages they have not read, or a question. */
export interface InboxItem {
  reportId: string;
  title: string;
  /** Messages of the triage agent or the program team since the researcher last opened it. */
  unread: number;
  /** In `needs_info` and not opened since the question came. */
  needsInfo: boolean;
  updatedAt: string | null;
}

export interface StatusView {
  connectivity: Connectivity;
  syncing: boolean;
  lastSyncAt: string | null;
  /** Queued changes not yet accepted by the server (each listed in its report's outbox panel). */
  unsent: number;
  /**
   * Of the unsent changes, those that cannot go without the researcher: refused ones (parked) and
   * the changes of the same report queued behind them. The rest is on its way.
   */
  held: number;
  /** Reports that wait for the researcher: a stopped change, or an unanswered question. */
  needsAction: number;
  /** Unread triage messages over all reports. */
  unread: number;
  inbox: InboxItem[];
  budget: { used: number; limit: number };
  lastError: ErrorView | null;
  /** Where the mirror is while reports or threads are still to download; null when complete. */
  mirror?: MirrorView | null;
  storage: StorageView;
}

export interface MirrorView {
  /** Reports the list shows (every list page read so far). */
  total: number;
  /** Of them, downloaded in full (searchable, openable offline). */
  downloaded: number;
  /** Seconds left at the request rate the service allows background work (an estimate). */
  secondsLeft: number;
}

/** The researcher's own disk and data folder, as far as they stop the app's work. */
export interface StorageView {
  /** The disk refused a write: sending and syncing wait, and resume when a write succeeds. */
  diskFull: boolean;
  /** The offline copy was found damaged at this start, kept aside and rebuilt. */
  recovered: {
    keptAs: string;
    at: string;
    /** Drafts and queued changes put back from the unsent-work journal. */
    drafts: number;
    changes: number;
  } | null;
  /**
   * The signed-in account's data was written by a newer version of the app: nothing of it is
   * opened or changed until the researcher updates or starts with a fresh copy.
   */
  newerData: { found: number; supported: number } | null;
}

export interface DraftContent {
  title: string;
  asset: string;
  description: string;
  cvss_vector: string;
}

export type DraftField = keyof DraftContent;

/**
 * One field both sides changed differently: `base` is the common ancestor (the content the server
 * last acknowledged), `ours` the local text, `theirs` the server's.
 */
export interface FieldSides {
  base: string;
  ours: string;
  theirs: string;
}

export interface FieldConflict extends FieldSides {
  field: DraftField;
}

export type ConflictChoice = 'ours' | 'theirs' | { custom: string };

export interface DraftView {
  reportId: string;
  programId: string;
  content: DraftContent;
  /** Revision of the last content the server acknowledged; null while never sent. */
  baseRevision: number | null;
  conflicts: FieldConflict[];
  /** A change of this draft is queued for the server. */
  unsent: boolean;
  /**
   * Nothing is queued, yet the server does not hold this content as a save would send it: its
   * sending was discarded, or it fails a local check. The next change sends it all.
   */
  notOnServer: boolean;
  /** Local checks that fail (each names its field); the draft is kept but not sent until fixed. */
  issues: { field: string; message: string }[];
  /**
   * The program's policy version when this draft was started here (null when unknown): the
   * editor says when the policy changed since, so the report is checked against the new scope.
   */
  policyVersionAtStart: number | null;
}

export type EvidenceState = 'queued' | 'uploading' | 'uploaded' | 'failed';

export interface EvidenceView {
  fileId: string;
  name: string;
  size: number;
  contentType: string;
  sha256: string;
  state: EvidenceState;
  sentBytes: number;
  /** Evidence for a message rather than the draft. */
  forMessage: boolean;
}

/** The queued writes, each named after the API operation it sends. */
export type OutboxKind =
  'save_report' | 'upload_file' | 'remove_file' | 'submit' | 'withdraw' | 'post_message';

/** The queued writes that change a report's status once the server has them, not its content. */
export type StatusChangeKind = Exclude<
  OutboxKind,
  'save_report' | 'upload_file' | 'remove_file' | 'post_message'
>;

export interface OutboxEntryView {
  id: number;
  reportId: string;
  kind: OutboxKind;
  state: 'pending' | 'in_flight' | 'done' | 'parked';
  attempts: number;
  error: ErrorView | null;
}

/** One row of the reports list as the screen shows it (from the store's `ReportListRow`). */
export interface ReportListItemView {
  id: string;
  programId: string;
  programName: string;
  status: ReportStatus;
  displayStatus: string;
  title: string;
  updatedAt: string | null;
  unsent: boolean;
  conflict: boolean;
  needsAction: boolean;
  /** A submit or withdraw on its way: the status is the server's before it arrives. */
  queuedAction: StatusChangeKind | null;
  /**
   * The CVSS 3.1 base score the list sorts by (the local draft's vector while there is one);
   * null without a valid vector.
   */
  severity?: number | null;
}

/**
 * The reports list's orders: newest update first (drafts not sent yet on top); by status (the
 * way through triage, then the decisions); by program name; by severity (the CVSS 3.1 base score
 * of the report's vector, or of the local draft's while there is one; highest first, none last).
 * Each order ends with the newest update first.
 */
export const REPORT_SORTS = ['updated', 'status', 'program', 'severity'] as const;
export type ReportSort = (typeof REPORT_SORTS)[number];

export interface ReportQuery {
  status?: ReportStatus[];
  /** Only this program's reports (a program id). */
  program?: string;
  search?: string;
  /** The order (default `updated`). */
  sort?: ReportSort;
  offset?: number;
  limit?: number;
  /**
   * Answer the rows before the total: a new search's count reads every hit, so the page may
   * say a lower bound (`totalPending`) and `countReports` gives the exact total after it.
   */
  rowsFirst?: boolean;
}

/** A program the researcher has reports in (drafts not sent yet included), for the filter. */
export interface ReportProgramCount {
  id: string;
  name: string;
  count: number;
}

/** One page of the reports list, with what the screen shows around it. */
export interface ReportListPageView {
  items: ReportListItemView[];
  /** Reports in the whole list with this filter and search (at least, while `totalPending`). */
  total: number;
  /** `total` is a lower bound: asked `rowsFirst`, the search is not counted yet (countReports). */
  totalPending?: true;
  /** Every report by status, drafts not sent yet included (not narrowed by filter or search). */
  counts: Partial<Record<ReportStatus, number>>;
  /**
   * The service's label for display of each status it has reports in (`display_status`): the
   * status filter names a status as the rows do.
   */
  statusLabels: Partial<Record<ReportStatus, string>>;
  /** Every program with reports, by name, with how many (not narrowed by filter or search). */
  programs: ReportProgramCount[];
  /**
   * Reports written a moment ago that this search could not look at yet (0 when it saw them
   * all); asking again shortly finds them.
   */
  indexing: number;
}

export interface ReportDetailView {
  id: string;
  /** The server's copy as last mirrored; null for a draft never sent. */
  report: Report | null;
  draft: DraftView | null;
  evidence: EvidenceView[];
  messages: Message[];
  outbox: OutboxEntryView[];
  /**
   * The report is only listed (or its thread not read yet): the engine downloads it now, ahead of
   * everything else ('downloading'), or could not ('failed', with why). Absent once it is in.
   */
  download?: { state: 'downloading' } | { state: 'failed'; error: ErrorView };
}

export interface ChecklistItemView {
  id: string;
  ok: boolean;
  /** Not ok only because something is on its way (files queued or uploading): shown as waiting. */
  waiting?: boolean;
  label: string;
  detail: string;
  fix: string;
}

export interface ChecklistView {
  ok: boolean;
  items: ChecklistItemView[];
}

export interface ProgramQuery {
  /** Words every shown program has in its name, customer or id (any case; the local copy). */
  search?: string;
  asset?: string[];
  reward?: string[];
  updated?: 'any' | '7d' | '30d';
  intake?: string[];
  page?: number;
  limit?: number;
}

export type ProgramPageView = ProgramPage;
export type ProgramView = Program;

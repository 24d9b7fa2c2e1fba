import type {
  AccountView,
  ChecklistView,
  ConflictChoice,
  DraftContent,
  DraftField,
  DraftView,
  ErrorView,
  EvidenceView,
  ProgramPageView,
  ProgramQuery,
  ProgramView,
  ReportDetailView,
  ReportListPage,
  ReportQuery,
  StatusView,
  Connectivity,
} from './views';
import type {
  EvidenceImageView,
  HttpImportInput,
  HttpImportResult,
  PayoutsView,
  SecretScanView,
  SimilarReportView,
} from './evidence-views';

/**
 * The one contract between the UI and the rest of the app: every call and event, declared once.
 * The engine implements the calls, main forwards them over IPC, the preload exposes them as
 * `window.bountyDesk`, and browser tests hand the renderer a bridge that forwards to a real engine.
 */
export interface BridgeCalls {
  getAccount(): Promise<AccountView | null>;
  connectSandbox(): Promise<AccountView>;
  connect(input: { serverUrl: string; apiKey: string }): Promise<AccountView>;
  signOut(): Promise<void>;
  /**
   * The signed-in account's data was written by a newer app (`status.storage.newerData`): keep
   * that data aside, untouched, and start again with an empty offline copy.
   */
  startFresh(): Promise<AccountView>;
  getStatus(): Promise<StatusView>;
  syncNow(): Promise<void>;
  /**
   * "Resync everything": every list page without `updated_since`; what differs is read again,
   * what the server no longer has goes (local unsent work stays).
   */
  resyncEverything(): Promise<void>;

  listPrograms(query: ProgramQuery): Promise<ProgramPageView>;
  getProgram(programId: string): Promise<ProgramView | null>;

  listReports(query: ReportQuery): Promise<ReportListPage>;
  getReport(reportId: string): Promise<ReportDetailView | null>;
  createDraft(programId: string): Promise<DraftView>;
  /**
   * `basedOn` is the content the editor last received from the engine. When the engine changed
   * the draft since (a merge with the server's version), the edit is merged into it instead of
   * replacing it; the answer then holds content the editor must adopt.
   */
  saveDraft(reportId: string, content: DraftContent, basedOn?: DraftContent): Promise<DraftView>;
  resolveConflicts(
    reportId: string,
    choices: Partial<Record<DraftField, ConflictChoice>>,
  ): Promise<DraftView>;
  /** Files the user dropped or picked (tokens from main), linked at `insertAt` when given. */
  attachFiles(
    reportId: string,
    files: { file: FileToken; insertAt?: number }[],
  ): Promise<EvidenceView[]>;
  removeFile(reportId: string, fileId: string): Promise<void>;
  getChecklist(reportId: string): Promise<ChecklistView>;
  submit(reportId: string): Promise<void>;
  withdraw(reportId: string): Promise<void>;
  postMessage(reportId: string, input: { body: string; files: FileToken[] }): Promise<void>;
  /** The researcher opened the report's thread: what it asked of them is read. */
  markThreadRead(reportId: string): Promise<void>;
  downloadFile(reportId: string, fileId: string): Promise<{ savedTo: string } | null>;
  /** Main's own open dialog: the files the user picked there, as tokens. */
  pickFiles(): Promise<PickedFile[]>;
  retryEntry(entryId: number): Promise<void>;
  discardEntry(entryId: number): Promise<void>;

  refreshPayments(): Promise<void>;
  sendVerificationEmail(): Promise<{ alreadyVerified: boolean }>;
  openExternal(url: string): Promise<boolean>;
  /** Steps the API cannot do happen on the website, opened in the user's browser. */
  openWebsite(page: WebsitePage): Promise<boolean>;

  // Issue 13: evidence that never leaks, reports that pass triage, earnings.
  /** Credentials in the draft, its text evidence and its queued messages; awaited, never stale. */
  scanEvidence(reportId: string): Promise<SecretScanView>;
  /** Replaces findings with `[REDACTED:<kind>]` (in the draft, a queued message or a file copy). */
  redactFindings(reportId: string, findingIds: string[]): Promise<SecretScanView>;
  /** Keeps a finding on purpose (remembered), or takes that back. */
  keepFinding(reportId: string, findingId: string, keep: boolean): Promise<SecretScanView>;
  /** Pasted or dropped HTTP evidence as a code block in the description (redacted). */
  importHttpEvidence(reportId: string, input: HttpImportInput): Promise<HttpImportResult>;
  /** The local copy of a raster evidence image (checked by its bytes), or null. */
  getEvidenceImage(reportId: string, fileId: string): Promise<EvidenceImageView | null>;
  /** The researcher's own reports for the same program whose asset or title is close. */
  findSimilarReports(reportId: string): Promise<SimilarReportView[]>;
  listPayouts(): Promise<PayoutsView>;
  /** The payouts table as CSV, saved where the user chooses in main's dialog; null if cancelled. */
  exportPayouts(): Promise<{ savedTo: string } | null>;
}

export type WebsitePage = 'sign-up' | 'verify-email' | 'payment-onboarding' | 'api-keys';

/**
 * A file the user handed to the app (dropped on the window or picked in main's open dialog), as
 * main knows it. The page never sees or names a path: it passes the token back.
 */
export type FileToken = string;

export interface PickedFile {
  token: FileToken;
  name: string;
  size: number;
}

/** The engine runs in its own process; while main restarts it, calls wait or fail clearly. */
export type EngineState = 'starting' | 'ready' | 'restarting';

export interface BridgeEvents {
  'report-changed': { reportId: string };
  'needs-info': { reportId: string; title: string };
  decision: { reportId: string; title: string; outcome: string };
  'payout-changed': { reportId: string; title: string; status: string; amountCents: number };
  connectivity: { state: Connectivity };
  status: StatusView;
  'upload-progress': { reportId: string; fileId: string; sentBytes: number; size: number };
  /** Issue 19: the credential scan of a large evidence file, bytes read so far. */
  'scan-progress': {
    reportId: string;
    fileId: string;
    name: string;
    doneBytes: number;
    size: number;
  };
  'sync-error': ErrorView;
  /** The user clicked a notification or a `bountydesk://report/<id>` link: show this report. */
  'open-report': { reportId: string };
  /** A `bountydesk://program/<id>` link: show this program. */
  'open-program': { programId: string };
  /** A menu item or shortcut handled by main asks the UI to act. */
  command: {
    name: 'new-report' | 'sync-now' | 'resync-everything' | 'toggle-theme' | 'focus-search';
  };
  engine: { state: EngineState };
}

export type BridgeCallName = keyof BridgeCalls;
export type BridgeEventName = keyof BridgeEvents;

export const BRIDGE_CALLS = [
  'getAccount',
  'connectSandbox',
  'connect',
  'signOut',
  'startFresh',
  'getStatus',
  'syncNow',
  'resyncEverything',
  'listPrograms',
  'getProgram',
  'listReports',
  'getReport',
  'createDraft',
  'saveDraft',
  'resolveConflicts',
  'attachFiles',
  'removeFile',
  'getChecklist',
  'submit',
  'withdraw',
  'postMessage',
  'markThreadRead',
  'downloadFile',
  'pickFiles',
  'retryEntry',
  'discardEntry',
  'refreshPayments',
  'sendVerificationEmail',
  'openExternal',
  'openWebsite',
  'scanEvidence',
  'redactFindings',
  'keepFinding',
  'importHttpEvidence',
  'getEvidenceImage',
  'findSimilarReports',
  'listPayouts',
  'exportPayouts',
] as const satisfies readonly BridgeCallName[];

export const BRIDGE_EVENTS = [
  'report-changed',
  'needs-info',
  'decision',
  'payout-changed',
  'connectivity',
  'status',
  'upload-progress',
  'scan-progress', // issue 19
  'sync-error',
  'open-report',
  'open-program',
  'command',
  'engine',
] as const satisfies readonly BridgeEventName[];

/** What `window.bountyDesk` offers the renderer. */
export type Bridge = BridgeCalls & {
  on<E extends BridgeEventName>(event: E, listener: (payload: BridgeEvents[E]) => void): () => void;
};

/**
 * What `window.bountyDeskFiles` offers: a dropped `File` as a token. Only the preload can map a
 * File to its path (`webUtils.getPathForFile`); it hands the path to main, never to the page.
 * Null for a File that is not on disk (made by a script, or dragged from a web page).
 */
export interface BridgeFiles {
  tokenForFile(file: File): Promise<PickedFile | null>;
}

export const callChannel = (name: BridgeCallName): string => `bridge:call:${name}`;
export const eventChannel = (name: BridgeEventName): string => `bridge:event:${name}`;
/** preload → main: the path of a dropped file (see BridgeFiles). */
export const DROP_CHANNEL = 'bridge:files:drop';

/**
 * How a failed call reaches the renderer: plain data, never a stack, never the API key. `field`
 * names the input at fault (`serverUrl`, `apiKey`, a draft field…); API errors add `code`,
 * `status` and, for 500s, `requestId`. The preload rejects the call's promise with this object.
 */
export interface BridgeError {
  name: string;
  message: string;
  field?: string;
  code?: string;
  status?: number;
  requestId?: string;
}

/** What main answers on a call channel; the preload unwraps it (IPC would drop error fields). */
export type BridgeResult<T = unknown> = { ok: true; value: T } | { ok: false; error: BridgeError };

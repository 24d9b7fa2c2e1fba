import {
  ASSET_TYPES,
  INTAKE_VALUES,
  LIMITS,
  REPORT_STATUSES,
  REWARD_BANDS,
  UPDATED_FILTERS,
} from '../api';
import {
  anyOf,
  bool,
  entryId,
  int,
  list,
  MAX,
  nonEmpty,
  object,
  oneOf,
  optional,
  programId,
  str,
  uuid,
  type ArgSpec,
} from './arg-schemas';
import type { FileToken, PickedFile } from './files';
import type {
  EvidenceImageView,
  HttpImportInput,
  HttpImportResult,
  PayoutsView,
  SecretScanView,
  SimilarReportView,
} from './evidence-views';
import type {
  ExportReportsResult,
  ImportReportsInput,
  ImportReportsResult,
  ImportTemplatesResult,
  SaveTemplateInput,
  TemplateView,
} from './report-file-views';
import {
  REPORT_SORTS,
  type AccountView,
  type ChecklistView,
  type ConflictChoice,
  type DraftContent,
  type DraftField,
  type DraftView,
  type EvidenceView,
  type ProgramPageView,
  type ProgramQuery,
  type ProgramView,
  type ReportDetailView,
  type ReportListPageView,
  type ReportQuery,
  type StatusView,
} from './views';

/**
 * Where a call is answered in the engine process: the engine itself (sign-in, status), the
 * signed-in account's session, or one of the session's groups of calls (src/engine/commands). The
 * engine host routes a call straight to `session[group][name]`, so a group's method bears the
 * call's name.
 */
export type EngineGroup =
  | 'engine'
  | 'session'
  | 'reads'
  | 'drafts'
  | 'evidence'
  | 'triage'
  | 'outbox'
  | 'account'
  | 'secrets'
  | 'httpImport'
  | 'payouts'
  | 'reportFiles'
  | 'templates';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any signature: only its shape is read
type Signature = (...args: any[]) => unknown;

/** One schema per parameter of `F`, optional ones included: the counts cannot differ. */
type ArgSpecs<F extends Signature> = SpecPerItem<Parameters<F>>;
type SpecPerItem<P extends unknown[]> = { [I in keyof P]-?: ArgSpec };

/**
 * One call of the bridge: who answers it and the schema of each argument. `F` is the call as the
 * page makes it (parameters and result); it is a type only.
 */
export interface CallSpec<
  F extends Signature = Signature,
  By extends 'engine' | 'main' = 'engine' | 'main',
  G extends EngineGroup | null = EngineGroup | null,
> {
  /** The engine process answers the page's call as it is, or main answers it itself. */
  readonly by: By;
  /**
   * The engine's group that answers the call; for a call main answers, the group answering the
   * engine's call of the same name that main makes with its own arguments (a path for a token, a
   * destination picked in main's dialog), or null when main needs no engine call of that name.
   */
  readonly group: G;
  readonly args: readonly ArgSpec[];
  /** Never set: carries `F` for the types derived from this table. */
  readonly signature?: F;
}

/** `call<(a: A) => R>().engine('drafts', schemaOfA)`: the signature first, then who answers. */
function call<F extends Signature>() {
  return {
    engine: <G extends EngineGroup>(group: G, ...args: ArgSpecs<F>): CallSpec<F, 'engine', G> => ({
      by: 'engine',
      group,
      args: args as unknown as readonly ArgSpec[],
    }),
    main: <G extends EngineGroup | null = null>(
      then: G,
      ...args: ArgSpecs<F>
    ): CallSpec<F, 'main', G> => ({
      by: 'main',
      group: then,
      args: args as unknown as readonly ArgSpec[],
    }),
  };
}

/** Steps the API cannot do happen on the website, opened in the user's browser. */
export const WEBSITE_PAGES = ['sign-up', 'verify-email', 'payment-onboarding', 'api-keys'] as const;
export type WebsitePage = (typeof WEBSITE_PAGES)[number];

/** What to import: one of the two keys (main says so when both or neither come). */
const importInput = object({}, { pick: oneOf(['files', 'folder']), files: list(uuid, MAX.files) });

const reportQuery = object(
  {},
  {
    status: list(oneOf(REPORT_STATUSES), MAX.filters),
    program: programId,
    search: str(MAX.search),
    sort: oneOf(REPORT_SORTS),
    offset: int(0, 100_000_000),
    limit: int(1, 1000),
    rowsFirst: bool,
  },
);

const choice = anyOf(oneOf(['ours', 'theirs']), object({ custom: str(MAX.custom) }));
const draftContent = object({
  title: str(MAX.title),
  asset: str(MAX.asset),
  description: str(MAX.description),
  cvss_vector: str(MAX.cvssVector),
});

/**
 * Every call between the UI and the app, defined once: its name, its signature as the page sees
 * it, the schema of each argument and who answers it. The contract's types (`BridgeCalls`),
 * main's argument checks (generated ahead, scripts/generate-bridge-validators.ts), main's own
 * calls, the engine's routing and the preload's `window.bountyDesk` are all derived from it.
 * How to add a call: docs/architecture.md, "Adding a bridge call".
 */
export const CALLS = {
  getAccount: call<() => AccountView | null>().engine('engine'),
  /** Signs in to the embedded sandbox: main starts its process and makes its account. */
  connectSandbox: call<() => AccountView>().main(null),
  /** Main signs in through the engine, then forgets the sandbox account it no longer uses. */
  connect: call<(input: { serverUrl: string; apiKey: string }) => AccountView>().main(
    'engine',
    object({ serverUrl: nonEmpty(MAX.serverUrl), apiKey: nonEmpty(MAX.apiKey) }),
  ),
  signOut: call<() => void>().engine('engine'),
  /**
   * The signed-in account's data was written by a newer app (`status.storage.newerData`): keep
   * that data aside, untouched, and start again with an empty offline copy.
   */
  startFresh: call<() => AccountView>().engine('engine'),
  getStatus: call<() => StatusView>().engine('engine'),
  /** Everything the app shows, whatever its cadence (see AccountSession.syncNow). */
  syncNow: call<() => void>().engine('session'),
  /**
   * "Resync everything": every list page without `updated_since`; what differs is read again,
   * what the server no longer has goes (local unsent work stays).
   */
  resyncEverything: call<() => void>().engine('session'),

  listPrograms: call<(query: ProgramQuery) => ProgramPageView>().engine(
    'reads',
    object(
      {},
      {
        search: str(MAX.search),
        asset: list(oneOf(ASSET_TYPES), MAX.filters),
        reward: list(oneOf(REWARD_BANDS), MAX.filters),
        updated: oneOf(UPDATED_FILTERS),
        intake: list(oneOf(INTAKE_VALUES), MAX.filters),
        page: int(1, 1_000_000),
        limit: int(LIMITS.programsPage.min, LIMITS.programsPage.max),
      },
    ),
  ),
  getProgram: call<(programId: string) => ProgramView | null>().engine('reads', programId),

  listReports: call<(query: ReportQuery) => ReportListPageView>().engine('reads', reportQuery),
  /** The exact total of a list whose page said `totalPending` (asked `rowsFirst`). */
  countReports: call<(query: ReportQuery) => number>().engine('reads', reportQuery),
  /** Downloads a report the mirror lacks on demand (see AccountSession.getReport). */
  getReport: call<(reportId: string) => ReportDetailView | null>().engine('session', uuid),
  /** The mirror's report without a download: null for one `getReport` would download. */
  peekReport: call<(reportId: string) => ReportDetailView | null>().engine('session', uuid),
  createDraft: call<(programId: string) => DraftView>().engine('drafts', programId),
  /**
   * `basedOn` is the content the editor last received from the engine. When the engine changed
   * the draft since (a merge with the server's version), the edit is merged into it instead of
   * replacing it; the answer then holds content the editor must adopt.
   */
  saveDraft: call<
    (reportId: string, content: DraftContent, basedOn?: DraftContent) => DraftView
  >().engine('drafts', uuid, draftContent, optional(draftContent)),
  resolveConflicts: call<
    (reportId: string, choices: Partial<Record<DraftField, ConflictChoice>>) => DraftView
  >().engine(
    'drafts',
    uuid,
    object({}, { title: choice, asset: choice, description: choice, cvss_vector: choice }),
  ),
  /**
   * Files the user dropped or picked (tokens from main), linked at `insertAt` when given. Main
   * turns the tokens into paths for the engine.
   */
  attachFiles: call<
    (reportId: string, files: { file: FileToken; insertAt?: number }[]) => EvidenceView[]
  >().main(
    'evidence',
    uuid,
    list(object({ file: uuid }, { insertAt: int(0, MAX.description) }), MAX.files),
  ),
  removeFile: call<(reportId: string, fileId: string) => void>().engine('evidence', uuid, uuid),
  /** The submit preconditions, then the evidence checks (credentials, image metadata). */
  getChecklist: call<(reportId: string) => ChecklistView>().engine('session', uuid),
  submit: call<(reportId: string) => void>().engine('triage', uuid),
  withdraw: call<(reportId: string) => void>().engine('triage', uuid),
  /** Main turns the files' tokens into paths for the engine. */
  postMessage: call<(reportId: string, input: { body: string; files: FileToken[] }) => void>().main(
    'triage',
    uuid,
    object({ body: str(MAX.messageBody), files: list(uuid, MAX.files) }),
  ),
  /** The researcher opened the report's thread: what it asked of them is read. */
  markThreadRead: call<(reportId: string) => void>().engine('triage', uuid),
  /** Saved where the user chooses in main's dialog; null if cancelled. */
  downloadFile: call<(reportId: string, fileId: string) => { savedTo: string } | null>().main(
    'evidence',
    uuid,
    uuid,
  ),
  /** Main's own open dialog: the files the user picked there, as tokens. */
  pickFiles: call<() => PickedFile[]>().main(null),
  retryEntry: call<(entryId: number) => void>().engine('outbox', entryId),
  discardEntry: call<(entryId: number) => void>().engine('outbox', entryId),

  refreshPayments: call<() => void>().engine('account'),
  sendVerificationEmail: call<() => { alreadyVerified: boolean }>().engine('account'),
  /** A checked `shell.openExternal` (https only). */
  openExternal: call<(url: string) => boolean>().main(null, nonEmpty(MAX.url)),
  /** Steps the API cannot do happen on the website, opened in the user's browser. */
  openWebsite: call<(page: WebsitePage) => boolean>().main(null, oneOf(WEBSITE_PAGES)),

  // Evidence that never leaks, reports that pass triage, earnings.
  /** Credentials in the draft, its text evidence and its queued messages; awaited, never stale. */
  scanEvidence: call<(reportId: string) => SecretScanView>().engine('secrets', uuid),
  /** Replaces findings with `[REDACTED:<kind>]` (in the draft, a queued message or a file copy). */
  redactFindings: call<(reportId: string, findingIds: string[]) => SecretScanView>().engine(
    'secrets',
    uuid,
    list(nonEmpty(MAX.findingId), MAX.findings),
  ),
  /** Keeps a finding on purpose (remembered), or takes that back. */
  keepFinding: call<
    (reportId: string, findingId: string, keep: boolean) => SecretScanView
  >().engine('secrets', uuid, nonEmpty(MAX.findingId), bool),
  /** Pasted or dropped HTTP evidence as a code block in the description (redacted). */
  importHttpEvidence: call<(reportId: string, input: HttpImportInput) => HttpImportResult>().engine(
    'httpImport',
    uuid,
    object({ text: str(MAX.httpEvidence) }, { name: str(255), insertAt: int(0, MAX.description) }),
  ),
  /** The local copy of a raster evidence image (checked by its bytes), or null. */
  getEvidenceImage: call<(reportId: string, fileId: string) => EvidenceImageView | null>().engine(
    'evidence',
    uuid,
    uuid,
  ),
  /** The researcher's own reports for the same program whose asset or title is close. */
  findSimilarReports: call<(reportId: string) => SimilarReportView[]>().engine('reads', uuid),
  listPayouts: call<() => PayoutsView>().engine('payouts'),
  /** The payouts table as CSV, saved where the user chooses in main's dialog; null if cancelled. */
  exportPayouts: call<() => { savedTo: string } | null>().main('payouts'),

  // Reports as Markdown files with front matter, and the researcher's templates.
  /** The reports as folders (report.md, thread.md, files/) in a folder main's dialog picks. */
  exportReports: call<(reportIds: string[]) => ExportReportsResult | null>().main('reportFiles', {
    schema: { ...list(uuid, MAX.exportReports).schema, minItems: 1 },
  }),
  /**
   * The report's print view printed by Chromium (main's printToPDF of the window, which shows it
   * while the call runs) to where main's save dialog says; null if cancelled.
   */
  saveReportPdf: call<(reportId: string) => { savedTo: string } | null>().main(null, uuid),
  /** Report files picked in main's dialog, or dropped (tokens), as new drafts; null if cancelled. */
  importReports: call<(input: ImportReportsInput) => ImportReportsResult | null>().main(
    'reportFiles',
    importInput,
  ),
  /** The researcher's own templates (local database), by name. */
  listTemplates: call<() => TemplateView[]>().engine('templates'),
  saveTemplate: call<(input: SaveTemplateInput) => TemplateView>().engine(
    'templates',
    object(
      { name: str(MAX.templateName), body: str(MAX.description) },
      { id: uuid, fromReportId: uuid },
    ),
  ),
  deleteTemplate: call<(templateId: string) => void>().engine('templates', uuid),
  /** A new draft: the program's headings filled by the template, its placeholders filled. */
  startFromTemplate: call<
    (programId: string, templateId: string, input: { title: string; asset: string }) => DraftView
  >().engine(
    'templates',
    programId,
    uuid,
    object({ title: str(MAX.title), asset: str(MAX.asset) }),
  ),
  /** The templates as Markdown files (`template: <name>` front matter) in a folder main picks. */
  exportTemplates: call<() => { savedTo: string; count: number } | null>().main('templates'),
  /** Template files picked in main's dialog (or dropped) as new templates; null if cancelled. */
  importTemplates: call<(input: ImportReportsInput) => ImportTemplatesResult | null>().main(
    'templates',
    importInput,
  ),
};

export type BridgeCallName = keyof typeof CALLS;

type SignatureOf<K extends BridgeCallName> = NonNullable<(typeof CALLS)[K]['signature']>;

/** The calls as the page makes them: each answers a promise. */
export type BridgeCalls = {
  [K in BridgeCallName]: (
    ...args: Parameters<SignatureOf<K>>
  ) => Promise<ReturnType<SignatureOf<K>>>;
};

/** The calls main answers itself (dialogs, the OS browser, the sandbox process, file tokens). */
export type MainCallName = {
  [K in BridgeCallName]: (typeof CALLS)[K]['by'] extends 'main' ? K : never;
}[BridgeCallName];

/** The calls the engine answers exactly as the page made them. */
export type ForwardedCallName = Exclude<BridgeCallName, MainCallName>;

/** The engine's group answering each call of that name the engine receives. */
export type GroupOf<K extends BridgeCallName> = (typeof CALLS)[K]['group'];

/** The names of the engine's calls of the same name as a bridge call, and their groups. */
export type EngineRoutedName = {
  [K in BridgeCallName]: GroupOf<K> extends EngineGroup ? K : never;
}[BridgeCallName];

const names = Object.keys(CALLS) as BridgeCallName[];

export const BRIDGE_CALLS: readonly BridgeCallName[] = names;
export const MAIN_CALLS = names.filter((name): name is MainCallName => CALLS[name].by === 'main');
export const FORWARDED_CALLS = names.filter(
  (name): name is ForwardedCallName => CALLS[name].by === 'engine',
);
/** Each engine call named like a bridge call, with the group that answers it. */
export const ENGINE_ROUTES = Object.fromEntries(
  names.flatMap((name) => (CALLS[name].group === null ? [] : [[name, CALLS[name].group]])),
) as { readonly [K in EngineRoutedName]: GroupOf<K> };

/** Reads outside the `reads` group: the account, the status, a report's view, its secrets scan. */
const READS_ELSEWHERE: ReadonlySet<BridgeCallName> = new Set<BridgeCallName>([
  'getAccount',
  'getStatus',
  'getReport',
  'peekReport',
  'scanEvidence',
]);

/**
 * Whether a call leaves everything the engine holds as it was: a report read before it is still
 * what the engine would answer after it (the renderer's reads ahead of a click count on this).
 * A download `getReport` starts is told by a `report-changed` event when it is in.
 */
export const changesNothing = (name: BridgeCallName): boolean =>
  CALLS[name].group === 'reads' || READS_ELSEWHERE.has(name);

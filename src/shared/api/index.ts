/**
 * The API contract shared by the engine, the sandbox and the renderer: the generated OpenAPI types,
 * one named alias per schema, and the constants of the API document (docs/researcher-api.md) that code
 * needs at run time. The source of the types is `openapi.yaml`; `npm run generate:api` regenerates
 * `openapi.json` and `schema.d.ts`.
 */
import type { components, operations, paths } from './schema';
import openapiDocument from './openapi.json';

export type { components, operations, paths };
export { openapiDocument };
export * from './api-key';

type Schemas = components['schemas'];

// ---- one alias per schema -------------------------------------------------------------------

export type Uuid = Schemas['Uuid'];
export type Timestamp = Schemas['Timestamp'];
export type Binary = Schemas['Binary'];
export type ReportStatus = Schemas['ReportStatus'];
export type DecisionOutcome = Schemas['DecisionOutcome'];
export type AttachmentState = Schemas['AttachmentState'];
export type PayoutStatus = Schemas['PayoutStatus'];
export type PaymentsAccountStatus = Schemas['PaymentsAccountStatus'];
export type Intake = Schemas['Intake'];
export type AssetType = Schemas['AssetType'];
export type RewardBand = Schemas['RewardBand'];
export type UpdatedFilter = Schemas['UpdatedFilter'];
export type MessageAuthor = Schemas['MessageAuthor'];
export type KeyScope = Schemas['KeyScope'];
export type Rewards = Schemas['Rewards'];
export type Report = Schemas['Report'];
export type ReportSummary = Schemas['ReportSummary'];
export type ReportPage = Schemas['ReportPage'];
export type ReportInput = Schemas['ReportInput'];
export type SubmitInput = Schemas['SubmitInput'];
export type Content = Schemas['Content'];
export type SubmittedProgram = Schemas['SubmittedProgram'];
export type SubmittedPayments = Schemas['SubmittedPayments'];
export type Submission = Schemas['Submission'];
export type Decision = Schemas['Decision'];
export type Payout = Schemas['Payout'];
export type Attachment = Schemas['Attachment'];
export type Message = Schemas['Message'];
export type MessageFile = Schemas['MessageFile'];
export type MessageInput = Schemas['MessageInput'];
export type MessageList = Schemas['MessageList'];
export type RewardRange = Schemas['RewardRange'];
export type ProgramSummary = Schemas['ProgramSummary'];
export type Program = Schemas['Program'];
export type ProgramPage = Schemas['ProgramPage'];
export type Me = Schemas['Me'];
export type PaymentsStatus = Schemas['PaymentsStatus'];
export type OnboardingLink = Schemas['OnboardingLink'];
export type VerificationEmailResult = Schemas['VerificationEmailResult'];
export type PasswordResetResult = Schemas['PasswordResetResult'];
export type ResetInput = Schemas['ResetInput'];
export type ApiKey = Schemas['ApiKey'];
export type NewApiKey = Schemas['NewApiKey'];
export type ApiKeyList = Schemas['ApiKeyList'];
export type KeyInput = Schemas['KeyInput'];
/** The `Error` schema: `{ detail, code, current? }`. */
export type ApiErrorBody = Schemas['Error'];
export type ValidationIssue = Schemas['ValidationIssue'];
/** The list-form 422 body of the password reset. */
export type ListValidationError = Schemas['ListValidationError'];

/** Every schema name of `components.schemas`. */
export type SchemaName = keyof Schemas;
/** Every `operationId`. */
export type OperationId = keyof operations;

// ---- enumerations (part 2 and part 3) ---------------------------------------------------------

export const REPORT_STATUSES = [
  'draft',
  'triaging',
  'needs_info',
  'paused',
  'human_review',
  'accepted',
  'rejected',
  'duplicate',
  'insufficient_info',
  'withdrawn',
] as const satisfies readonly ReportStatus[];

/** Each holds one active-report slot (at most `LIMITS.activeReports`). */
export const ACTIVE_STATUSES = [
  'triaging',
  'needs_info',
  'paused',
] as const satisfies readonly ReportStatus[];
export type ActiveStatus = (typeof ACTIVE_STATUSES)[number];

export const FINAL_DECISIONS = [
  'accepted',
  'rejected',
  'duplicate',
  'insufficient_info',
] as const satisfies readonly DecisionOutcome[];
export type FinalDecision = (typeof FINAL_DECISIONS)[number];

/** The final decisions plus `withdrawn`. */
export const TERMINAL_STATUSES = [
  ...FINAL_DECISIONS,
  'withdrawn',
] as const satisfies readonly ReportStatus[];
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

export const ATTACHMENT_STATES = [
  'uploading',
  'ready',
  'failed',
  'deleting',
] as const satisfies readonly AttachmentState[];

export const PAYOUT_STATUSES = [
  'approving',
  'transferred',
  'received',
  'payout_failed',
] as const satisfies readonly PayoutStatus[];

export const PAYMENTS_STATUSES = [
  'unconfigured',
  'not_started',
  'needs_information',
  'pending',
  'ready',
  'unavailable',
] as const satisfies readonly PaymentsAccountStatus[];

export const INTAKE_VALUES = ['open', 'paused', 'closed'] as const satisfies readonly Intake[];

export const ASSET_TYPES = [
  'web',
  'api',
  'mobile',
  'source_code',
  'cloud',
  'hardware',
  'other',
] as const satisfies readonly AssetType[];

export const REWARD_BANDS = [
  'under_1k',
  '1k_5k',
  '5k_10k',
  'over_10k',
] as const satisfies readonly RewardBand[];

export const UPDATED_FILTERS = ['any', '7d', '30d'] as const satisfies readonly UpdatedFilter[];

export const MESSAGE_AUTHORS = [
  'agent',
  'researcher',
  'founder',
] as const satisfies readonly MessageAuthor[];

export const KEY_SCOPES = ['read', 'write'] as const satisfies readonly KeyScope[];

/** Severity keys of a reward table. */
export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The template headings of a report description (part 2, ReportInput). */
export const TEMPLATE_HEADINGS = [
  'Steps to reproduce',
  'Expected behavior',
  'Actual behavior',
  'Security impact',
] as const;

export function isActiveStatus(status: ReportStatus): status is ActiveStatus {
  return (ACTIVE_STATUSES as readonly ReportStatus[]).includes(status);
}

export function isFinalDecision(status: ReportStatus): status is FinalDecision {
  return (FINAL_DECISIONS as readonly ReportStatus[]).includes(status);
}

export function isTerminalStatus(status: ReportStatus): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly ReportStatus[]).includes(status);
}

// ---- limits (part 8, plus the numbers of parts 1, 2, 5 that bound input) ----------------------

const KIB = 1024;
const MIB = 1024 * KIB;

export const LIMITS = {
  rate: {
    /** Signed-in requests per minute per account, shared by all keys and sessions. */
    signedInPerMinute: 120,
    /** Failed authentications per minute per client IP address. */
    failedAuthPerMinutePerIp: 120,
    /** Program-route requests per minute per client IP address. */
    programRoutesPerMinutePerIp: 120,
    verificationEmail: { perMinute: 1, perHour: 5 },
    passwordReset: {
      perIpPerMinute: 5,
      perIpPerHour: 30,
      perEmailPerMinute: 1,
      perEmailPerHour: 5,
    },
    /** Payout onboarding requests per minute. */
    payoutOnboardingPerMinute: 5,
  },
  /** A new onboarding request within this many seconds of the last gives `onboarding_in_progress`. */
  onboardingWindowSeconds: 60,
  /** Recommended longest polling rate: at most one poll per this many seconds (part 6). */
  pollIntervalSeconds: 60,
  /** Wait when a 503 carries no `Retry-After` (part 7: "about a minute"). */
  defaultRetryAfterSeconds: 60,

  jsonBodyBytes: 256 * KIB,
  fileBytes: 10 * MIB,
  /** A file upload must not be empty. */
  fileMinBytes: 1,
  jsonBodySendSeconds: 15,
  fileSendSeconds: 120,

  activeReports: 5,
  titleChars: 180,
  assetChars: 1000,
  /** Whitespace counts. */
  descriptionChars: 30000,
  cvssVectorChars: 100,
  reportsPage: { min: 1, max: 100, default: 50 },
  programsPage: { min: 1, max: 50, default: 12 },
  draftFiles: 10,
  pendingMessageFiles: 10,
  reportFilesTotal: 40,
  fileNameChars: { min: 1, max: 180 },
  messageBodyChars: 12000,
  filesPerMessage: 10,
  apiKeysPerAccount: 100,
  keyNameChars: { min: 1, max: 80 },
  expiresInDays: { min: 1, max: 365, default: 90 },
  programIdPattern: '^[a-z0-9-]{1,80}$',
  emailChars: 254,
  /** Characters after `<KEY_PREFIX>_` in an API key. */
  apiKeySecretChars: 43,
  /** Length of an API key's `hint`. */
  apiKeyHintChars: 8,
  /** Website sign-up password length (part 1). */
  passwordChars: { min: 12, max: 256 },
} as const;

// ---- error codes (part 7) ---------------------------------------------------------------------

/** code → HTTP status → meaning, as listed in part 7. `invalid_state` has two statuses. */
export const ERROR_CODES = {
  unauthenticated: { 401: 'token missing, invalid, expired or revoked' },
  email_unverified: { 403: 'verify e-mail first' },
  read_only_key: { 403: 'read key used a non-GET method' },
  session_required: { 403: 'website sign-in needed' },
  forbidden: { 403: 'team-only route' },
  payments_not_ready: { 403: 'payout account not ready' },
  not_found: { 404: "program or report does not exist or is not the caller's" },
  invalid_state: {
    405: 'method not permitted on this path',
    409: 'action not permitted in the current status',
  },
  request_timeout: { 408: 'body took too long to send' },
  revision_conflict: { 409: 'stored revision differs; body has `current`' },
  program_closed: { 409: 'program does not accept reports' },
  pool_low: { 409: 'program paused new reports because its reward pool is low' },
  active_limit: { 409: 'five active reports already' },
  file_limit: { 409: 'report has the maximum number of files' },
  file_busy: { 409: 'operation on the file in progress' },
  file_conflict: { 409: 'file id exists with different content' },
  file_referenced: { 409: 'Markdown links to the file must be removed first' },
  files_pending: { 409: 'an upload is unfinished' },
  file_not_ready: { 409: 'message file is not uploaded and ready' },
  key_limit: { 409: '100 keys already' },
  onboarding_in_progress: {
    409: 'onboarding started under a minute ago; `Retry-After` set',
  },
  too_large: { 413: 'body over the limit' },
  incomplete_report: { 422: 'a required field is empty at submission' },
  invalid_filename: { 422: 'folder separator or control character in the name' },
  empty_file: { 422: 'file has no bytes' },
  invalid_file_reference: {
    422: 'link to a file that is not a ready file of this report',
  },
  validation_error: {
    422: 'a field or parameter is invalid; `detail` names it when possible',
  },
  rate_limited: { 429: 'too many requests; `Retry-After` set' },
  internal_error: { 500: 'unexpected error; quote `X-Request-ID` to support' },
  busy: { 503: 'temporary conflict; `Retry-After` set' },
  storage_unavailable: { 503: 'storage failed' },
  storage_unconfigured: { 503: 'file storage not set up' },
  payments_unconfigured: { 503: 'payment provider not set up' },
  payments_unavailable: { 503: 'payment provider did not answer' },
  email_unconfigured: { 503: 'server cannot send e-mail' },
  email_unavailable: { 503: 'e-mail was not sent' },
} as const satisfies Record<string, Partial<Record<number, string>>>;

export type KnownErrorCode = keyof typeof ERROR_CODES;

/** The HTTP statuses part 7 gives for a code (empty for an unknown code). */
export function errorCodeStatuses(code: string): number[] {
  const entry: Partial<Record<number, string>> | undefined = isKnownErrorCode(code)
    ? ERROR_CODES[code]
    : undefined;
  return entry === undefined ? [] : Object.keys(entry).map(Number);
}

export function isKnownErrorCode(code: string): code is KnownErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_CODES, code);
}

export { ResearcherApi, DEFAULT_TIMEOUTS } from './researcher-api';
export type {
  CallOptions,
  ListProgramsParams,
  ListReportsParams,
  ResearcherApiOptions,
  Timeouts,
} from './researcher-api';
export type { DownloadResult, UploadSource } from './file-transfer';
export { createApiClient, type ApiClient, type ApiClientOptions } from './client';
export { RequestBudget, PRIORITIES, DEFAULT_SHARES } from './budget';
export type { BudgetGrant, BudgetOptions, BudgetSnapshot, Priority } from './budget';
export { sendWithRetry, backoff, retryRule, DEFAULT_RETRY_POLICY } from './retry';
export type { RetryNotice, RetryPolicy, RetryRule, SendOptions } from './retry';
export { ApiError, isApiError, parseRetryAfter, CLIENT_CODES } from './errors';
export type { ApiErrorFields, ApiErrorKind } from './errors';
export { Connectivity, type ConnectivityState } from './connectivity';
export { RequestStats, type RequestStatsSnapshot } from './stats';
export { ManualClock, systemClock, sleep, type Clock } from './clock';
export { normalizeServerUrl, InvalidServerUrlError } from '@shared/api/server-url';

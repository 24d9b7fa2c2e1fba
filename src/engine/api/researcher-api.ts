import type {
  AssetType,
  Intake,
  Me,
  MessageInput,
  MessageList,
  PaymentsStatus,
  Program,
  ProgramPage,
  Report,
  ReportInput,
  ReportPage,
  RewardBand,
  UpdatedFilter,
  VerificationEmailResult,
} from '@shared/api';
import { RequestBudget, type Priority } from './budget';
import { createApiClient, type ApiClient, type FetchOutcome } from './client';
import { systemClock, type Clock } from './clock';
import { Connectivity } from './connectivity';
import { ApiError, apiErrorFromResponse, apiErrorFromThrown } from './errors';
import {
  receiveDownload,
  sendUpload,
  type DownloadResult,
  type UploadSource,
} from './file-transfer';
import { sendWithRetry, type RetryNotice, type RetryPolicy } from './retry';
import { normalizeServerUrl } from '@shared/api/server-url';
import { RequestStats } from './stats';

export interface CallOptions {
  priority: Priority;
  /** Overrides the route's own answer to "is sending this twice harmless?". */
  idempotent?: boolean;
  signal?: AbortSignal;
}

export interface Timeouts {
  /** One JSON request and its answer. */
  jsonMs: number;
  /** One upload; the server allows 120 s to send a file. */
  uploadMs: number;
  /** One download, body included. */
  downloadMs: number;
}

export const DEFAULT_TIMEOUTS: Readonly<Timeouts> = {
  jsonMs: 30_000,
  uploadMs: 150_000,
  downloadMs: 300_000,
};

export interface ResearcherApiOptions {
  serverUrl: string;
  /** Loaded by the caller from the SecretStore; null allows the public program routes only. */
  apiKey: string | null;
  /** The account's shared budget; one is made when omitted. */
  budget?: RequestBudget;
  clock?: Clock;
  retry?: Partial<RetryPolicy>;
  connectivity?: Connectivity;
  timeouts?: Partial<Timeouts>;
  fetch?: (input: Request) => Promise<Response>;
  onRetry?: (notice: RetryNotice & { operation: string }) => void;
}

/** The query parameters of `GET /api/programs` (part 4), as the client takes them. */
export interface ListProgramsParams {
  asset?: AssetType[];
  reward?: RewardBand[];
  updated?: UpdatedFilter;
  intake?: Intake[];
  limit?: number;
  page?: number;
}

/** The query parameters of `GET /api/reports` (parts 4 and 6), as the client takes them. */
export interface ListReportsParams {
  limit?: number;
  cursor?: string;
  /** ISO time in the `Z` form; URL-encoded by the client. */
  updatedSince?: string;
}

/**
 * The researcher API of one account: typed calls that go through the account's budget and the
 * retry rules, return the data or throw ApiError. Create one per account and keep it.
 */
export class ResearcherApi {
  readonly serverUrl: string;
  readonly budget: RequestBudget;
  readonly connectivity: Connectivity;
  readonly stats = new RequestStats();
  readonly #client: ApiClient;
  readonly #clock: Clock;
  readonly #retry: Partial<RetryPolicy>;
  readonly #timeouts: Timeouts;
  readonly #onRetry: ResearcherApiOptions['onRetry'];
  /** Only to scrub it from error texts; never logged. */
  readonly #apiKey: string | null;

  constructor(options: ResearcherApiOptions) {
    this.serverUrl = normalizeServerUrl(options.serverUrl);
    this.#clock = options.clock ?? systemClock;
    this.budget = options.budget ?? new RequestBudget({ clock: this.#clock });
    this.connectivity = options.connectivity ?? new Connectivity();
    this.#retry = options.retry ?? {};
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.#onRetry = options.onRetry;
    this.#apiKey = options.apiKey;
    this.#client = createApiClient({
      serverUrl: this.serverUrl,
      apiKey: options.apiKey,
      stats: this.stats,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  toString(): string {
    return `ResearcherApi(${this.serverUrl})`;
  }

  // ---- programs (public; a key adds invited private programs) --------------------------------

  listPrograms(query: ListProgramsParams, options: CallOptions): Promise<ProgramPage> {
    return this.#json('listPrograms', true, options, (signal) =>
      this.#client.GET('/api/programs', { params: { query }, signal }),
    );
  }

  getProgram(programId: string, options: CallOptions): Promise<Program> {
    return this.#json('getProgram', true, options, (signal) =>
      this.#client.GET('/api/programs/{program_id}', {
        params: { path: { program_id: programId } },
        signal,
      }),
    );
  }

  // ---- reports -------------------------------------------------------------------------------

  listReports(query: ListReportsParams, options: CallOptions): Promise<ReportPage> {
    const { limit, cursor, updatedSince } = query;
    const params = {
      query: {
        ...(limit !== undefined ? { limit } : {}),
        ...(cursor !== undefined ? { cursor } : {}),
        ...(updatedSince !== undefined ? { updated_since: updatedSince } : {}),
      },
    };
    return this.#json('listReports', true, options, (signal) =>
      this.#client.GET('/api/reports', { params, signal }),
    );
  }

  getReport(reportId: string, options: CallOptions): Promise<Report> {
    return this.#json('getReport', true, options, (signal) =>
      this.#client.GET('/api/reports/{report_id}', {
        params: { path: { report_id: reportId } },
        signal,
      }),
    );
  }

  /** Creates (revision 0, new id) or saves a draft. A repeat with the same id is safe. */
  saveReport(reportId: string, input: ReportInput, options: CallOptions): Promise<Report> {
    return this.#json('saveReport', true, options, (signal) =>
      this.#client.PUT('/api/reports/{report_id}', {
        params: { path: { report_id: reportId } },
        body: input,
        signal,
      }),
    );
  }

  /** Submitting again with the same revision is safe (part 4). */
  submitReport(reportId: string, revision: number, options: CallOptions): Promise<Report> {
    return this.#json('submitReport', true, options, (signal) =>
      this.#client.POST('/api/reports/{report_id}/submit', {
        params: { path: { report_id: reportId } },
        body: { revision },
        signal,
      }),
    );
  }

  /** Repeating is safe (part 4). */
  withdrawReport(reportId: string, options: CallOptions): Promise<Report> {
    return this.#json('withdrawReport', true, options, (signal) =>
      this.#client.POST('/api/reports/{report_id}/withdraw', {
        params: { path: { report_id: reportId } },
        signal,
      }),
    );
  }

  // ---- files ---------------------------------------------------------------------------------

  /** Streams a file from disk. The same id, bytes, name and type make a safe repeat. */
  uploadFile(
    reportId: string,
    fileId: string,
    source: UploadSource,
    options: CallOptions,
  ): Promise<Report> {
    const call = (signal: AbortSignal): Promise<FetchOutcome<Report>> =>
      sendUpload(this.#client, reportId, fileId, source, signal);
    return this.#send('uploadFile', true, this.#timeouts.uploadMs, options, call);
  }

  /** Streams a ready file to `destination`, written under a temporary name and renamed when complete. */
  downloadFile(
    reportId: string,
    fileId: string,
    destination: string,
    options: CallOptions,
  ): Promise<DownloadResult> {
    const call = (signal: AbortSignal): Promise<FetchOutcome<DownloadResult>> =>
      receiveDownload(this.#client, reportId, fileId, destination, signal);
    return this.#send('downloadFile', true, this.#timeouts.downloadMs, options, call);
  }

  /** Removes a draft file or an unsent message file. */
  deleteFile(
    reportId: string,
    fileId: string,
    revision: number,
    options: CallOptions,
  ): Promise<Report> {
    return this.#json('deleteFile', true, options, (signal) =>
      this.#client.DELETE('/api/reports/{report_id}/files/{file_id}', {
        params: { path: { report_id: reportId, file_id: fileId }, query: { revision } },
        signal,
      }),
    );
  }

  // ---- messages ------------------------------------------------------------------------------

  listMessages(reportId: string, options: CallOptions): Promise<MessageList> {
    return this.#json('listMessages', true, options, (signal) =>
      this.#client.GET('/api/reports/{report_id}/messages', {
        params: { path: { report_id: reportId } },
        signal,
      }),
    );
  }

  /**
   * Not idempotent: every call adds a message. After a network failure it is not resent; the
   * caller reads the thread to learn whether it arrived.
   */
  postMessage(reportId: string, input: MessageInput, options: CallOptions): Promise<Report> {
    return this.#json('postMessage', false, options, (signal) =>
      this.#client.POST('/api/reports/{report_id}/messages', {
        params: { path: { report_id: reportId } },
        body: input,
        signal,
      }),
    );
  }

  // ---- account -------------------------------------------------------------------------------

  getMe(options: CallOptions): Promise<Me> {
    return this.#json('getMe', true, options, (signal) => this.#client.GET('/api/me', { signal }));
  }

  /** A fresh status from the payment provider. */
  getPaymentsStatus(options: CallOptions): Promise<PaymentsStatus> {
    return this.#json('getPaymentsStatus', true, options, (signal) =>
      this.#client.GET('/api/payments/status', { signal }),
    );
  }

  /** Each call may send an e-mail (at most one a minute), so it is not resent blindly. */
  sendVerificationEmail(options: CallOptions): Promise<VerificationEmailResult> {
    return this.#json('sendVerificationEmail', false, options, (signal) =>
      this.#client.POST('/api/auth/verification-email', { signal }),
    );
  }

  // ---- the one path every call takes ---------------------------------------------------------

  #json<T>(
    operation: string,
    idempotent: boolean,
    options: CallOptions,
    call: (signal: AbortSignal) => Promise<FetchOutcome<T>>,
  ): Promise<T> {
    return this.#send(operation, idempotent, this.#timeouts.jsonMs, options, call);
  }

  #send<T>(
    operation: string,
    idempotent: boolean,
    timeoutMs: number,
    options: CallOptions,
    call: (signal: AbortSignal) => Promise<FetchOutcome<T>>,
  ): Promise<T> {
    const attempt = async (): Promise<T> => {
      // Request timeouts are about real sockets, so they use real time even under a test clock.
      const timeout = attemptSignal(timeoutMs, options.signal);
      try {
        const outcome = await call(timeout.signal);
        if (!outcome.response.ok) {
          throw apiErrorFromResponse(outcome.response, outcome.error, {
            now: this.#clock.now(),
            secret: this.#apiKey,
          });
        }
        return outcome.data as T;
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw apiErrorFromThrown(error, {
          timedOut: timeout.timedOut(),
          aborted: options.signal?.aborted ?? false,
          secret: this.#apiKey,
        });
      } finally {
        timeout.release();
      }
    };
    return sendWithRetry(attempt, {
      priority: options.priority,
      idempotent: options.idempotent ?? idempotent,
      budget: this.budget,
      clock: this.#clock,
      policy: this.#retry,
      // The outbox keeps its writes in a durable queue that retries by the same rules, across
      // restarts: resending inside one of its attempts would only double the waits.
      resend: options.priority !== 'outbox',
      connectivity: this.connectivity,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(this.#onRetry
        ? { onRetry: (notice: RetryNotice) => this.#onRetry?.({ ...notice, operation }) }
        : {}),
    });
  }
}

/**
 * One attempt's signal: aborted after `timeoutMs` or with `outer`. Its timer and its listener on
 * `outer` go when the attempt ends (`release`): `AbortSignal.timeout` and `AbortSignal.any` kept
 * both, and the signals they tie together, until the timeout fired or a finalizer ran, which a
 * mirror of thousands of requests a minute paid in memory (the engine peaked above 330 MB).
 */
function attemptSignal(
  timeoutMs: number,
  outer: AbortSignal | undefined,
): { signal: AbortSignal; timedOut(): boolean; release(): void } {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, timeoutMs);
  // As AbortSignal.timeout's: a request under way does not keep the process alive by itself.
  timer.unref();
  const onAbort = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    release: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

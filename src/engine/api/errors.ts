import type { Report } from '@shared/api';
import { redactKeys } from '@shared/api/redact';

export type ApiErrorKind = 'http' | 'network' | 'timeout';

/** Codes made up by the client for failures that carry no server body. */
export const CLIENT_CODES = {
  network: 'network_error',
  timeout: 'timeout',
  aborted: 'aborted',
  invalidResponse: 'invalid_response',
} as const;

export interface ApiErrorFields {
  /** HTTP status; 0 when no response arrived. */
  status: number;
  /** The server's `code`, or a client code for failures without a body. Decide on this. */
  code: string;
  /** For a person; never contains the API key. */
  detail: string;
  /** The stored report, on `409 revision_conflict`. */
  current?: Report;
  /** The `X-Request-ID` of the response, to quote to support. */
  requestId?: string;
  /** How long the server asked to wait (429, 503, onboarding_in_progress), already clamped. */
  retryAfterMs?: number;
  kind: ApiErrorKind;
}

/** Every failure of a researcher API call, as one typed value. */
export class ApiError extends Error implements ApiErrorFields {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly current?: Report;
  readonly requestId?: string;
  readonly retryAfterMs?: number;
  readonly kind: ApiErrorKind;

  constructor(fields: ApiErrorFields) {
    const where = fields.kind === 'http' ? `${fields.status} ${fields.code}` : fields.code;
    const request = fields.requestId ? ` [request ${fields.requestId}]` : '';
    super(`${where}: ${fields.detail}${request}`);
    this.status = fields.status;
    this.code = fields.code;
    this.detail = fields.detail;
    this.kind = fields.kind;
    if (fields.current !== undefined) this.current = fields.current;
    if (fields.requestId !== undefined) this.requestId = fields.requestId;
    if (fields.retryAfterMs !== undefined) this.retryAfterMs = fields.retryAfterMs;
  }

  /** The plain fields, e.g. to send over IPC. */
  toJSON(): ApiErrorFields {
    const { status, code, detail, current, requestId, retryAfterMs, kind } = this;
    return { status, code, detail, current, requestId, retryAfterMs, kind };
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

// ---- Retry-After ------------------------------------------------------------------------------

export interface RetryAfterOptions {
  /** The response's `Date` header: an HTTP date is measured against the server's own clock. */
  responseDate?: string | null;
  /** Local time, used when the response has no usable `Date`. */
  now: number;
  minMs?: number;
  maxMs?: number;
}

export const RETRY_AFTER_MIN_MS = 1_000;
export const RETRY_AFTER_MAX_MS = 60 * 60_000;

/**
 * `Retry-After` as milliseconds to wait: delta-seconds or an HTTP date, clamped so a bad value can
 * neither hammer the server nor stall the app for a day. Undefined when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  options: RetryAfterOptions,
): number | undefined {
  const min = options.minMs ?? RETRY_AFTER_MIN_MS;
  const max = options.maxMs ?? RETRY_AFTER_MAX_MS;
  const text = value?.trim();
  if (!text) return undefined;
  let waitMs: number;
  if (/^\d+(\.\d+)?$/.test(text)) {
    waitMs = Number(text) * 1000;
  } else if (/[A-Za-z]{3}/.test(text)) {
    // An HTTP date always names a weekday or month; Date.parse alone would read "-5" as a year.
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    const serverNow = options.responseDate ? Date.parse(options.responseDate) : Number.NaN;
    waitMs = at - (Number.isNaN(serverNow) ? options.now : serverNow);
  } else {
    return undefined;
  }
  return Math.min(max, Math.max(min, Math.ceil(waitMs)));
}

// ---- building errors --------------------------------------------------------------------------

/** Turns a non-2xx response and its (already read) body into an ApiError. */
export function apiErrorFromResponse(
  response: Response,
  body: unknown,
  options: { now: number; secret?: string | null },
): ApiError {
  const fields = readErrorBody(body);
  const requestId = response.headers.get('X-Request-ID') ?? undefined;
  const retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'), {
    responseDate: response.headers.get('Date'),
    now: options.now,
  });
  const fallbackDetail = response.statusText || `HTTP ${response.status}`;
  return new ApiError({
    kind: 'http',
    status: response.status,
    code: fields.code ?? `http_${response.status}`,
    detail: redactKeys(fields.detail ?? fallbackDetail, options.secret),
    ...(fields.current ? { current: fields.current } : {}),
    ...(requestId ? { requestId } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}

/** Turns what fetch threw (or our own timeout) into an ApiError of kind `network` or `timeout`. */
export function apiErrorFromThrown(
  error: unknown,
  options: { timedOut?: boolean; aborted?: boolean; secret?: string | null },
): ApiError {
  if (error instanceof ApiError) return error;
  if (options.timedOut) {
    return unanswered('timeout', CLIENT_CODES.timeout, 'The server did not answer in time.');
  }
  if (error instanceof SyntaxError) {
    // The server answered, but not with the JSON the contract promises: treat it like a bad
    // gateway (an answer, resent a bounded number of times when safe), not like being offline.
    return new ApiError({
      kind: 'http',
      status: 502,
      code: CLIENT_CODES.invalidResponse,
      detail: 'The server answered with something that is not the expected JSON.',
    });
  }
  if (options.aborted) return cancelledError();
  return unanswered(
    'network',
    CLIENT_CODES.network,
    redactKeys(`The server could not be reached (${describeNetworkError(error)}).`, options.secret),
  );
}

/** The failure of a call the caller gave up on. */
export function cancelledError(): ApiError {
  return unanswered('network', CLIENT_CODES.aborted, 'The request was cancelled.');
}

/** A failure with no response (status 0), with a client code. */
function unanswered(kind: 'network' | 'timeout', code: string, detail: string): ApiError {
  return new ApiError({ kind, status: 0, code, detail });
}

/** fetch hides the socket error in `cause`: "fetch failed" alone tells nobody anything. */
function describeNetworkError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    parts.push(typeof code === 'string' ? `${code}: ${current.message}` : current.message);
    current = current.cause;
  }
  return parts.length > 0 ? parts.join(' <- ') : String(error);
}

function readErrorBody(body: unknown): { code?: string; detail?: string; current?: Report } {
  if (typeof body === 'string') {
    const text = body.trim();
    return text ? { detail: text.slice(0, 500) } : {};
  }
  if (!body || typeof body !== 'object') return {};
  const record = body as Record<string, unknown>;
  const out: { code?: string; detail?: string; current?: Report } = {};
  if (typeof record.code === 'string') out.code = record.code;
  if (typeof record.detail === 'string') out.detail = record.detail;
  else if (Array.isArray(record.detail)) out.detail = listDetail(record.detail);
  if (record.current && typeof record.current === 'object') out.current = record.current as Report;
  return out;
}

/** The list form (`[{loc, msg, type}]`) some 422s use, as one readable line. */
function listDetail(items: unknown[]): string {
  return items
    .map((item) => {
      if (!item || typeof item !== 'object') return String(item);
      const { loc, msg } = item as { loc?: unknown; msg?: unknown };
      const where = Array.isArray(loc) ? loc.join('.') : '';
      return where ? `${where}: ${String(msg)}` : String(msg);
    })
    .join('; ');
}

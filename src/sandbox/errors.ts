/**
 * The error body of part 7 of the API document: `{detail, code}` (plus `current` on
 * `revision_conflict`). Handlers throw ApiError; the server turns it into the response.
 */
export interface ApiErrorExtra {
  /** The stored report, added on 409 revision_conflict. */
  current?: unknown;
  /** Seconds, sent as `Retry-After`. */
  retryAfter?: number;
  /** A body that replaces `{detail, code}` (the list-form 422 of the password reset). */
  body?: unknown;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly extra: ApiErrorExtra = {},
  ) {
    super(detail);
  }

  toBody(): unknown {
    if (this.extra.body !== undefined) return this.extra.body;
    const body: Record<string, unknown> = { detail: this.detail, code: this.code };
    if (this.extra.current !== undefined) body.current = this.extra.current;
    return body;
  }
}

export const notFound = (detail = 'Not found.'): ApiError => new ApiError(404, 'not_found', detail);

export const validationError = (detail: string): ApiError =>
  new ApiError(422, 'validation_error', detail);

export const invalidState = (detail: string): ApiError =>
  new ApiError(409, 'invalid_state', detail);

export const rateLimited = (retryAfter: number): ApiError =>
  new ApiError(429, 'rate_limited', 'Too many requests; retry later.', { retryAfter });

/** Raised when the client went away mid-request: nobody is left to answer. */
export class ClientGone extends Error {
  constructor() {
    super('client closed the connection');
  }
}

import type { Priority, RequestBudget } from './budget';
import { sleep, type Clock } from './clock';
import type { Connectivity } from './connectivity';
import { ApiError, CLIENT_CODES, cancelledError } from './errors';

export interface RetryPolicy {
  /** Resends after a network failure or timeout (idempotent calls only). */
  networkRetries: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Resends after a 500 or another 5xx without a rule of its own (idempotent calls only). */
  serverErrorRetries: number;
  /** Resends after 503. */
  unavailableRetries: number;
  /** Wait after a 503 without Retry-After: "about a minute" (part 7). */
  unavailableWaitMs: number;
  /** Resends after 429. */
  rateLimitRetries: number;
  /** Pause after a 429 without Retry-After (the server always sets it, but be safe). */
  rateLimitWaitMs: number;
  /** In [0, 1); injected so the jitter is reproducible in tests. */
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  networkRetries: 4,
  backoffBaseMs: 1_000,
  backoffMaxMs: 30_000,
  serverErrorRetries: 2,
  unavailableRetries: 5,
  unavailableWaitMs: 60_000,
  rateLimitRetries: 10,
  rateLimitWaitMs: 60_000,
  random: Math.random,
};

export interface RetryNotice {
  /** 1 for the first resend. */
  attempt: number;
  delayMs: number;
  error: ApiError;
}

export interface SendOptions {
  priority: Priority;
  /** Whether sending the same request twice is harmless. Decides resends after no answer. */
  idempotent: boolean;
  budget: RequestBudget;
  clock: Clock;
  policy?: Partial<RetryPolicy>;
  connectivity?: Connectivity;
  signal?: AbortSignal;
  onRetry?: (notice: RetryNotice) => void;
  /**
   * False when the caller retries on its own (the outbox's durable queue): the call is sent once.
   * A 429 still holds the whole account's budget for its Retry-After.
   */
  resend?: boolean;
}

type Decision = { resend: false } | { resend: true; waitMs: number; pauseBudget: boolean };

/**
 * The retry rules of part 7 around one call. Each attempt takes a slot of the account's budget
 * (resends count against the limit too). `attempt` performs one request and throws ApiError.
 */
export async function sendWithRetry<T>(
  attempt: () => Promise<T>,
  options: SendOptions,
): Promise<T> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...options.policy };
  const used = { network: 0, server: 0, unavailable: 0, rateLimit: 0 };
  for (let resends = 0; ; resends++) {
    let result: T;
    try {
      result = await options.budget.run(options.priority, attempt, options.signal);
    } catch (thrown) {
      const error = toApiError(thrown, options.signal);
      if (error.kind === 'http') options.connectivity?.reportAnswer();
      else if (error.code !== CLIENT_CODES.aborted) options.connectivity?.reportNoAnswer(error);

      const decision = decide(error, options.idempotent, policy, used);
      if (options.resend === false) {
        if (decision.resend && decision.pauseBudget)
          options.budget.pauseUntil(options.clock.now() + decision.waitMs);
        throw error;
      }
      if (!decision.resend || options.signal?.aborted) throw error;
      options.onRetry?.({ attempt: resends + 1, delayMs: decision.waitMs, error });
      if (decision.pauseBudget) {
        // The whole account is over its limit: hold everyone, not just this call.
        options.budget.pauseUntil(options.clock.now() + decision.waitMs);
      } else {
        await sleep(options.clock, decision.waitMs, options.signal).catch(() => {
          throw error;
        });
      }
      continue;
    }
    options.connectivity?.reportAnswer();
    return result;
  }
}

function decide(
  error: ApiError,
  idempotent: boolean,
  policy: RetryPolicy,
  used: { network: number; server: number; unavailable: number; rateLimit: number },
): Decision {
  const rule = retryRule(error, policy);
  switch (rule.kind) {
    case 'cancelled':
    case 'refused':
      return { resend: false };
    case 'no-answer':
      // Without an answer nobody knows whether the server acted: only a safe repeat is resent.
      if (!idempotent || used.network >= policy.networkRetries) return { resend: false };
      return { resend: true, waitMs: backoff(used.network++, policy), pauseBudget: false };
    case 'rate-limited':
      if (used.rateLimit++ >= policy.rateLimitRetries) return { resend: false };
      return { resend: true, waitMs: rule.waitMs, pauseBudget: true };
    case 'unavailable':
      if (used.unavailable++ >= policy.unavailableRetries) return { resend: false };
      return { resend: true, waitMs: rule.waitMs, pauseBudget: false };
    case 'server-error':
      if (!idempotent || used.server >= policy.serverErrorRetries) return { resend: false };
      return {
        resend: true,
        waitMs: rule.retryAfterMs ?? backoff(used.server++, policy),
        pauseBudget: false,
      };
  }
}

/**
 * What part 7 of the API document says of one failed call, before anything counts attempts. The
 * API client's resends (`sendWithRetry`) and the outbox's durable queue both start from it.
 */
export type RetryRule =
  /** We gave up on it ourselves: nothing to resend. */
  | { kind: 'cancelled' }
  /** No answer (offline, a timeout, a dropped connection): nobody knows whether the server acted. */
  | { kind: 'no-answer' }
  /** 429: the whole account is over its limit until `Retry-After`. */
  | { kind: 'rate-limited'; waitMs: number }
  /** 503: wait `Retry-After` if set, otherwise about a minute, and resend. */
  | { kind: 'unavailable'; waitMs: number }
  /** Another 5xx: the document gives no rule; a few resends with backoff (`Retry-After` if set). */
  | { kind: 'server-error'; retryAfterMs: number | undefined }
  /** Every 4xx but 429 (409 revision_conflict goes back to be merged): never resent unchanged. */
  | { kind: 'refused' };

export function retryRule(
  error: ApiError,
  waits: Pick<RetryPolicy, 'rateLimitWaitMs' | 'unavailableWaitMs'> = DEFAULT_RETRY_POLICY,
): RetryRule {
  if (error.kind !== 'http') {
    return error.code === CLIENT_CODES.aborted ? { kind: 'cancelled' } : { kind: 'no-answer' };
  }
  if (error.status === 429) {
    return { kind: 'rate-limited', waitMs: error.retryAfterMs ?? waits.rateLimitWaitMs };
  }
  if (error.status === 503) {
    return { kind: 'unavailable', waitMs: error.retryAfterMs ?? waits.unavailableWaitMs };
  }
  if (error.status >= 500) return { kind: 'server-error', retryAfterMs: error.retryAfterMs };
  return { kind: 'refused' };
}

/** Exponential backoff with jitter: between half and all of base * 2^n, capped. */
export function backoff(
  retryIndex: number,
  policy: Pick<RetryPolicy, 'backoffBaseMs' | 'backoffMaxMs' | 'random'>,
): number {
  const ceiling = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** retryIndex);
  return Math.round(ceiling / 2 + (ceiling / 2) * policy.random());
}

function toApiError(thrown: unknown, signal: AbortSignal | undefined): ApiError {
  if (thrown instanceof ApiError) return thrown;
  // The budget rejects with the signal's reason when the caller gave up while waiting.
  if (signal?.aborted) return cancelledError();
  throw thrown;
}

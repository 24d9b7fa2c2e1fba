import { describe, expect, it } from 'vitest';
import { RequestBudget } from '../../src/engine/api/budget';
import { ManualClock } from '../../src/engine/api/clock';
import { Connectivity } from '../../src/engine/api/connectivity';
import { ApiError } from '../../src/engine/api/errors';
import {
  backoff,
  sendWithRetry,
  type RetryNotice,
  type SendOptions,
} from '../../src/engine/api/retry';

function httpError(status: number, code: string, retryAfterMs?: number): ApiError {
  return new ApiError({
    kind: 'http',
    status,
    code,
    detail: code,
    ...(retryAfterMs ? { retryAfterMs } : {}),
  });
}
const networkError = () =>
  new ApiError({ kind: 'network', status: 0, code: 'network_error', detail: 'ECONNRESET' });
const timeoutError = () =>
  new ApiError({ kind: 'timeout', status: 0, code: 'timeout', detail: 'slow' });

/** An attempt function that plays a script of outcomes, one per call, and counts the calls. */
function scripted<T>(outcomes: (ApiError | T)[]) {
  const state = { calls: 0 };
  const attempt = async (): Promise<T> => {
    const outcome = outcomes[state.calls++];
    if (outcome instanceof ApiError) throw outcome;
    return outcome as T;
  };
  return { attempt, state };
}

function setup(overrides: Partial<SendOptions> = {}) {
  const clock = new ManualClock();
  const budget = new RequestBudget({ clock });
  const connectivity = new Connectivity();
  const notices: RetryNotice[] = [];
  const events: string[] = [];
  connectivity.on('online', () => events.push('online'));
  connectivity.on('offline', () => events.push('offline'));
  const options: SendOptions = {
    priority: 'user',
    idempotent: true,
    budget,
    clock,
    connectivity,
    policy: { random: () => 0.5 },
    onRetry: (n) => notices.push(n),
    ...overrides,
  };
  return { clock, budget, connectivity, notices, events, options };
}

/** Lets `promise` run while the manual clock moves, and returns its settled value. */
async function settle<T>(clock: ManualClock, promise: Promise<T>, ms: number) {
  const result = promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error: error as ApiError }),
  );
  await clock.advance(ms);
  return result;
}

describe('sendWithRetry', () => {
  it('waits Retry-After after a 429 with the whole budget paused, then resends', async () => {
    const { clock, budget, notices, options } = setup();
    const { attempt, state } = scripted([httpError(429, 'rate_limited', 5_000), 'ok']);
    const call = sendWithRetry(attempt, options);
    await clock.advance(0);
    expect(state.calls).toBe(1);
    expect(budget.snapshot().pausedUntil).toBe(clock.now() + 5_000);
    // Other work of the account waits too.
    let pollGranted = false;
    void budget.run('poll', async () => (pollGranted = true));
    await clock.advance(4_999);
    expect([state.calls, pollGranted]).toEqual([1, false]);
    const result = await settle(clock, call, 1);
    expect(result).toEqual({ ok: true, value: 'ok' });
    expect(pollGranted).toBe(true);
    expect(notices).toMatchObject([
      { attempt: 1, delayMs: 5_000, error: { code: 'rate_limited' } },
    ]);
  });

  it('waits Retry-After after a 503, or the configured default without one, even for a message post', async () => {
    const { clock, options } = setup({
      idempotent: false,
      policy: { unavailableWaitMs: 50_000, random: () => 0 },
    });
    const { attempt, state } = scripted([
      httpError(503, 'busy', 2_000),
      httpError(503, 'storage_unavailable'),
      'ok',
    ]);
    const call = sendWithRetry(attempt, options);
    await clock.advance(1_999);
    expect(state.calls).toBe(1);
    await clock.advance(1);
    expect(state.calls).toBe(2);
    await clock.advance(49_999);
    expect(state.calls).toBe(2);
    expect(await settle(clock, call, 1)).toEqual({ ok: true, value: 'ok' });
  });

  it('gives up on 503 after the configured number of resends', async () => {
    const { clock, options } = setup({ policy: { unavailableRetries: 2 } });
    const { attempt, state } = scripted([1, 2, 3].map(() => httpError(503, 'busy', 1_000)));
    const result = await settle(clock, sendWithRetry(attempt, options), 10_000);
    expect(result).toMatchObject({ ok: false, error: { status: 503 } });
    expect(state.calls).toBe(3);
  });

  it('returns a revision conflict and other 4xx to the caller at once', async () => {
    for (const error of [
      httpError(409, 'revision_conflict'),
      httpError(403, 'read_only_key'),
      httpError(422, 'validation_error'),
      httpError(408, 'request_timeout'),
    ]) {
      const { clock, notices, options } = setup();
      const { attempt, state } = scripted([error, 'never']);
      const result = await settle(clock, sendWithRetry(attempt, options), 600_000);
      expect(result).toMatchObject({ ok: false, error: { code: error.code } });
      expect([state.calls, notices.length]).toEqual([1, 0]);
    }
  });

  it('resends an idempotent call after network failures and timeouts with growing, jittered waits', async () => {
    const { clock, notices, events, options } = setup({
      policy: { backoffBaseMs: 1_000, random: () => 0.5 },
    });
    const { attempt, state } = scripted([networkError(), timeoutError(), networkError(), 'ok']);
    const result = await settle(clock, sendWithRetry(attempt, options), 60_000);
    expect(result).toEqual({ ok: true, value: 'ok' });
    expect(state.calls).toBe(4);
    expect(notices.map((n) => n.delayMs)).toEqual([750, 1_500, 3_000]);
    expect(events).toEqual(['offline', 'online']);
  });

  it('reports a network failure of a non-idempotent call without resending it', async () => {
    const { clock, events, options } = setup({ idempotent: false });
    const { attempt, state } = scripted([networkError(), 'never']);
    const result = await settle(clock, sendWithRetry(attempt, options), 600_000);
    expect(result).toMatchObject({ ok: false, error: { kind: 'network' } });
    expect(state.calls).toBe(1);
    expect(events).toEqual(['offline']);
  });

  it('stops resending after the configured number of network failures', async () => {
    const { clock, options } = setup({ policy: { networkRetries: 2 } });
    const { attempt, state } = scripted([networkError(), networkError(), networkError(), 'never']);
    const result = await settle(clock, sendWithRetry(attempt, options), 600_000);
    expect(result).toMatchObject({ ok: false, error: { code: 'network_error' } });
    expect(state.calls).toBe(3);
  });

  it('retries a 500 a bounded number of times, and only when idempotent', async () => {
    const idempotent = setup({ policy: { serverErrorRetries: 2 } });
    const first = scripted([500, 500, 500, 500].map(() => httpError(500, 'internal_error')));
    const result = await settle(
      idempotent.clock,
      sendWithRetry(first.attempt, idempotent.options),
      600_000,
    );
    expect(result).toMatchObject({ ok: false, error: { status: 500 } });
    expect(first.state.calls).toBe(3);

    const once = setup({ idempotent: false });
    const second = scripted([httpError(500, 'internal_error'), 'never']);
    await settle(once.clock, sendWithRetry(second.attempt, once.options), 600_000);
    expect(second.state.calls).toBe(1);
  });

  it('takes a budget slot for every attempt, resends included', async () => {
    const { clock, budget, options } = setup();
    const { attempt } = scripted([networkError(), httpError(503, 'busy', 1_000), 'ok']);
    await settle(clock, sendWithRetry(attempt, options), 10_000);
    expect(budget.snapshot()).toMatchObject({ used: 3, inFlight: 0, granted: { user: 3 } });
  });

  it('stops waiting when the caller cancels', async () => {
    const controller = new AbortController();
    const { clock, options } = setup({ signal: controller.signal });
    const { attempt, state } = scripted([httpError(503, 'busy', 30_000), 'never']);
    const call = settle(clock, sendWithRetry(attempt, options), 1_000);
    await clock.advance(0);
    controller.abort();
    expect(await call).toMatchObject({ ok: false, error: { code: 'busy' } });
    expect(state.calls).toBe(1);
  });

  it('counts an error answer as online: only silence means offline', async () => {
    const { clock, connectivity, events, options } = setup({ idempotent: false });
    await settle(clock, sendWithRetry(scripted([networkError()]).attempt, options), 0);
    await settle(clock, sendWithRetry(scripted([httpError(404, 'not_found')]).attempt, options), 0);
    expect(events).toEqual(['offline', 'online']);
    expect(connectivity.state).toBe('online');
  });
});

describe('backoff', () => {
  it('sends once for a caller that retries on its own; a 429 still holds the whole budget', async () => {
    for (const error of [
      networkError(),
      httpError(500, 'internal_error'),
      httpError(503, 'busy', 1_000),
    ]) {
      const { options } = setup({ resend: false });
      const { attempt, state } = scripted([error, 'ok']);
      await expect(sendWithRetry(attempt, options)).rejects.toBe(error);
      expect(state.calls).toBe(1);
    }
    const { clock, budget, options } = setup({ resend: false });
    const { attempt, state } = scripted([httpError(429, 'rate_limited', 5_000), 'ok']);
    await expect(sendWithRetry(attempt, options)).rejects.toMatchObject({ code: 'rate_limited' });
    expect(state.calls).toBe(1);
    expect(budget.snapshot().pausedUntil).toBe(clock.now() + 5_000);
  });

  it('doubles up to the cap and spreads between half and all of it', () => {
    const policy = { backoffBaseMs: 1_000, backoffMaxMs: 8_000 };
    expect(
      [0, 1, 2, 3, 4, 5].map((n) => backoff(n, { ...policy, random: () => 0.999999 })),
    ).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    expect(backoff(2, { ...policy, random: () => 0 })).toBe(2_000);
  });
});

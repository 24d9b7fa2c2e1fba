import { backoff, DEFAULT_RETRY_POLICY, isApiError, retryRule, type RetryPolicy } from '../api';
import { storageProblem, type OutboxEntry, type OutboxKind, type Store } from '../store';
import type { OutboxContext, Outcome } from './context';
import { ENGINE_CODES } from '@shared/errors/error-data';
import { HANDLERS } from './handlers';
import { releaseAbandonedMessageFiles } from './message-files';
import { forgetIdleSentSaves } from './reconcile';

export interface OutboxWorkerOptions {
  /** Reports worked on at once; each report's entries always run one at a time, in order. */
  concurrency?: number;
  /**
   * Server errors (a 5xx other than 503, an upload the server has not finished) an entry may meet
   * before it waits for the user. 429, 503 and lost connections never use this up: the API says
   * to resend those, and a busy or flaky line must not make a reply give up.
   */
  maxTransientAttempts?: number;
  /**
   * How long a file may stay busy on the server before the entry waits for the user. An upload
   * whose client vanished (a crash, a lost connection) holds its file `uploading` until the
   * server gives up on the body: part 8 allows 120 s to send a file.
   */
  busyWindowMs?: number;
  /** How often the worker looks for entries whose retry time has come. */
  idlePollMs?: number;
  /** Backoff of entries that got no answer (the same policy as the API client's). */
  retry?: Partial<RetryPolicy>;
  /** The longest pause after an attempt that could not be recorded (a full disk). */
  maxPauseMs?: number;
}

/**
 * Sends the durable queue of user writes. Entries of one report run strictly in order; a parked
 * entry holds only its own report. A crash at any point leaves entries `in_flight`, and `start`
 * turns them back to `pending`: every kind is safe to repeat, except messages, whose handler reads
 * the thread before sending again.
 */
export class OutboxWorker {
  readonly #ctx: OutboxContext;
  readonly #concurrency: number;
  readonly #maxTransient: number;
  readonly #busyWindowMs: number;
  /** Entry id → when its current run of `file_busy` answers began (this process only). */
  readonly #busySince = new Map<number, number>();
  readonly #idlePollMs: number;
  readonly #retry: RetryPolicy;
  readonly #running = new Map<string, Promise<void>>();
  readonly #abort = new AbortController();
  #wake: (() => void) | null = null;
  #loop: Promise<void> | null = null;
  /**
   * Entries whose attempt failed outside the API's answer (the disk refused a write): they stay
   * in flight in the file until a write succeeds again. Until then the worker sends nothing.
   */
  readonly #stranded = new Set<number>();
  #pausedUntil = 0;
  #pauses = 0;
  readonly #maxPauseMs: number;

  constructor(ctx: OutboxContext, options: OutboxWorkerOptions = {}) {
    this.#ctx = ctx;
    this.#concurrency = options.concurrency ?? 2;
    this.#maxTransient = options.maxTransientAttempts ?? 8;
    this.#busyWindowMs = options.busyWindowMs ?? 150_000;
    this.#idlePollMs = options.idlePollMs ?? 1_000;
    this.#retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.#maxPauseMs = options.maxPauseMs ?? 15_000;
  }

  start(): void {
    if (this.#loop) return;
    const { store } = this.#ctx;
    store.outbox.recoverInFlight();
    tidy(store);
    this.#loop = this.#run();
  }

  /** Something was enqueued or the connection came back: look now. */
  kick(): void {
    this.#wake?.();
  }

  /**
   * The service answers again: writes that waited only because nothing answered (offline, a
   * dropped connection) go now instead of after their backoff, which grew while offline. A
   * command run after the network came back sends them in that run. Waits the service asked for
   * (429's Retry-After, 503) are kept.
   */
  networkBack(): void {
    const { store } = this.#ctx;
    const now = this.#ctx.now();
    try {
      for (const entry of store.outbox.list()) {
        if (entry.state !== 'pending' || entry.nextAttemptAt <= now) continue;
        const status = (entry.lastError as { status?: unknown } | null)?.status;
        if (status === 0) store.outbox.retryLater(entry.id, now, entry.lastError);
      }
    } catch (error) {
      this.#ctx.storage.failed(error);
    }
    this.kick();
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    this.kick();
    await this.#loop;
    await Promise.allSettled([...this.#running.values()]);
  }

  /**
   * Resolves once no entry is pending or in flight. Parked entries do not count, nor do the
   * entries queued behind one (they wait for the user as well).
   */
  async idle(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.#hasWork()) {
      if (Date.now() > deadline) throw new Error('outbox did not drain in time');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  #hasWork(): boolean {
    const held = new Set<string>();
    for (const entry of this.#ctx.store.outbox.list()) {
      if (entry.state === 'parked') held.add(entry.reportId);
      else if (!held.has(entry.reportId)) return true;
    }
    return false;
  }

  async #run(): Promise<void> {
    const signal = this.#abort.signal;
    while (!signal.aborted) {
      const free = this.#concurrency - this.#running.size;
      if (free > 0 && this.#resume()) {
        const ready = this.#ctx.store.outbox
          .nextReady(this.#ctx.now(), this.#concurrency + this.#running.size)
          .filter((entry) => !this.#running.has(entry.reportId))
          .slice(0, free);
        for (const entry of ready) {
          const job = this.#process(entry).finally(() => {
            this.#running.delete(entry.reportId);
            this.kick();
          });
          this.#running.set(entry.reportId, job);
        }
      }
      const sleepMs = this.#untilNextDue();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, sleepMs);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = null;
    }
  }

  /**
   * How long the loop may sleep: until the earliest retry time of a report's first entry that is
   * not running, at most idlePollMs. A fixed poll would add up to a second to every backoff.
   */
  #untilNextDue(): number {
    const paused = this.#pausedUntil - this.#ctx.now();
    if (paused > 0) return paused;
    const seen = new Set<string>();
    let earliest = Infinity;
    for (const entry of this.#ctx.store.outbox.list()) {
      if (seen.has(entry.reportId)) continue;
      seen.add(entry.reportId);
      if (entry.state !== 'pending' || this.#running.has(entry.reportId)) continue;
      earliest = Math.min(earliest, entry.nextAttemptAt);
    }
    return Math.min(this.#idlePollMs, Math.max(0, earliest - this.#ctx.now()));
  }

  /**
   * After a pause: the stranded entries go back to pending, which is itself a write. Until one
   * succeeds nothing is picked, so a full disk costs one small write per pause, never a spin.
   */
  #resume(): boolean {
    if (this.#ctx.now() < this.#pausedUntil) return false;
    try {
      for (const id of [...this.#stranded]) {
        this.#ctx.store.outbox.release(id);
        this.#stranded.delete(id);
      }
      return true;
    } catch (error) {
      this.#pause(error);
      return false;
    }
  }

  /** Waits longer each time (1 s, 2 s, … up to maxPauseMs) until an attempt is recorded again. */
  #pause(error: unknown): void {
    this.#ctx.storage.failed(error);
    const delay = Math.min(this.#maxPauseMs, 1_000 * 2 ** Math.min(this.#pauses, 10));
    this.#pauses++;
    this.#pausedUntil = this.#ctx.now() + delay;
  }

  /**
   * One attempt, whatever happens: a write of the mirror that fails (a full disk, or any error
   * outside the API's answer) pauses the worker instead of letting it pick the same entry again
   * at once. The entry is sent again after the pause; every kind is safe to repeat, and a message
   * reads its thread first.
   */
  async #process(entry: OutboxEntry): Promise<void> {
    try {
      if (await this.#attempt(entry)) {
        this.#pauses = 0;
        this.#ctx.storage.wrote();
      }
    } catch (error) {
      this.#stranded.add(entry.id);
      this.#pause(error);
    }
  }

  /** True when the attempt's outcome was recorded (false: shutting down mid-way). */
  async #attempt(entry: OutboxEntry): Promise<boolean> {
    const { store, events } = this.#ctx;
    store.outbox.markInFlight(entry.id);
    const current = store.outbox.get(entry.id) ?? entry;
    let outcome: Outcome;
    const startedAt = Date.now();
    try {
      const handler = HANDLERS[current.kind] as (
        ctx: OutboxContext,
        e: OutboxEntry<OutboxKind>,
        s: AbortSignal,
      ) => Promise<Outcome>;
      outcome = await handler(this.#ctx, current, this.#abort.signal);
    } catch (error) {
      // The mirror failed under the handler (a damaged page, a full disk): not the change's fault.
      // It stays queued (#process pauses and notes it) instead of being parked as refused.
      if (storageProblem(error)) throw error;
      outcome = this.#classify(error, current);
      outcome = holdUnansweredMessage(outcome, current, Date.now() - startedAt);
    }
    if (this.#abort.signal.aborted && outcome.kind !== 'done') {
      // Shutting down: leave it in flight; the next start makes it pending again.
      return false;
    }
    if (outcome.kind !== 'later') this.#busySince.delete(current.id);
    const serverErrors = serverErrorsOf(current) + (chargesBudget(outcome) ? 1 : 0);
    switch (outcome.kind) {
      case 'done':
        store.db.transaction(() => {
          store.outbox.markDone(current.id);
          // Nothing reads a done entry: a lost answer is reconciled from the server's state and
          // what the entry itself recorded before it was sent (thread mark, sent saves).
          store.outbox.pruneDone(new Date().toISOString());
        });
        break;
      case 'again':
        store.outbox.retryLater(current.id, this.#ctx.now(), null);
        break;
      case 'later':
        store.outbox.retryLater(
          current.id,
          this.#ctx.now() + outcome.delayMs,
          errorRecord(outcome.error, serverErrors),
        );
        break;
      case 'park':
        store.outbox.park(current.id, errorRecord(outcome.error, serverErrors));
        break;
    }
    events.emit('report-changed', { reportId: current.reportId });
    return true;
  }

  /** The retry rules of part 7 as they apply to a queued write. */
  #classify(error: unknown, entry: OutboxEntry): Outcome {
    const busy = isApiError(error) && error.code === 'file_busy';
    if (!busy) this.#busySince.delete(entry.id);
    if (!isApiError(error)) return { kind: 'park', error };
    const transient = serverErrorsOf(entry) + 1 < this.#maxTransient;
    const wait = backoff(Math.min(entry.attempts, 6), this.#retry);
    const rule = retryRule(error, this.#retry);
    if (rule.kind === 'no-answer' || rule.kind === 'cancelled') {
      // No answer: offline, or the request died on the way. Keep it and try again later.
      return { kind: 'later', delayMs: wait, error };
    }
    if (rule.kind === 'rate-limited' || rule.kind === 'unavailable') {
      return { kind: 'later', delayMs: rule.waitMs, error };
    }
    if (busy) {
      // Our own file is still being processed (often our own earlier, vanished attempt): wait at
      // least a second between tries, for as long as the server may keep it busy.
      const since = this.#busySince.get(entry.id) ?? this.#ctx.now();
      this.#busySince.set(entry.id, since);
      if (this.#ctx.now() - since > this.#busyWindowMs) return { kind: 'park', error };
      return { kind: 'later', delayMs: Math.max(wait, 1_000), error };
    }
    if (error.code === 'files_pending' || error.code === 'file_not_ready') {
      // The server is still finishing an upload: a short wait, not the user's problem yet.
      return transient ? { kind: 'later', delayMs: wait, error } : { kind: 'park', error };
    }
    if (rule.kind === 'server-error') {
      // The outbox keeps its own backoff: its entries wait durably, not in one call.
      return transient ? { kind: 'later', delayMs: wait, error } : { kind: 'park', error };
    }
    // Other 4xx: resending it unchanged would fail the same way.
    return { kind: 'park', error };
  }
}

/**
 * At start: done entries (an older version kept them) go; so do records of unanswered saves no
 * open entry needs, and message files no open message will send (an older version left some
 * behind for replies it refused).
 */
function tidy(store: Store): void {
  store.outbox.pruneDone(new Date().toISOString());
  forgetIdleSentSaves(store);
  releaseAbandonedMessageFiles(store);
}

/**
 * A message post that got no answer (timeout, dropped connection) may still be carried out by the
 * server after we gave up: a request that sat in a slow server for as long as we waited can be
 * processed right after. The next attempt reads the thread before sending again, so it waits at
 * least as long as the lost attempt took, to read a thread the late request has reached.
 */
function holdUnansweredMessage(outcome: Outcome, entry: OutboxEntry, elapsedMs: number): Outcome {
  if (entry.kind !== 'post_message' || outcome.kind !== 'later') return outcome;
  if (!isApiError(outcome.error) || outcome.error.kind === 'http') return outcome;
  return { ...outcome, delayMs: Math.max(outcome.delayMs, elapsedMs) };
}

/** A server error or an unfinished upload: what the retry budget of an entry counts. */
function chargesBudget(outcome: Outcome): boolean {
  if (outcome.kind !== 'later' && outcome.kind !== 'park') return false;
  const { error } = outcome;
  if (!isApiError(error) || error.kind !== 'http') return false;
  if (error.code === 'files_pending' || error.code === 'file_not_ready') return true;
  return retryRule(error).kind === 'server-error';
}

/** The server errors an entry met so far: kept in its last error, which survives a restart. */
function serverErrorsOf(entry: OutboxEntry): number {
  const record = entry.lastError as { serverErrors?: unknown } | null;
  return typeof record?.serverErrors === 'number' ? record.serverErrors : 0;
}

/** What the UI may show: status, code, detail, request id. Never a token or a stack. */
function errorRecord(error: unknown, serverErrors = 0): unknown {
  if (isApiError(error)) {
    const { status, code, detail, requestId } = error;
    return {
      status,
      code,
      detail,
      ...(requestId ? { requestId } : {}),
      ...(serverErrors > 0 ? { serverErrors } : {}),
    };
  }
  if (error && typeof error === 'object' && 'code' in error && !isRefusal(error)) return error;
  return {
    status: 0,
    code: 'client_error',
    detail: error instanceof Error ? error.message : String(error),
  };
}

/**
 * The app's own refusals (a wrong input, signed out, a read-only key, no keychain…) carry a code
 * for the bridge, but here they are failures on this computer: kept as client_error with their
 * sentence, which offers Retry and names the cause.
 */
const REFUSALS: ReadonlySet<string> = new Set([
  ENGINE_CODES.invalidInput,
  ENGINE_CODES.signInFailed,
  ENGINE_CODES.notSignedIn,
  ENGINE_CODES.keychainUnavailable,
  ENGINE_CODES.dataDirBusy,
  ENGINE_CODES.invalidEvidence,
  ENGINE_CODES.frameTooLarge,
  ENGINE_CODES.badCall,
  ENGINE_CODES.engineUnavailable,
  'read_only_key',
]);

function isRefusal(error: object): boolean {
  const { code } = error as { code?: unknown };
  return error instanceof Error && typeof code === 'string' && REFUSALS.has(code);
}

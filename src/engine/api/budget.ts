import { systemClock, type Clock } from './clock';

/** Who is asking, most important first. */
export type Priority = 'user' | 'outbox' | 'poll' | 'prefetch';
export const PRIORITIES: readonly Priority[] = ['user', 'outbox', 'poll', 'prefetch'];

/**
 * Share of the limit each priority may fill on its own. Background work stops short of the
 * server's limit so a click never waits behind a poll: with 120/min, polling and prefetch may use
 * 100, the outbox 110, and the person all 120. Prefetch shares the poll's ceiling (the poll is
 * still granted first): a lower ceiling would starve it while the first mirror of a large account
 * (prefetch, hours at the limit) keeps the window above it, and the payout and program follow-ups
 * share that priority.
 */
export const DEFAULT_SHARES: Readonly<Record<Priority, number>> = {
  user: 1,
  outbox: 110 / 120,
  poll: 100 / 120,
  prefetch: 100 / 120,
};

export interface BudgetOptions {
  /** Requests per window; the server allows 120 per minute per account. */
  limit?: number;
  windowMs?: number;
  shares?: Partial<Record<Priority, number>>;
  clock?: Clock;
}

export interface BudgetGrant {
  /** Call once the response (or failure) is in; the slot then stays counted for one window. */
  release(): void;
}

export interface BudgetSnapshot {
  /** Slots counted now: requests in flight plus those finished within the window. */
  used: number;
  inFlight: number;
  waiting: Record<Priority, number>;
  granted: Record<Priority, number>;
  pausedUntil: number | null;
}

interface Waiter {
  grant: (grant: BudgetGrant) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * The one request budget of an account, shared by everything the app does. A slot is counted from
 * the moment it is granted until one window after its response arrived: the server counted the
 * request somewhere in between, so freeing it later than that can never overrun the server's
 * window. Waiting requests are granted highest priority first, FIFO within a priority.
 */
export class RequestBudget {
  readonly limit: number;
  readonly windowMs: number;
  readonly #clock: Clock;
  readonly #ceilings: Record<Priority, number>;
  readonly #queues: Record<Priority, Waiter[]> = { user: [], outbox: [], poll: [], prefetch: [] };
  readonly #granted: Record<Priority, number> = { user: 0, outbox: 0, poll: 0, prefetch: 0 };
  /** Release times of finished requests still inside the window, oldest first. */
  #finished: number[] = [];
  #inFlight = 0;
  #pausedUntil = 0;
  #cancelTimer: (() => void) | undefined;

  constructor(options: BudgetOptions = {}) {
    this.limit = options.limit ?? 120;
    this.windowMs = options.windowMs ?? 60_000;
    this.#clock = options.clock ?? systemClock;
    const shares = { ...DEFAULT_SHARES, ...options.shares };
    this.#ceilings = Object.fromEntries(
      PRIORITIES.map((p) => [p, Math.max(1, Math.floor(this.limit * shares[p] + 1e-9))]),
    ) as Record<Priority, number>;
  }

  /** How many slots of the window this priority may fill. */
  ceiling(priority: Priority): number {
    return this.#ceilings[priority];
  }

  /** Waits for a slot. Rejects with the signal's reason if aborted while waiting. */
  acquire(priority: Priority, signal?: AbortSignal): Promise<BudgetGrant> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<BudgetGrant>((grant, reject) => {
      const queue = this.#queues[priority];
      const waiter: Waiter = {
        grant,
        reject,
        signal,
        onAbort: () => {
          const index = queue.indexOf(waiter);
          if (index >= 0) queue.splice(index, 1);
          reject(signal?.reason);
          this.#pump();
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      queue.push(waiter);
      this.#pump();
    });
  }

  /** Runs `task` inside a slot and releases it however the task ends. */
  async run<T>(priority: Priority, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const grant = await this.acquire(priority, signal);
    try {
      return await task();
    } finally {
      grant.release();
    }
  }

  /** Holds every grant until `at` (a 429's Retry-After applies to the whole account). */
  pauseUntil(at: number): void {
    if (at <= this.#pausedUntil) return;
    this.#pausedUntil = at;
    this.#pump();
  }

  snapshot(): BudgetSnapshot {
    this.#forgetExpired();
    const now = this.#clock.now();
    return {
      used: this.#used(),
      inFlight: this.#inFlight,
      waiting: countBy((p) => this.#queues[p].length),
      granted: { ...this.#granted },
      pausedUntil: this.#pausedUntil > now ? this.#pausedUntil : null,
    };
  }

  #used(): number {
    return this.#inFlight + this.#finished.length;
  }

  #forgetExpired(): void {
    const cutoff = this.#clock.now() - this.windowMs;
    let expired = 0;
    while (expired < this.#finished.length && (this.#finished[expired] ?? 0) <= cutoff) expired++;
    if (expired) this.#finished = this.#finished.slice(expired);
  }

  #release(): void {
    this.#inFlight--;
    this.#finished.push(this.#clock.now());
    this.#pump();
  }

  #pump(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
    this.#forgetExpired();
    const now = this.#clock.now();
    if (now < this.#pausedUntil) {
      if (this.#hasWaiters()) this.#wakeAt(this.#pausedUntil);
      return;
    }
    for (const priority of PRIORITIES) {
      const queue = this.#queues[priority];
      while (queue.length > 0 && this.#used() < this.#ceilings[priority]) {
        const waiter = queue.shift() as Waiter;
        waiter.signal?.removeEventListener('abort', waiter.onAbort);
        this.#inFlight++;
        this.#granted[priority]++;
        waiter.grant(this.#newGrant());
      }
    }
    // Slots held by requests in flight come back through release(); finished ones expire by time.
    const oldest = this.#finished[0];
    if (this.#hasWaiters() && oldest !== undefined) this.#wakeAt(oldest + this.windowMs);
  }

  #wakeAt(at: number): void {
    this.#cancelTimer = this.#clock.setTimer(at - this.#clock.now(), () => {
      this.#cancelTimer = undefined;
      this.#pump();
    });
  }

  #hasWaiters(): boolean {
    return PRIORITIES.some((p) => this.#queues[p].length > 0);
  }

  #newGrant(): BudgetGrant {
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#release();
      },
    };
  }
}

function countBy(count: (p: Priority) => number): Record<Priority, number> {
  return {
    user: count('user'),
    outbox: count('outbox'),
    poll: count('poll'),
    prefetch: count('prefetch'),
  };
}

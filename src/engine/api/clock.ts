/** Time as the budget and the retry rules see it: real in the app, driven by hand in tests. */
export interface Clock {
  now(): number;
  /** Calls `callback` after `ms`; the returned function cancels it. */
  setTimer(ms: number, callback: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, callback) {
    const handle = setTimeout(callback, Math.max(0, ms));
    return () => clearTimeout(handle);
  },
};

/** Resolves after `ms` on `clock`; rejects with the signal's reason when aborted first. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      cancel();
      reject(signal?.reason);
    };
    const cancel = clock.setTimer(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A clock that moves only when told to. Timers fire in time order during `advance`, each seeing
 * `now()` equal to its due time, so code under test behaves as it would in real time.
 */
export class ManualClock implements Clock {
  #now: number;
  #timers: { due: number; seq: number; callback: () => void }[] = [];
  #seq = 0;

  constructor(start = Date.UTC(2030, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimer(ms: number, callback: () => void): () => void {
    const timer = { due: this.#now + Math.max(0, ms), seq: this.#seq++, callback };
    this.#timers.push(timer);
    return () => {
      this.#timers = this.#timers.filter((t) => t !== timer);
    };
  }

  /** Number of timers waiting to fire. */
  get pendingTimers(): number {
    return this.#timers.length;
  }

  /** Moves time forward by `ms`, firing due timers and letting promise callbacks run between them. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      await flushMicrotasks();
      const next = this.#timers
        .filter((t) => t.due <= target)
        .sort((a, b) => a.due - b.due || a.seq - b.seq)[0];
      if (!next) break;
      this.#timers = this.#timers.filter((t) => t !== next);
      this.#now = Math.max(this.#now, next.due);
      next.callback();
    }
    this.#now = target;
    await flushMicrotasks();
  }
}

async function flushMicrotasks(): Promise<void> {
  // A macrotask turn lets every chained promise callback settle.
  await new Promise<void>((resolve) => setImmediate(resolve));
}

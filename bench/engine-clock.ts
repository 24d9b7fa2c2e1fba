/**
 * A bench-only Clock that moves the sandbox clock with it, so the engine's request budget can
 * meet the server's real rate limits (120 per minute) without waiting real minutes.
 *
 * Both clocks are real time plus an offset. When the engine waits for a timer (the budget waiting
 * for a slot to leave its window, a retry's back-off), the wait is skipped: the sandbox clock is
 * moved forward first (`POST /__sandbox/clock`), then this clock by the same amount, then the
 * timer fires. The sandbox is therefore never behind the engine, which is the direction that
 * could hide a 429: a budget that thinks more time passed than the server does.
 */
import type { Clock } from '../src/engine/api';

interface Timer {
  due: number;
  callback: () => void;
  cancelled: boolean;
}

export class SandboxLinkedClock implements Clock {
  readonly #sandboxUrl: string;
  #offsetMs = 0;
  #chain: Promise<void> = Promise.resolve();
  /** Clock jumps made and the time they skipped. */
  jumps = 0;
  skippedMs = 0;
  /** A failed clock move (the bench reports it rather than hanging). */
  error: unknown = null;
  #held = false;

  /**
   * While held, no wait is skipped: the clock runs at real pace, as it would for a person
   * watching (the mirror bench times a click this way, so a skip made for the background mirror
   * meanwhile is not counted as the click's time, and a wait of the click itself is real).
   */
  hold(held: boolean): void {
    this.#held = held;
  }

  constructor(sandboxUrl: string) {
    this.#sandboxUrl = sandboxUrl;
  }

  now(): number {
    return Date.now() + this.#offsetMs;
  }

  setTimer(ms: number, callback: () => void): () => void {
    const timer: Timer = { due: this.now() + Math.max(0, ms), callback, cancelled: false };
    // One jump at a time, in the order the timers were set; a cancelled timer costs nothing.
    this.#chain = this.#chain.then(() => this.#fire(timer));
    return () => {
      timer.cancelled = true;
    };
  }

  async #fire(timer: Timer): Promise<void> {
    if (timer.cancelled) return;
    while (this.#held && !timer.cancelled && timer.due > this.now()) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(10, timer.due - this.now())));
    }
    if (timer.cancelled) return;
    const wait = timer.due - this.now();
    if (wait > 0) {
      try {
        const res = await fetch(`${this.#sandboxUrl}/__sandbox/clock`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ advance_seconds: wait / 1000 }),
        });
        if (!res.ok) throw new Error(`POST /__sandbox/clock: ${res.status}`);
        await res.arrayBuffer();
      } catch (error) {
        this.error = error;
        return;
      }
      this.#offsetMs += wait;
      this.jumps++;
      this.skippedMs += wait;
    }
    if (!timer.cancelled) timer.callback();
  }
}

/**
 * Fixed windows on the sandbox clock (part 8 of the API document). A window starts at its first
 * request; every request counts, rejected ones too; over the limit gives `Retry-After` = seconds
 * until the window ends.
 */
import type { SandboxClock } from './clock';
import { HOUR, MINUTE } from './clock';
import { rateLimited } from './errors';

export interface Limit {
  max: number;
  windowMs: number;
}

interface Window {
  start: number;
  count: number;
}

export const LIMITS = {
  account: [{ max: 120, windowMs: MINUTE }],
  failedAuth: [{ max: 120, windowMs: MINUTE }],
  programs: [{ max: 120, windowMs: MINUTE }],
  verificationEmail: [
    { max: 1, windowMs: MINUTE },
    { max: 5, windowMs: HOUR },
  ],
  resetPerIp: [
    { max: 5, windowMs: MINUTE },
    { max: 30, windowMs: HOUR },
  ],
  resetPerAddress: [
    { max: 1, windowMs: MINUTE },
    { max: 5, windowMs: HOUR },
  ],
  onboarding: [{ max: 5, windowMs: MINUTE }],
} satisfies Record<string, Limit[]>;

export type LimitName = keyof typeof LIMITS;

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly clock: SandboxClock,
    private readonly enabled: boolean,
  ) {}

  /** Counts one request under `name`/`key`; throws `429 rate_limited` when over any window. */
  hit(name: LimitName, key: string): void {
    if (!this.enabled) return;
    const now = this.clock.now();
    let retryAfter = 0;
    LIMITS[name].forEach((limit, i) => {
      const id = `${name}:${i}:${key}`;
      let w = this.windows.get(id);
      if (!w || now >= w.start + limit.windowMs) {
        w = { start: now, count: 0 };
        this.windows.set(id, w);
      }
      w.count += 1;
      if (w.count > limit.max) {
        retryAfter = Math.max(retryAfter, Math.ceil((w.start + limit.windowMs - now) / 1000));
      }
    });
    if (retryAfter > 0) throw rateLimited(Math.max(1, retryAfter));
  }

  reset(): void {
    this.windows.clear();
  }
}

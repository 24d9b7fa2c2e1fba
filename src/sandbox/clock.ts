/**
 * The sandbox clock: real time plus an offset that `POST /__sandbox/clock` moves forward. Every
 * timestamp, rate-limit window, key expiry, onboarding minute and agent delay reads it.
 */
export class SandboxClock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  iso(): string {
    return new Date(this.now()).toISOString();
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }

  get offset(): number {
    return this.offsetMs;
  }

  set offset(ms: number) {
    this.offsetMs = ms;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const isoOf = (ms: number): string => new Date(ms).toISOString();

/**
 * The verification e-mail may be sent once a minute and five times an hour (API part 8). Given
 * the times of earlier sends, how long until the next is allowed. Pure.
 */
export const VERIFICATION_LIMITS = [
  { windowMs: 60_000, max: 1 },
  { windowMs: 3_600_000, max: 5 },
] as const;

export function verificationWaitMs(sentAt: readonly number[], now: number): number {
  let wait = 0;
  for (const { windowMs, max } of VERIFICATION_LIMITS) {
    const recent = sentAt.filter((t) => t > now - windowMs && t <= now).sort((a, b) => a - b);
    if (recent.length >= max) {
      // The oldest send that still counts must leave the window first.
      const oldest = recent[recent.length - max] as number;
      wait = Math.max(wait, oldest + windowMs - now);
    }
  }
  return wait;
}

/** Keeps only sends that can still matter (the last hour). */
export function pruneSends(sentAt: readonly number[], now: number): number[] {
  return sentAt.filter((t) => t > now - 3_600_000 && t <= now);
}

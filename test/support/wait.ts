/**
 * Waiting for what another process or a timer does: poll, bounded, and fail naming what never
 * came (with the last value seen), instead of each test's own loop of sleeps.
 */
export interface WaitOptions {
  /** How long before the wait fails (default 10 s). */
  timeoutMs?: number;
  /** How long between two polls (default 100 ms). */
  everyMs?: number;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads `read` until `done` holds for what it returns, and returns that value; past the timeout,
 * throws with `what` and the last value read.
 */
export async function waitFor<T>(
  what: string,
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  { timeoutMs = 10_000, everyMs = 100 }: WaitOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for: ${what} (last seen: ${describe(value)})`);
    await pause(everyMs);
  }
}

/** Waits until `check` holds; past the timeout, throws naming `what`. */
export async function waitUntil(
  what: string,
  check: () => boolean | Promise<boolean>,
  options?: WaitOptions,
): Promise<void> {
  await waitFor(what, check, (held) => held, options);
}

function describe(value: unknown): string {
  try {
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    return String(value);
  }
}

/**
 * When the page, and the researcher, leave time for work nobody asked for yet (code and reads a
 * click will need, the next draft's editor): an idle period, or an idle period once no key, button,
 * wheel or scroll has come for a second.
 */

/** Runs `run` in the page's next idle period, or after `timeoutMs` when it is never idle. */
export function whenIdle(run: () => void, timeoutMs: number): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: timeoutMs });
  else setTimeout(run, 50);
}

/**
 * How long after the last input the researcher counts as quiet: an idle period between two
 * keystrokes is no time for a 10-30 ms task (the bench's keystroke latency went from 14 to
 * 18 ms at p95 while a spare editor was made then).
 */
export const QUIET_MS = 1_000;
const INPUTS = ['keydown', 'pointerdown', 'wheel', 'scroll'] as const;
/** An idle period's deadline, for at most this long when the page is never idle. */
const IDLE_TIMEOUT_MS = 1_000;
let lastInput = Number.NEGATIVE_INFINITY;
// Watched from the page's start, not from the first work asked for: a draft opened straight from
// its address asks while the researcher starts to type. Captured at the window: a scroll of the
// list or the pane does not bubble.
for (const type of INPUTS)
  window.addEventListener(
    type,
    () => {
      lastInput = performance.now();
    },
    { capture: true, passive: true },
  );

/**
 * Runs `run` in an idle period at least QUIET_MS after the last input; the answer cancels it
 * (work for what the page showed then, which has changed).
 */
export function whenQuiet(run: () => void): () => void {
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wait = (): void =>
    whenIdle(() => {
      if (cancelled) return;
      const left = lastInput + QUIET_MS - performance.now();
      if (left > 0) timer = setTimeout(wait, left);
      else run();
    }, IDLE_TIMEOUT_MS);
  wait();
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}

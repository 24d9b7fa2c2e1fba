import { whenIdle } from './quiet';

/**
 * Loads code the next click will need while the page has nothing else to do: each loader (a
 * dynamic `import()` of a lazy screen's chunk) starts in an idle period of its own, the next one
 * only once the previous one is in, so the parse and first run of one chunk at a time share the
 * frames with whatever the user does. A loader that fails is left to the click, which loads (and
 * reports) it as before.
 */
export function prefetchWhenIdle(
  loaders: readonly (() => Promise<unknown>)[],
  idle: (run: () => void) => void = (run) => whenIdle(run, IDLE_TIMEOUT_MS),
): void {
  let next = 0;
  const step = (): void => {
    const load = loaders[next++];
    if (!load) return;
    load().then(
      () => idle(step),
      () => undefined,
    );
  };
  idle(step);
}

/** Long enough after the first paint that the list's first blocks and images are in. */
const IDLE_TIMEOUT_MS = 3_000;

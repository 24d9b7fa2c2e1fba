import { whenQuiet } from './quiet';

/**
 * Loads code the next click will need while the page, and the researcher, have nothing else to
 * do: each loader (a dynamic `import()` of a lazy screen's chunk) starts in an idle period of its
 * own once no key, button, wheel or scroll has come for a second (lib/quiet.ts), the next one only
 * once the previous one is in. A chunk's first run is a task of 15-35 ms in a new renderer: a
 * slow frame of a list being scrolled, so a scroll holds the next one back. A loader that fails
 * is left to the click, which loads (and reports) it as before.
 */
export function prefetchWhenIdle(
  loaders: readonly (() => Promise<unknown>)[],
  idle: (run: () => void) => void = (run) => void whenQuiet(run),
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

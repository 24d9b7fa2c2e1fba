import { useEffect, type DependencyList } from 'react';

/** When a load starts: `start(run)` schedules `run` and returns what cancels it. */
type Start = (run: () => void) => () => void;

const now: Start = (run) => {
  run();
  return () => undefined;
};

/** A hidden window draws no frames: the load starts after this long without one. */
const NO_FRAME_MS = 200;

/** In a task after the next frame: after the paint of what the current render shows. */
const afterPaint: Start = (run) => {
  let started = false;
  const go = (): void => {
    if (started) return;
    started = true;
    run();
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(go, 0);
  });
  const fallback = setTimeout(go, NO_FRAME_MS);
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    clearTimeout(fallback);
  };
};

function useLoadedFrom<T>(
  start: Start,
  load: () => Promise<T>,
  use: (value: T) => void,
  deps: DependencyList,
  onFailure: (error: unknown) => void,
): void {
  useEffect(() => {
    let live = true;
    const cancel = start(() =>
      load().then((value) => {
        if (live) use(value);
      }, onFailure),
    );
    return () => {
      live = false;
      cancel();
    };
    // The caller names what the load depends on, as with useEffect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
}

/**
 * Loads when `deps` change and hands the result to `use`, unless the component has gone or the
 * deps changed meanwhile: a late answer for the previous report or program must not land. A
 * failure goes to `onFailure` (by default nothing: the part stays as it was).
 */
export function useLoaded<T>(
  load: () => Promise<T>,
  use: (value: T) => void,
  deps: DependencyList,
  onFailure: (error: unknown) => void = () => undefined,
): void {
  useLoadedFrom(now, load, use, deps, onFailure);
}

/**
 * As `useLoaded`, for a screen's secondary parts (scope hint, policy notice, secret findings,
 * similar reports): the read starts once the frame that shows the screen is painted. A report
 * opened by a click then paints without main and the engine answering these reads on the same
 * cores; with two cores, their answers had the page's main thread waiting half the open.
 */
export function useLoadedAfterPaint<T>(
  load: () => Promise<T>,
  use: (value: T) => void,
  deps: DependencyList,
  onFailure: (error: unknown) => void = () => undefined,
): void {
  useLoadedFrom(afterPaint, load, use, deps, onFailure);
}

import { useEffect, type DependencyList } from 'react';

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
  useEffect(() => {
    let live = true;
    load().then((value) => {
      if (live) use(value);
    }, onFailure);
    return () => {
      live = false;
    };
    // The caller names what the load depends on, as with useEffect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
}

import { createElement, lazy, type ComponentType, type ReactElement } from 'react';

export interface Preloadable<P extends object> {
  /** Renders the part: at once when its code is in, else suspended until it is (`lazy`). */
  Component: (props: P) => ReactElement;
  /** Loads the part's code ahead of its first render (the idle prefetch). */
  preload(): Promise<unknown>;
}

/**
 * A part of a screen in a chunk of its own that can be loaded ahead. A `React.lazy` suspends the
 * first time it renders even when its chunk is in already, and React shows what follows a
 * Suspense fallback no sooner than 300 ms after the fallback: a preloaded part renders directly
 * instead, with no fallback and no wait.
 */
export function preloadable<P extends object>(
  load: () => Promise<ComponentType<P>>,
): Preloadable<P> {
  let loaded: ComponentType<P> | null = null;
  const remember = (component: ComponentType<P>): ComponentType<P> => (loaded = component);
  const Lazy = lazy(() => load().then((component) => ({ default: remember(component) })));
  return {
    Component: (props: P) => createElement(loaded ?? Lazy, props),
    preload: () => load().then(remember),
  };
}

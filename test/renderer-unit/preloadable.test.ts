import { createElement, Suspense, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { preloadable } from '../../src/renderer/src/lib/preloadable';

/** A part whose code arrives when the test says so, counting how often it was asked for. */
function deferredPart() {
  let arrive: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  let loads = 0;
  const part = preloadable<{ name: string }>(() => {
    loads++;
    return arrived.then(
      () =>
        ({ name }: { name: string }) =>
          createElement('h1', null, name),
    );
  });
  return { part, arrive, loads: () => loads };
}

const shown = (Component: (props: { name: string }) => ReactElement): string =>
  renderToStaticMarkup(
    createElement(
      Suspense,
      { fallback: createElement('p', null, 'Loading…') },
      createElement(Component, { name: 'Report 7' }),
    ),
  );

describe('a screen part preloaded while idle', () => {
  it('renders at once once preloaded: no Suspense fallback (whose content React holds back 300 ms)', async () => {
    const { part, arrive } = deferredPart();
    const preloading = part.preload();
    arrive();
    await preloading;
    // Its first render (a React.lazy whose chunk is in suspends here all the same).
    expect(shown(part.Component)).toBe('<h1>Report 7</h1>');
  });

  it('never preloaded, it loads on its first render and shows once its code is in', async () => {
    const { part, arrive, loads } = deferredPart();
    expect(shown(part.Component)).toBe('<p>Loading…</p>');
    expect(loads()).toBe(1);
    arrive();
    await part.preload();
    expect(shown(part.Component)).toBe('<h1>Report 7</h1>');
  });
});

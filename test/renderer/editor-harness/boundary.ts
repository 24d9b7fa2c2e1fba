/**
 * The screens' error boundary (`ScreenBoundary`) as the app mounts it, around a screen that throws
 * while it renders, beside a navigation that must stay usable. Built by `build.ts` for Chromium.
 */
import { createElement, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ScreenBoundary } from '../../../src/renderer/src/components/ScreenBoundary';

function Broken({ what }: { what: string }): never {
  throw new TypeError(`Cannot read properties of undefined (reading '${what}')`);
}

function Fine() {
  return createElement('h1', null, 'Programs');
}

/** A navigation of two screens: "Broken" throws on render, "Fine" does not. */
function App() {
  const [screen, setScreen] = useState<'broken' | 'fine'>('broken');
  return createElement(
    'div',
    null,
    createElement(
      'nav',
      { 'aria-label': 'Main' },
      createElement('button', { type: 'button', onClick: () => setScreen('broken') }, 'Broken'),
      createElement('button', { type: 'button', onClick: () => setScreen('fine') }, 'Fine'),
    ),
    createElement(
      'main',
      null,
      createElement(ScreenBoundary, {
        key: screen,
        screen: screen === 'broken' ? 'The program' : 'The programs',
        children:
          screen === 'broken' ? createElement(Broken, { what: 'rewards' }) : createElement(Fine),
      }),
    ),
  );
}

const root = document.createElement('div');
document.body.append(root);
createRoot(root).render(createElement(App));

import { createElement, Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { parseHash, routeHash, sectionOf } from '../../src/renderer/src/lib/routes';
import { renderMarkdown } from '../../src/renderer/src/components/markdown/render-markdown';

const REPORT = '3f1c2a9e-8d4b-4c1e-9f2a-7b6c5d4e3f21';
const FILE = '0b4c7c1e-2f9a-4d3e-8a6b-5c4d3e2f1a0b';

const html = (markdown: string, withImages: boolean): string =>
  renderToStaticMarkup(
    createElement(
      Fragment,
      null,
      renderMarkdown(markdown, {
        downloadFile: () => undefined,
        ...(withImages
          ? {
              fileImage: (target, alt) =>
                createElement('img', { src: `data:image/png;base64,${target.fileId}`, alt }),
            }
          : {}),
      }),
    ),
  );

describe('evidence images in rendered Markdown', () => {
  it('an image of a report file shows from the app’s checked copy, with its download', () => {
    const out = html(`![shot.png](/reports/${REPORT}/files/${FILE})`, true);
    expect(out).toContain(`<img src="data:image/png;base64,${FILE}" alt="shot.png"/>`);
    expect(out).toContain('aria-label="Download shot.png"');
  });

  it('without the option, or for any other target, no image is ever loaded', () => {
    expect(html(`![shot.png](/reports/${REPORT}/files/${FILE})`, false)).not.toContain('<img');
    for (const src of [
      'https://evil.example/x.png',
      'data:image/svg+xml;base64,PHN2Zz4=',
      'javascript:alert(1)',
      'file:///etc/passwd',
    ]) {
      expect(html(`![x](${src})`, true)).not.toContain('<img');
    }
  });
});

describe('the Payouts route', () => {
  it('has its own hash and section', () => {
    expect(parseHash('#/payouts')).toEqual({ name: 'payouts' });
    expect(routeHash({ name: 'payouts' })).toBe('#/payouts');
    expect(sectionOf({ name: 'payouts' })).toBe('payouts');
  });
});

import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { AppPage } from './app';
import type { AppHost } from '../../app/host';
import type { StandInPageGlobals } from '../../app/page-preload';

/** The one http(s) link of the corpus a click must hand to `openExternal` (positive control). */
export const SAFE_LINK = 'https://example.com/advisory';
export const SAFE_TEXT = 'safe-advisory';

/** Link texts of payloads whose targets must never be followed, opened or kept as live links. */
export const HOSTILE_LINK_TEXTS = [
  'pwn-js',
  'pwn-js-case',
  'pwn-js-space',
  'pwn-colon-entity',
  'pwn-hex-entity',
  'pwn-data-html',
  'pwn-vbscript',
  'pwn-file',
  'pwn-ref',
  'pwn-anchor',
  'pwn-svg-anchor',
] as const;

/**
 * Markdown holding one XSS payload per paragraph: raw HTML blocks and inline HTML, dangerous link
 * schemes (also entity-encoded and by reference), autolinks, images, CSS `url()`, frames and
 * objects. Every payload that runs sets `window.__pwned`; every request it makes goes to
 * evil.example.
 */
export function xssCorpus(marker: string): string {
  return [
    `Marker ${marker}: the text around the payloads is kept.`,
    `<script>window.__pwned = 'script-${marker}'</script>`,
    `<img src="x" onerror="window.__pwned='img-${marker}'">`,
    `Inline <img src=x onerror=window.__pwned='inline-img'> image and <b onmouseover="window.__pwned='b'">bold</b>.`,
    `<svg onload="window.__pwned='svg'"><circle r="10"></circle></svg>`,
    `<svg><a xlink:href="javascript:window.__pwned='svg-a'"><text y="20">pwn-svg-anchor</text></a></svg>`,
    `<iframe src="javascript:parent.__pwned='iframe'"></iframe>`,
    `<iframe srcdoc="<script>parent.__pwned='srcdoc'</script>"></iframe>`,
    `<object data="javascript:window.__pwned='object'"></object><embed src="https://evil.example/embed.swf">`,
    `<a href="javascript:window.__pwned='anchor'">pwn-anchor</a>`,
    `<details open ontoggle="window.__pwned='details'"><summary>details</summary>x</details>`,
    `<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned='mxss'"></style></mglyph></table></mtext></math>`,
    `<form action="https://evil.example/steal"><button formaction="javascript:window.__pwned='form'">send</button></form>`,
    `<meta http-equiv="refresh" content="0;url=https://evil.example/refresh"><base href="https://evil.example/">`,
    `<div style="background-image:url(https://evil.example/css.png)">css url</div>`,
    `<style>body { background: url(https://evil.example/style.png) }</style>`,
    `<link rel="stylesheet" href="https://evil.example/sheet.css">`,
    `<video src="https://evil.example/v.mp4" poster="https://evil.example/poster.png"></video>`,
    `[pwn-js](javascript:window.__pwned='md-link')`,
    `[pwn-js-case](JaVaScRiPt:window.__pwned='md-case')`,
    `[pwn-js-space](<  javascript:window.__pwned='md-space'>)`,
    `[pwn-colon-entity](javascript&colon;window.__pwned='colon')`,
    `[pwn-hex-entity](&#x6A;avascript:window.__pwned='hex')`,
    `[pwn-data-html](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+)`,
    `[pwn-vbscript](vbscript:msgbox(1))`,
    `[pwn-file](file:///etc/passwd)`,
    `[pwn-ref][evil]`,
    `[evil]: javascript:window.__pwned='reference'`,
    `Autolinks: <javascript:window.__pwned='autolink'> and <https://evil.example/auto> and www.evil.example/literal and <mailto:security@example.com>.`,
    `![pwn-image](https://evil.example/pixel.png) ![pwn-svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+)`,
    `[${SAFE_TEXT}](${SAFE_LINK})`,
  ].join('\n\n');
}

/** Where a rendered document breaks the rules: live script, frames, unsafe URLs, handlers. */
export function scanDom(spec: { base: string }): string[] {
  interface El {
    tagName: string;
    attributes: ArrayLike<{ name: string; value: string }>;
    textContent: string | null;
    outerHTML: string;
  }
  const g = globalThis as unknown as {
    document: { querySelectorAll(s: string): ArrayLike<El>; baseURI: string };
  };
  const problems: string[] = [];
  const where = (el: El): string => el.outerHTML.slice(0, 160);
  // The app's own forms have no action; a form with one is caught by the URL rule below.
  const forbiddenTags = new Set([
    'iframe',
    'frame',
    'frameset',
    'object',
    'embed',
    'applet',
    'base',
    'portal',
    'fencedframe',
  ]);
  const urlAttributes = new Set([
    'href',
    'src',
    'action',
    'formaction',
    'xlink:href',
    'poster',
    'data',
    'background',
    'ping',
    'srcset',
    'imagesrcset',
  ]);
  const resolve = (value: string): URL | null => {
    try {
      return new URL(value.trim(), g.document.baseURI);
    } catch {
      return null;
    }
  };
  const linkOk = (url: URL | null): boolean =>
    url !== null &&
    (url.href.startsWith(`${spec.base}/`) || ['http:', 'https:', 'mailto:'].includes(url.protocol));
  const resourceOk = (url: URL | null): boolean =>
    url !== null &&
    (url.href.startsWith(`${spec.base}/`) ||
      url.protocol === 'blob:' ||
      (url.protocol === 'data:' && /^data:image\//i.test(url.href)));
  const all = g.document.querySelectorAll('*');
  for (let i = 0; i < all.length; i++) {
    const el = all[i] as El;
    const tag = el.tagName.toLowerCase();
    if (forbiddenTags.has(tag)) problems.push(`<${tag}> element: ${where(el)}`);
    if (tag === 'meta') {
      const equiv = [...Array.from(el.attributes)].find((a) => a.name === 'http-equiv');
      if (equiv && equiv.value.toLowerCase() !== 'content-security-policy') {
        problems.push(`meta http-equiv: ${where(el)}`);
      }
    }
    if (tag === 'style' && /evil\.example|pwned/i.test(el.textContent ?? '')) {
      problems.push(`hostile <style>: ${where(el)}`);
    }
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on')) problems.push(`event handler ${name}: ${where(el)}`);
      if (name === 'srcdoc') problems.push(`srcdoc: ${where(el)}`);
      if (name === 'style' && /url\s*\(|expression\s*\(|javascript:/i.test(attr.value)) {
        problems.push(`style with a URL: ${where(el)}`);
      }
      if (!urlAttributes.has(name)) continue;
      const values =
        name === 'srcset' || name === 'imagesrcset'
          ? attr.value.split(',').map((part) => part.trim().split(/\s+/)[0] ?? '')
          : [attr.value];
      const isLink = (name === 'href' || name === 'xlink:href') && ['a', 'area'].includes(tag);
      for (const value of values) {
        const url = resolve(value);
        const ok = isLink ? linkOk(url) : resourceOk(url);
        if (!ok) problems.push(`${name}="${value.slice(0, 80)}" on <${tag}>: ${where(el)}`);
      }
    }
  }
  return problems;
}

/** CSP directives whose violation means hostile content reached a live element. */
const FORBIDDEN_DIRECTIVES =
  /^(script-src|script-src-elem|script-src-attr|frame-src|child-src|object-src|form-action|base-uri|connect-src|img-src|media-src|font-src|default-src)/;

/**
 * Asserts the page stayed inert: no script ran (canary, dialogs), no request left the app's
 * folder, no navigation, no frame or popup, no live hostile markup, no shell call but the allowed
 * ones.
 */
export async function expectInert(app: AppPage, host: AppHost): Promise<void> {
  const base = host.rendererBase;
  const { page, guard } = app;
  const canary = await page.evaluate(() => (globalThis as unknown as StandInPageGlobals).__pwned);
  expect(canary, 'window.__pwned').toBeUndefined();
  expect(guard.dialogs, 'dialogs').toEqual([]);
  expect(
    guard.requests.filter((url) => !url.startsWith(`${base}/`)),
    'requests outside the app',
  ).toEqual([]);
  expect(
    guard.navigations.filter((url) => url.split('#')[0] !== host.rendererUrl),
    'navigations away from the app',
  ).toEqual([]);
  expect(guard.loads, 'document loads').toBe(1);
  expect(guard.popups, 'popups').toEqual([]);
  expect(page.frames(), 'frames').toHaveLength(1);
  const violations = (await guard.cspViolations()).filter((v) =>
    FORBIDDEN_DIRECTIVES.test(v.directive),
  );
  expect(violations, 'CSP violations').toEqual([]);
  expect(await page.evaluate(scanDom, { base }), 'unsafe markup').toEqual([]);
  expect(
    host.external.filter((url) => url !== SAFE_LINK),
    'openExternal calls',
  ).toEqual([]);
  expect(host.calls.filter((c) => c.name === 'openWebsite')).toEqual([]);
}

/** Clicks every hostile link text shown inside `scope` (each must do nothing). */
/** The app's question before a link leaves it for the browser. */
export const LINK_DIALOG = 'Open this address in your browser?';

/**
 * Answers "Cancel" to the link question if it is open, and returns the address it showed (the
 * whole address, which is what the researcher decides on), or null when no question was open.
 */
export async function cancelLinkQuestion(page: Page): Promise<string | null> {
  const dialog = page.getByRole('dialog', { name: LINK_DIALOG, exact: true });
  if (!(await dialog.isVisible())) return null;
  const address = await dialog.getByLabel('Address', { exact: true }).innerText();
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  return address;
}

/**
 * Clicks every hostile link text in `scope`. An allowed link only asks (with its whole address)
 * before it would leave the app: the question is answered "Cancel", and the addresses it showed
 * are collected in `asked`.
 */
export async function clickHostileLinks(
  page: Page,
  scope: Locator,
  asked: string[] = [],
): Promise<number> {
  let clicked = 0;
  for (const text of HOSTILE_LINK_TEXTS) {
    const target = scope.getByText(text, { exact: true });
    const count = await target.count();
    for (let i = 0; i < count; i++) {
      const one = target.nth(i);
      if (!(await one.isVisible())) continue;
      await one.click({ timeout: 5_000 });
      clicked++;
      const address = await cancelLinkQuestion(page);
      if (address !== null) asked.push(address);
    }
  }
  // Let any navigation or handler a click might have started show itself.
  await page.waitForTimeout(200);
  return clicked;
}

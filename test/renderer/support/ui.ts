import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { waitUntil } from '../../support/wait';

/** The first element's text, polled (Playwright's own expect is not used here); '' while absent. */
const polledText = (locator: Locator, timeout: number) =>
  expect.poll(async () => ((await locator.count()) > 0 ? await locator.first().innerText() : ''), {
    timeout,
    interval: 100,
  });

/** Waits, bounded, until the element's text matches. */
export async function expectText(
  locator: Locator,
  pattern: RegExp | string,
  timeout = 10_000,
): Promise<void> {
  await polledText(locator, timeout).toMatch(pattern);
}

export async function expectNoText(
  locator: Locator,
  pattern: RegExp,
  timeout = 10_000,
): Promise<void> {
  await polledText(locator, timeout).not.toMatch(pattern);
}

/** Waits until `check` holds, bounded; `what` names it in the failure. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeout = 10_000,
): Promise<void> {
  await waitUntil(what, check, { timeoutMs: timeout });
}

export const connection = (page: Page): Locator =>
  page.getByRole('status', { name: 'Connection', exact: true });

export const nav = (page: Page, name: 'Programs' | 'Reports' | 'Account'): Locator =>
  page.getByRole('navigation', { name: 'Main', exact: true }).getByRole('link', {
    name,
    exact: true,
  });

export async function isEnabled(locator: Locator): Promise<boolean> {
  return (await locator.count()) > 0 && (await locator.isEnabled());
}

/** What a control's `aria-describedby` names: the reason a disabled button gives for itself. */
export async function reasonFor(page: Page, control: Locator): Promise<Locator> {
  const id = (await control.getAttribute('aria-describedby')) ?? '';
  expect(id, 'the control names no reason').not.toBe('');
  return page.locator(`[id="${id}"]`);
}

/** The point just right of the last character of `text` inside `scope`, in page coordinates. */
export async function pointAfterText(
  scope: Locator,
  text: string,
): Promise<{ x: number; y: number }> {
  const point = await scope.evaluate((root, wanted) => {
    interface Rect {
      right: number;
      top: number;
      height: number;
    }
    interface TextNode {
      textContent: string | null;
    }
    const g = globalThis as unknown as {
      document: {
        createTreeWalker(root: unknown, what: number): { nextNode(): TextNode | null };
        createRange(): {
          setStart(node: TextNode, offset: number): void;
          setEnd(node: TextNode, offset: number): void;
          getBoundingClientRect(): Rect;
        };
      };
    };
    const walker = g.document.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = (node.textContent ?? '').indexOf(wanted);
      if (at < 0) continue;
      const range = g.document.createRange();
      range.setStart(node, at + wanted.length - 1);
      range.setEnd(node, at + wanted.length);
      const rect = range.getBoundingClientRect();
      return { x: rect.right + 3, y: rect.top + rect.height / 2 };
    }
    return null;
  }, text);
  if (!point) throw new Error(`no text "${text}" in the element`);
  return point;
}

/**
 * Puts the caret at the end of a block of the rich-text editor (click, End) and checks it is
 * there before the test types; a click in the first moments after the editor mounts can be
 * undone by its initial load, so it is repeated (bounded) until the caret stays.
 */
export async function caretAtEndOf(block: Locator, text: string): Promise<void> {
  const page = block.page();
  for (let attempt = 0; attempt < 5; attempt++) {
    await block.click();
    await page.waitForTimeout(150);
    await page.keyboard.press('End');
    const ok = await page.evaluate((wanted) => {
      const g = globalThis as unknown as {
        getSelection(): { anchorNode: { textContent: string | null } | null; anchorOffset: number };
      };
      const s = g.getSelection();
      const node = s.anchorNode?.textContent ?? '';
      return node.endsWith(wanted) && s.anchorOffset === node.length;
    }, text);
    if (ok) return;
  }
  throw new Error(`the caret does not stay at the end of "${text}"`);
}

/** Opens a route of the app (`#/reports/<id>`) in the page main loaded, as a link would. */
export async function goTo(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = h;
  }, hash);
  // A report is read before the screen turns to it: until then the report shown before stays,
  // and a test looking for text both hold would act on the one going away.
  const reportId = /^#\/reports\/([^/]+)$/u.exec(hash)?.[1];
  if (reportId) {
    await page
      .locator(`section.workspace-detail[data-report-id="${decodeURIComponent(reportId)}"]`)
      .waitFor();
  }
}

/** The route the page shows now, as its location hash (`#/reports/<id>`). */
export function hashOf(page: Page): Promise<string> {
  return page.evaluate(
    () => (globalThis as unknown as { location: { hash: string } }).location.hash,
  );
}

/** The theme the page shows: `<html data-theme>`. */
export function themeOf(page: Page): Promise<string | undefined> {
  return page.evaluate(
    () =>
      (
        globalThis as unknown as {
          document: { documentElement: { dataset: { theme?: string } } };
        }
      ).document.documentElement.dataset.theme,
  );
}

/** A paste into an element, the way a browser dispatches it: one clipboard entry per MIME type. */
export async function pasteInto(target: Locator, data: Record<string, string>): Promise<void> {
  await target.evaluate((el, entries) => {
    const g = globalThis as unknown as {
      DataTransfer: new () => { setData(type: string, value: string): void };
      ClipboardEvent: new (type: string, init: object) => object;
    };
    const transfer = new g.DataTransfer();
    for (const [type, value] of Object.entries(entries)) transfer.setData(type, value);
    // (The browser tests compile without DOM types.)
    (el as unknown as { dispatchEvent(event: object): boolean }).dispatchEvent(
      new g.ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  }, data);
}

/** Whether `control` has the keyboard focus. */
/** Whether the keyboard focus is inside `scope` (on it or on one of its descendants). */
export function focusWithin(scope: Locator): Promise<boolean> {
  return scope.evaluate((root) =>
    (root as unknown as { contains(node: unknown): boolean }).contains(
      (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
    ),
  );
}

export function hasFocus(control: Locator): Promise<boolean> {
  return control.evaluate(
    (el) =>
      el ===
      (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
  );
}

/**
 * Where an element stands in the page, whatever its pane's scroll (the offsetTop chain): it
 * moves only when something above it comes or goes.
 */
export function placeInPage(element: Locator): Promise<number> {
  return element.evaluate((el) => {
    type Placed = { offsetTop: number; offsetParent: Placed | null };
    let top = 0;
    for (let at: Placed | null = el as unknown as Placed; at; at = at.offsetParent)
      top += at.offsetTop;
    return top;
  });
}

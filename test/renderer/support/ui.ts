import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** Waits, bounded, until the element's text matches (Playwright's own expect is not used here). */
export async function expectText(
  locator: Locator,
  pattern: RegExp | string,
  timeout = 10_000,
): Promise<void> {
  await expect
    .poll(async () => ((await locator.count()) > 0 ? await locator.first().innerText() : ''), {
      timeout,
      interval: 100,
    })
    .toMatch(pattern);
}

export async function expectNoText(
  locator: Locator,
  pattern: RegExp,
  timeout = 10_000,
): Promise<void> {
  await expect
    .poll(async () => ((await locator.count()) > 0 ? await locator.first().innerText() : ''), {
      timeout,
      interval: 100,
    })
    .not.toMatch(pattern);
}

/** Waits until `check` holds, bounded; `what` names it in the failure. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeout = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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

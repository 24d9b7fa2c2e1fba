/**
 * Opening a report from the reports list as a researcher does, for the renderer bench and its
 * test: the app reloaded at the list, a real click (Playwright's mouse, through Chromium's input)
 * on a row's link, and the time from that click event to the frame that paints what it opened.
 * A draft counts as open once a caret can be placed in its description: the editor is laid out,
 * editable, and a point on its text maps to a caret position inside it.
 */
import type { Page, Request } from 'playwright-core';
import { SPARE_EDITOR_READY } from '../src/renderer/src/editor/spare-ready-mark';

/** The list's report links, in the order the list shows them. */
export const REPORT_LINKS = '[aria-label="Reports"] .report-row a';

/** The page's own globals the steps use (the bench is typechecked without the DOM's types). */
interface PageGlobals {
  performance: { now(): number };
  requestAnimationFrame(cb: (t: number) => void): number;
  history: { replaceState(data: unknown, unused: string, url: string): void };
  document: {
    querySelector(s: string): PageElement | null;
    querySelectorAll(s: string): ArrayLike<PageElement>;
    addEventListener(
      type: string,
      cb: (e: { timeStamp: number; target: unknown }) => void,
      options: object,
    ): void;
    caretRangeFromPoint(x: number, y: number): { startContainer: unknown } | null;
  };
  __opened?: Promise<number>;
}
interface PageElement {
  textContent: string | null;
  innerHTML: string;
  querySelector(s: string): PageElement | null;
  getClientRects(): { length: number };
  getBoundingClientRect(): { left: number; top: number; width: number; height: number };
  contains(node: unknown): boolean;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
}

/** Reloads the app at the list (no report open: a reload at a report's address opens it). */
export async function freshList(page: Page): Promise<void> {
  await page.evaluate(() =>
    (globalThis as unknown as PageGlobals).history.replaceState(null, '', '#/reports'),
  );
  await page.reload();
  await page.locator(REPORT_LINKS).first().waitFor({ timeout: 30_000 });
}

/** What the page waits for after the click: a draft's editor that takes a caret, or a page. */
type Awaited = 'caret' | 'heading';

/**
 * Arms the page for one open: `mark` names the link to click (set as an attribute, so the
 * click goes to exactly that element), and the promise `__opened` resolves with the ms from the
 * click event to the frame after the report shows.
 */
function arm(args: { index: number; drafts: boolean; until: Awaited }): void {
  const g = globalThis as unknown as PageGlobals;
  const d = g.document;
  const rows = Array.from(d.querySelectorAll('[aria-label="Reports"] .report-row'));
  const candidates = rows.filter(
    (row) => (row.querySelector('.status-draft') !== null) === args.drafts,
  );
  const link = candidates[args.index]?.querySelector('a');
  if (!link)
    throw new Error(`no ${args.drafts ? 'draft' : 'submitted report'} ${args.index} in the list`);
  for (const old of Array.from(d.querySelectorAll('[data-bench-open]')))
    old.removeAttribute('data-bench-open');
  link.setAttribute('data-bench-open', '');
  const title = link.textContent;
  const heading = (): string | null => d.querySelector('.workspace-detail h1')?.textContent ?? null;
  const editorSelector = '.workspace-detail [aria-label="Description"][contenteditable="true"]';
  // The one laid out (React keeps a subtree it suspended in the page, hidden).
  const editor = (): PageElement | null =>
    Array.from(d.querySelectorAll(editorSelector)).find((el) => el.getClientRects().length > 0) ??
    null;
  /** A point on the editor's first line maps to a caret position inside it. */
  const takesCaret = (el: PageElement): boolean => {
    const box = (el.querySelector('p, h1, h2, h3, li') ?? el).getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    const at = d.caretRangeFromPoint(box.left + 2, box.top + Math.min(box.height / 2, 8));
    return at !== null && el.contains(at.startContainer);
  };
  // What shows already (a report open before this click): the new one must replace it.
  const shownBefore = args.until === 'caret' ? editor() : d.querySelector('.workspace-detail h1');
  const before = heading() === title ? shownBefore : null;
  g.__opened = new Promise<number>((resolve, reject) => {
    d.addEventListener(
      'click',
      (e) => {
        const t0 = e.timeStamp;
        const step = (): void => {
          const now = args.until === 'caret' ? editor() : d.querySelector('.workspace-detail h1');
          const ready =
            now !== null &&
            now !== before &&
            heading() === title &&
            (args.until === 'heading' || takesCaret(now));
          // One more frame: the one that paints it.
          if (ready) g.requestAnimationFrame(() => resolve(g.performance.now() - t0));
          else if (g.performance.now() - t0 > 30_000) {
            const pane = d.querySelector('.workspace-detail')?.innerHTML.slice(0, 600) ?? 'none';
            reject(new Error(`"${title}" did not open in 30 s (pane: ${pane})`));
          } else g.requestAnimationFrame(step);
        };
        g.requestAnimationFrame(step);
      },
      { capture: true, once: true },
    );
  });
}

export interface Opened {
  /** From the click event to the frame after the report showed (a caret placeable, for a draft). */
  ms: number;
  /** Script files the page loaded between the click and then: code the click had to wait for. */
  scriptsLoaded: string[];
}

async function open(page: Page, index: number, drafts: boolean, until: Awaited): Promise<Opened> {
  const scripts: string[] = [];
  const onRequest = (request: Request): void => {
    if (request.resourceType() === 'script') scripts.push(request.url().replace(/^.*\//u, ''));
  };
  await page.evaluate(arm, { index, drafts, until });
  page.on('request', onRequest);
  try {
    await page.locator('[data-bench-open]').click();
    const ms = await page.evaluate(
      () => (globalThis as unknown as PageGlobals).__opened ?? Number.NaN,
    );
    return { ms, scriptsLoaded: scripts };
  } finally {
    page.off('request', onRequest);
  }
}

/** Clicks the `index`-th draft of the list: the ms until a caret can be placed in its editor. */
export function openDraftToCaret(page: Page, index: number): Promise<Opened> {
  return open(page, index, true, 'caret');
}

/** Clicks the `index`-th submitted report of the list: the ms until its page shows its title. */
export function openFromList(page: Page, index: number): Promise<Opened> {
  return open(page, index, false, 'heading');
}

/** The longest rAF delta over `ms` of the page doing nothing the bench asked for. */
export async function longestFrameFor(page: Page, ms: number): Promise<number> {
  return page.evaluate(async (span) => {
    const g = globalThis as unknown as PageGlobals;
    let longest = 0;
    const t0 = g.performance.now();
    await new Promise<void>((resolve) => {
      let last = t0;
      const frame = (t: number): void => {
        longest = Math.max(longest, t - last);
        last = t;
        if (t - t0 >= span) resolve();
        else g.requestAnimationFrame(frame);
      };
      g.requestAnimationFrame(frame);
    });
    return longest;
  }, ms);
}

/** Script files the page loads from now on, until `stop` is called (file names). */
export function scriptsLoading(page: Page): { names: string[]; stop(): void } {
  const names: string[] = [];
  const onRequest = (request: Request): void => {
    if (request.resourceType() === 'script') names.push(request.url().replace(/^.*\//u, ''));
  };
  page.on('request', onRequest);
  return { names, stop: () => page.off('request', onRequest) };
}

/** The spare editors the page has made so far (editor/spare-editor.ts marks each once ready). */
export function sparesMade(page: Page): Promise<number> {
  return page.evaluate(
    (name) =>
      (
        globalThis as unknown as {
          performance: { getEntriesByName(name: string): ArrayLike<unknown> };
        }
      ).performance.getEntriesByName(name).length,
    SPARE_EDITOR_READY,
  );
}

/**
 * A report opened from the list shows no "Loading report…" that would only flash: the read of a
 * click ends within a few frames, and the walk of the built app saw those words painted for two
 * to five frames on every click and every arrow key. The words show only for a load that lasts.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useAppPerTest } from './support/app';
import { freshListWithEditorCode, openSeededList } from './support/seeded-list';
import { until } from './support/ui';

const REPORTS = 60;
/** Under this long after the click, loading words are a flash, not news. */
const FLASH_MS = 250;
/** How long a click waits for its report before the screen changes anyway (stores/reports.ts). */
const READ_WAIT_MS = 100;

interface Frame {
  /** ms after the last click or key that opens a report. */
  sinceInput: number;
  loadingShown: boolean;
}

/** Samples every frame the page paints: whether "Loading report…" is visible in it. */
async function watchFrames(page: Page): Promise<() => Promise<Frame[]>> {
  await page.evaluate(() => {
    interface El {
      textContent: string | null;
      getClientRects(): { length: number };
    }
    const g = globalThis as unknown as {
      document: {
        querySelectorAll(s: string): ArrayLike<El>;
        addEventListener(type: string, cb: (e: { timeStamp: number }) => void, o: object): void;
      };
      getComputedStyle(el: El): { visibility: string };
      requestAnimationFrame(cb: (t: number) => void): number;
      performance: { now(): number };
      __frames: Frame[];
    };
    g.__frames = [];
    let input = Number.NaN;
    for (const type of ['click', 'keydown'])
      g.document.addEventListener(type, (e) => (input = e.timeStamp), { capture: true });
    const tick = (): void => {
      const shown = Array.from(g.document.querySelectorAll('.workspace-detail .loading')).some(
        (el) =>
          /Loading report/u.test(el.textContent ?? '') &&
          el.getClientRects().length > 0 &&
          g.getComputedStyle(el).visibility === 'visible',
      );
      g.__frames.push({ sinceInput: g.performance.now() - input, loadingShown: shown });
      g.requestAnimationFrame(tick);
    };
    g.requestAnimationFrame(tick);
  });
  return () => page.evaluate(() => (globalThis as unknown as { __frames: Frame[] }).__frames);
}

/**
 * Records every "Loading report…" put into the report's pane (painted or not), with the ms since
 * the last click or key: the screen rendered once without its report before rendering it.
 */
async function watchLoadingRenders(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    interface El {
      textContent: string | null;
      closest(s: string): El | null;
      matches(s: string): boolean;
      querySelectorAll(s: string): ArrayLike<El>;
    }
    const g = globalThis as unknown as {
      document: {
        body: unknown;
        addEventListener(type: string, cb: (e: { timeStamp: number }) => void, o: object): void;
      };
      performance: { now(): number };
      MutationObserver: new (cb: (records: { addedNodes: ArrayLike<unknown> }[]) => void) => {
        observe(target: unknown, options: object): void;
      };
      __loadingRenders: number[];
    };
    g.__loadingRenders = [];
    let input = Number.NaN;
    for (const type of ['click', 'keydown'])
      g.document.addEventListener(type, (e) => (input = e.timeStamp), { capture: true });
    const isLoading = (el: El): boolean =>
      el.closest('.workspace-detail') !== null && /Loading report/u.test(el.textContent ?? '');
    new g.MutationObserver((records) => {
      for (const record of records)
        for (const node of Array.from(record.addedNodes) as El[]) {
          if (typeof node.matches !== 'function') continue;
          const found = [node, ...Array.from(node.querySelectorAll('.loading'))].some(
            (el) => el.matches('.loading') && isLoading(el),
          );
          if (found) g.__loadingRenders.push(g.performance.now() - input);
        }
    }).observe(g.document.body, { childList: true, subtree: true });
  });
  return () =>
    page.evaluate(() => (globalThis as unknown as { __loadingRenders: number[] }).__loadingRenders);
}

const heading = (page: Page): Promise<string | null> =>
  page.evaluate(
    () =>
      (
        globalThis as unknown as {
          document: { querySelector(s: string): { textContent: string | null } | null };
        }
      ).document.querySelector('.workspace-detail h1')?.textContent ?? null,
  );

describe('renderer: a report opened from the list does not flash "Loading report…"', () => {
  const apps = useAppPerTest('no-loading-flash');

  it('clicks and arrow keys open reports with no loading words painted in between', async () => {
    const { page } = await openSeededList(apps, REPORTS);
    const frames = await watchFrames(page);
    const links = page.locator('[aria-label="Reports"] .report-row a');
    const titles = (await links.allInnerTexts()).slice(0, 3);
    expect(titles).toHaveLength(3);

    for (const [i, title] of titles.entries()) {
      await links.nth(i).click();
      await until(`"${title}" open`, async () => (await heading(page)) === title);
    }
    // The list keeps the focus: the arrow key opens the next report.
    const next = (await links.nth(3).innerText()).trim();
    await page.keyboard.press('ArrowDown');
    await until(`"${next}" open`, async () => (await heading(page)) === next);
    await page.waitForTimeout(100);

    const seen = await frames();
    expect(seen.length).toBeGreaterThan(10);
    const flashes = seen.filter((f) => f.loadingShown && f.sinceInput < FLASH_MS);
    expect(flashes, `frames painting "Loading report…": ${JSON.stringify(flashes)}`).toEqual([]);
  }, 180_000);

  it('renders the report once, with it: no loading state before it, whatever the keys pressed', async () => {
    const { page } = await openSeededList(apps, REPORTS);
    // The open report's code in first (the list's idle prefetch): a click before that renders
    // the chunk's loading state, which is not what this test is about.
    await freshListWithEditorCode(page);
    const renders = await watchLoadingRenders(page);
    const links = page.locator('[aria-label="Reports"] .report-row a');
    const titles = (await links.allInnerTexts()).slice(0, 6).map((t) => t.trim());
    expect(titles).toHaveLength(6);
    for (const [i, title] of titles.slice(0, 3).entries()) {
      await links.nth(i).click();
      await until(`"${title}" open`, async () => (await heading(page)) === title);
    }
    // Three arrow keys at once: the last report they reach is the one open, and stays open.
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    await until(`"${titles[5]}" open`, async () => (await heading(page)) === titles[5]);
    await page.waitForTimeout(2 * READ_WAIT_MS);
    expect(await heading(page)).toBe(titles[5]);
    expect(new URL(page.url()).hash).toMatch(/^#\/reports\/./u);

    // A loading state is rendered only for a read that outlasted the wait (a slow engine).
    const early = (await renders()).filter((ms) => ms < READ_WAIT_MS);
    expect(early, 'ms after the input at which "Loading report…" was rendered').toEqual([]);
  }, 180_000);

  it('Back and Forward between opened reports render each once, with it; the list focus follows', async () => {
    const { page } = await openSeededList(apps, REPORTS);
    const links = page.locator('[aria-label="Reports"] .report-row a');
    const titles = (await links.allInnerTexts()).slice(0, 3).map((t) => t.trim());
    expect(titles).toHaveLength(3);
    for (const [i, title] of titles.entries()) {
      await links.nth(i).click();
      await until(`"${title}" open`, async () => (await heading(page)) === title);
    }
    // Each loading state put in the pane, with the ms since the history step that led to it.
    await page.evaluate(() => {
      interface El {
        textContent: string | null;
        matches(s: string): boolean;
        closest(s: string): El | null;
        querySelectorAll(s: string): ArrayLike<El>;
      }
      const g = globalThis as unknown as {
        document: { body: unknown };
        performance: { now(): number };
        MutationObserver: new (cb: (records: { addedNodes: ArrayLike<unknown> }[]) => void) => {
          observe(target: unknown, options: object): void;
        };
        __stepAt: number;
        __loadingAfterStep: number[];
      };
      g.__stepAt = Number.NaN;
      g.__loadingAfterStep = [];
      new g.MutationObserver((records) => {
        for (const record of records)
          for (const node of Array.from(record.addedNodes) as El[]) {
            if (typeof node.matches !== 'function') continue;
            const found = [node, ...Array.from(node.querySelectorAll('.loading'))].some(
              (el) =>
                el.matches('.loading') &&
                el.closest('.workspace-detail') !== null &&
                /Loading report/u.test(el.textContent ?? ''),
            );
            if (found) g.__loadingAfterStep.push(g.performance.now() - g.__stepAt);
          }
      }).observe(g.document.body, { childList: true, subtree: true });
    });
    const step = async (where: 'back' | 'forward', title: string | undefined): Promise<void> => {
      await page.evaluate((w) => {
        const g = globalThis as unknown as {
          performance: { now(): number };
          history: { back(): void; forward(): void };
          __stepAt: number;
        };
        g.__stepAt = g.performance.now();
        g.history[w]();
      }, where);
      await until(`"${title}" open after ${where}`, async () => (await heading(page)) === title);
    };
    await step('back', titles[1]);
    await step('back', titles[0]);
    await step('forward', titles[1]);
    await page.waitForTimeout(2 * READ_WAIT_MS);
    expect(await heading(page)).toBe(titles[1]);
    const early = (
      await page.evaluate(
        () => (globalThis as unknown as { __loadingAfterStep: number[] }).__loadingAfterStep,
      )
    ).filter((ms) => ms < READ_WAIT_MS);
    expect(early, 'ms after the history step at which "Loading report…" was rendered').toEqual([]);

    // The focus left on the row clicked last moved with the report shown: on its row, and the
    // arrow key goes on from there.
    const focused = (): Promise<string | null> =>
      page.evaluate(() => {
        const d = (
          globalThis as unknown as {
            document: {
              activeElement: { textContent: string | null; matches(s: string): boolean };
            };
          }
        ).document;
        return d.activeElement.matches('[aria-label="Reports"] a[aria-current="true"]')
          ? d.activeElement.textContent
          : null;
      });
    expect(await focused()).toBe(titles[1]);
    await page.keyboard.press('ArrowDown');
    await until(`"${titles[2]}" open`, async () => (await heading(page)) === titles[2]);
    expect(await focused()).toBe(titles[2]);
  }, 180_000);
});

/**
 * Opening reports from the list as the renderer bench does (bench/renderer-open.ts: a reload at
 * the list, a real click, a caret placeable in the draft's editor), on the bench's own mirror
 * (bench/seed.ts), small: the bench's steps reach the draft they clicked however the page was
 * left, and once the list has sat idle the first open after start loads no code on its click.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openDraftToCaret, openFromList, REPORT_LINKS } from '../../bench/renderer-open';
import { useAppPerTest } from './support/app';
import { freshListWithEditorCode, openSeededList } from './support/seeded-list';
import { until } from './support/ui';
import { watchInvokes } from './support/invokes';

const REPORTS = 300;

interface PageDocument {
  querySelector(s: string): { click(): void } | null;
  querySelectorAll(s: string): ArrayLike<{ click(): void } | undefined>;
}

interface PageGlobals {
  location: { hash: string };
  document: { querySelector(s: string): { textContent: string | null } | null };
}

/** The open report's route and heading. */
const shown = (page: Page): Promise<{ hash: string; heading: string | null }> =>
  page.evaluate(() => {
    const g = globalThis as unknown as PageGlobals;
    return {
      hash: g.location.hash,
      heading: g.document.querySelector('.workspace-detail h1')?.textContent ?? null,
    };
  });

const draftTitles = (page: Page): Promise<string[]> =>
  page
    .locator('[aria-label="Reports"] .report-row')
    .filter({ has: page.locator('.status-draft') })
    .locator('a')
    .allInnerTexts();

describe('renderer: a report opened from the list by a click, as the bench opens it', () => {
  const apps = useAppPerTest('open-from-list');

  it('each click opens the draft clicked, to a caret; after the list sat idle the click loads no script', async () => {
    const { page } = await openSeededList(apps, REPORTS);
    const titles = await draftTitles(page);
    expect(titles.length).toBeGreaterThan(2);

    // The moment the list painted: the draft opens, whatever code it still had to load.
    const cold = await openDraftToCaret(page, 0);
    expect(cold.ms).toBeGreaterThan(0);
    expect((await shown(page)).heading).toBe(titles[0]);
    expect((await shown(page)).hash).toMatch(/^#\/reports\/[0-9a-f-]{36}$/u);

    // Reloaded while that draft was open: the list comes back without it, and the same draft
    // opens again on a click (the bench's first open after start).
    const prefetched = await freshListWithEditorCode(page);
    expect(await shown(page)).toEqual({ hash: '#/reports', heading: null });
    console.log(`prefetched before any click: ${prefetched.join(', ')}`);
    const first = await openDraftToCaret(page, 0);
    expect(first.scriptsLoaded).toEqual([]);
    expect((await shown(page)).heading).toBe(titles[0]);

    // A later draft, then a submitted report, each the one clicked. The click reads the report
    // ahead of its screen, and the screen uses that read: one call per click, not two.
    // The first one read further down: the next opens at its top, in the same pane.
    const pane = page.locator('.workspace-detail');
    const paneTop = (): Promise<number> =>
      pane.evaluate((el) => (el as unknown as { scrollTop: number }).scrollTop);
    await pane.evaluate((el) => {
      const box = el as unknown as { scrollTop: number; scrollHeight: number };
      box.scrollTop = box.scrollHeight;
    });
    expect(await paneTop()).toBeGreaterThan(0);
    const calls = await watchInvokes(page);
    await openDraftToCaret(page, 1);
    expect((await shown(page)).heading).toBe(titles[1]);
    await until('the next draft at its top', async () => (await paneTop()) === 0);
    // The click's own read, or for a row the list read ahead while quiet, the read behind the
    // open (stores/report.ts): one either way.
    await until('the draft read', async () => (await calls.count('getReport')) === 1);
    await page.waitForTimeout(700);
    expect(await calls.count('getReport')).toBe(1);
    const submitted = await page
      .locator('[aria-label="Reports"] .report-row')
      .filter({ hasNot: page.locator('.status-draft') })
      .locator('a')
      .first()
      .innerText();
    const report = await openFromList(page, 0);
    expect(report.ms).toBeGreaterThan(0);
    expect((await shown(page)).heading).toBe(submitted);
  }, 180_000);

  it('a press on a row reads its report before the button is let go; the click takes that read', async () => {
    const { page } = await openSeededList(apps, 40);
    // Drafts: a submitted report's page marks its thread read, and reads the report again then.
    const links = page
      .locator('[aria-label="Reports"] .report-row')
      .filter({ has: page.locator('.status-draft') })
      .locator('a');
    const titles = (await draftTitles(page)).slice(0, 3).map((t) => t.trim());
    expect(titles).toHaveLength(3);
    // The list's reads ahead of the rows in view held back from the page's start (an engine busy
    // with them): the press reads its report itself.
    const calls = await watchInvokes(page, /peekReport/u, { reload: true });
    await links.first().waitFor();
    const reads = (): Promise<number> => calls.count('getReport');

    await links.nth(1).hover();
    await page.mouse.down();
    await until('the report read with the button still down', async () => (await reads()) === 1);
    await page.mouse.up();
    await until('the pressed report open', async () => (await shown(page)).heading === titles[1]);
    await page.waitForTimeout(300);
    expect(await reads()).toBe(1);

    // Pressed on one row, let go on another: no click, nothing opens; the next click opens the
    // row clicked, read for itself.
    const before = await reads();
    await links.nth(0).hover();
    await page.mouse.down();
    await links.nth(2).hover();
    await page.mouse.up();
    await page.waitForTimeout(300);
    expect((await shown(page)).heading).toBe(titles[1]);
    await links.nth(2).click();
    await until('the clicked report open', async () => (await shown(page)).heading === titles[2]);
    await page.waitForTimeout(300);
    // The press's read of the first row, the click's own read of the third.
    expect((await reads()) - before).toBe(2);
  }, 120_000);

  it('a move elsewhere before the clicked report is read stays: the report does not take the screen back', async () => {
    const { page } = await openSeededList(apps, 40);
    const links = page.locator(REPORT_LINKS);
    const titles = (await links.allInnerTexts()).slice(0, 3).map((t) => t.trim());
    expect(titles).toHaveLength(3);
    await links.nth(0).click();
    await until('the first report open', async () => (await shown(page)).heading === titles[0]);

    // A click on a row, then on "Account" before that row's read can be in (one task: the read
    // is a round trip to the engine): the account screen is the last thing asked for.
    await page.evaluate(() => {
      const d = (globalThis as unknown as { document: PageDocument }).document;
      d.querySelectorAll('[aria-label="Reports"] .report-row a')[1]?.click();
      d.querySelector('nav[aria-label="Main"] a[href="#/account"]')?.click();
    });
    // Longer than the click's wait for its read (stores/reports.ts), and the read in.
    await page.waitForTimeout(500);
    expect((await shown(page)).hash).toBe('#/account');
    expect(await page.getByRole('heading', { level: 1 }).first().innerText()).toBe('Account');

    // Back at the list with the first report open: a click on the third row, then the second
    // report opened from outside the list (a link, a notification) before that read is in. The
    // second is shown, with its own title: not the third's, read too late.
    await page.goBack();
    await until('the first report again', async () => (await shown(page)).heading === titles[0]);
    const second = (await links.nth(1).getAttribute('href')) ?? '';
    expect(second).toMatch(/^#\/reports\/./u);
    await page.evaluate((hash) => {
      const g = globalThis as unknown as { document: PageDocument; location: { hash: string } };
      g.document.querySelectorAll('[aria-label="Reports"] .report-row a')[2]?.click();
      g.location.hash = hash;
    }, second);
    await until('the second report shown', async () => (await shown(page)).heading === titles[1]);
    await page.waitForTimeout(500);
    expect(await shown(page)).toEqual({ hash: second, heading: titles[1] });
  }, 120_000);
});

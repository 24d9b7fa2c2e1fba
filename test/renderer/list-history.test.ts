/**
 * The arrow keys in the reports list move the selection, opening each report beside the list,
 * without a history entry each: a walk pressed Back after arrowing through reports and stepped
 * back through every one of them. A click and Enter open a report as a link does (Back returns).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { REPORT_LINKS } from '../../bench/renderer-open';
import { useAppPerTest } from './support/app';
import { openSeededList } from './support/seeded-list';
import { until } from './support/ui';

const REPORTS = 40;

const where = (page: Page): Promise<{ hash: string; heading: string | null; entries: number }> =>
  page.evaluate(() => {
    const g = globalThis as unknown as {
      location: { hash: string };
      history: { length: number };
      document: { querySelector(s: string): { textContent: string | null } | null };
    };
    return {
      hash: g.location.hash,
      heading: g.document.querySelector('.workspace-detail h1')?.textContent ?? null,
      entries: g.history.length,
    };
  });

describe('renderer: the reports list and the browser history', () => {
  const apps = useAppPerTest('list-history');

  it('arrow keys open reports in place; Back leaves for where the list was opened from', async () => {
    const { page } = await openSeededList(apps, REPORTS);
    const links = page.locator(REPORT_LINKS);
    const titles = (await links.allInnerTexts()).slice(0, 6).map((t) => t.trim());
    expect(titles).toHaveLength(6);
    const start = await where(page);
    expect(start.hash).toBe('#/reports');

    await links.nth(0).click();
    await until('the first report open', async () => (await where(page)).heading === titles[0]);
    const clicked = await where(page);
    expect(clicked.entries).toBe(start.entries + 1);

    for (const title of titles.slice(1, 4)) {
      await page.keyboard.press('ArrowDown');
      await until(`"${title}" open`, async () => (await where(page)).heading === title);
    }
    const arrowed = await where(page);
    expect(arrowed.entries).toBe(clicked.entries);
    expect(arrowed.hash).not.toBe(clicked.hash);

    // Enter on the next row opens it as a link does: an entry of its own.
    await page.keyboard.press('ArrowDown');
    await until(`"${titles[4]}" open`, async () => (await where(page)).heading === titles[4]);
    await page.keyboard.press('ArrowDown');
    await until(`"${titles[5]}" open`, async () => (await where(page)).heading === titles[5]);
    const beforeEnter = await where(page);
    await links.nth(0).focus();
    await page.keyboard.press('Enter');
    await until(
      'the first report open again',
      async () => (await where(page)).heading === titles[0],
    );
    expect((await where(page)).entries).toBe(beforeEnter.entries + 1);

    await page.goBack();
    await until('back at the report the arrows reached', async () => {
      const now = await where(page);
      return now.hash === beforeEnter.hash && now.heading === titles[5];
    });
    await page.goBack();
    await until(
      'back at the list with no report open',
      async () => (await where(page)).hash === '#/reports',
    );
  }, 120_000);

  // A walk went Back to a report and found the list's tab stop on the row of the report it left:
  // the list kept the row last focused while that report was open, and it was open again.
  it("after Back, the list's tab stop is the row of the report shown", async () => {
    const { page } = await openSeededList(apps, REPORTS);
    const links = page.locator(REPORT_LINKS);
    const titles = (await links.allInnerTexts()).slice(0, 2).map((t) => t.trim());
    expect(titles).toHaveLength(2);
    const tabStop = async (): Promise<string> =>
      (await page.locator(`${REPORT_LINKS}[tabindex="0"]`).allInnerTexts())
        .map((t) => t.trim())
        .join(' | ');

    await links.nth(0).click();
    await until('the first report open', async () => (await where(page)).heading === titles[0]);
    await links.nth(1).click();
    await until('the second report open', async () => (await where(page)).heading === titles[1]);
    expect(await tabStop()).toBe(titles[1]);
    // The researcher reads the report: the focus leaves the list for it.
    await page.locator('.workspace-detail h1').click();

    await page.goBack();
    await until(
      'the first report shown again',
      async () => (await where(page)).heading === titles[0],
    );
    await until('the tab stop on its row', async () => (await tabStop()) === titles[0]);
  }, 120_000);
});

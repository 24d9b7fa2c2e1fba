import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { useAppPerTest, withBulkReports } from './support/app';
import { expectText, nav, until } from './support/ui';

const REPORTS = 1_500;
const BLOCK = 200;
const ROW = 64;

/** The list's scrolling box (the list itself is as tall as all its rows). */
interface Scrolled {
  parentElement: { scrollTop: number };
}

const scrollTop = (list: Locator): Promise<number> =>
  list.evaluate((el) => (el as unknown as Scrolled).parentElement.scrollTop);

async function scrollTo(list: Locator, top: number): Promise<void> {
  await list.evaluate((el, px) => {
    (el as unknown as Scrolled).parentElement.scrollTop = px;
  }, top);
}

/** The rows in view show their reports (not the "Loading…" placeholder). */
async function rowsShown(page: Page, list: Locator, positions: number[]): Promise<boolean> {
  for (const position of positions) {
    const row = list.locator(`[aria-posinset="${position}"]`);
    if ((await row.count()) === 0 || (await row.getByRole('link').count()) === 0) return false;
  }
  return !page.isClosed();
}

/**
 * The reports list with more reports than one page: pages are fetched as the virtual list
 * scrolls, and the scroll position survives a change of the list and a visit to a report.
 */
describe('renderer: the reports list pages as it scrolls', () => {
  const apps = useAppPerTest('reports-list');

  it('fetches the blocks in view, and keeps its place across an update and a visit to a report', async () => {
    const { host, app } = await apps.open({
      signedIn: false,
      hash: '#/reports',
      beforeWindow: withBulkReports(REPORTS, (h) => h.mirrorBeforeStart()),
    });
    const { page } = app;
    const list = page.getByRole('list', { name: 'Reports', exact: true });
    await expectText(page.getByText(/^[\d,]+ reports/), '1,500 reports', 15_000);
    await until('the first rows', () => rowsShown(page, list, [1, 2, 3]));
    const offsets = (): number[] =>
      (host?.calls ?? [])
        .filter((c) => c.name === 'listReports')
        .map((c) => (c.args[0] as { offset?: number }).offset ?? 0);
    // The first block was asked for beside the account, before its answer: not one round trip
    // after it.
    const first = (name: string) => host.calls.find((c) => c.name === name);
    expect(first('listReports')?.sentAt).toBeLessThan(first('getAccount')?.answeredAt ?? 0);
    // Only the first block so far, each call one block.
    expect(new Set(offsets())).toEqual(new Set([0]));
    for (const call of host.calls.filter((c) => c.name === 'listReports'))
      expect((call.args[0] as { limit?: number }).limit).toBe(BLOCK);

    // Within half a block of the next block (row 751), that block is fetched before any of its
    // rows is in view: scrolling on shows rows, not placeholders.
    await scrollTo(list, 750 * ROW);
    await until('row 751 shown', () => rowsShown(page, list, [751, 752]));
    await until('the block of row 801 asked for ahead', async () => offsets().includes(800));
    expect(await list.locator('[aria-posinset="801"]').count()).toBe(0);

    // Scrolled to row 801: its block (and the one above, for the overscan) is fetched.
    await scrollTo(list, 800 * ROW);
    await until('row 801 shown', () => rowsShown(page, list, [801, 802, 805]));
    expect(offsets()).toContain(800);
    expect(offsets()).not.toContain(1400);
    const before = await scrollTop(list);
    expect(before).toBe(800 * ROW);
    const callsBefore = offsets().length;

    // Two new drafts (at the top of the list) reach the server through the outbox, whose
    // answers tell the page the list changed: it reloads in place.
    for (const title of ['New draft one', 'New draft two']) {
      const draft = await host.engine.createDraft(host.programs.open.id);
      await host.engine.saveDraft(draft.reportId, {
        title,
        asset: 'https://app.example.com/',
        description: 'Steps.',
        cvss_vector: '',
      });
    }
    await expectText(page.getByText(/^[\d,]+ reports/), '1,502 reports', 15_000);
    await until('rows in view again', () => rowsShown(page, list, [801, 802, 805]));
    expect(await scrollTop(list)).toBe(before);
    // The reload asked for the blocks in view only, not every block seen so far.
    const reloaded = offsets().slice(callsBefore);
    expect(reloaded.length).toBeGreaterThan(0);
    expect(reloaded.every((offset) => offset >= 600 && offset <= 800)).toBe(true);

    // A report opens beside the list, which stays in place with the report's row selected.
    const row = list.locator('[aria-posinset="802"]').getByRole('link');
    const title = await row.innerText();
    await row.click();
    await page
      .getByRole('region', { name: 'Open report', exact: true })
      .getByRole('heading', { name: title, exact: true, level: 1 })
      .waitFor();
    expect(await row.getAttribute('aria-current')).toBe('true');
    expect(await scrollTop(list)).toBe(before);
    // To another screen and back: the same place.
    await nav(page, 'Account').click();
    await until('the list gone', async () => (await list.count()) === 0);
    await nav(page, 'Reports').click();
    await until(
      'back in place',
      async () => (await list.count()) === 1 && (await scrollTop(list)) === before,
    );
    await until('rows in view after coming back', () => rowsShown(page, list, [801, 802, 805]));

    // A new search starts at the top.
    await page.getByRole('searchbox', { name: 'Search reports', exact: true }).fill('bulk');
    await expectText(page.getByText(/^[\d,]+ of [\d,]+ reports/), '1,500 of 1,502 reports');
    await until('back at the top', async () => (await scrollTop(list)) === 0);
    // Its rows came first; when their total was a lower bound ("232+": the index's reader stopped
    // after the page's last bucket, or reports still queued for the index), its exact count came
    // next, asked once by the page itself after the rows were in. A page whose reader took every
    // hit (1,502 reports written at once share one 4.7-hour bucket) has the exact total already.
    const searched = host.calls.find(
      (c) => c.name === 'listReports' && (c.args[0] as { search?: string }).search === 'bulk',
    );
    expect(searched?.args[0]).toMatchObject({ offset: 0, limit: BLOCK, rowsFirst: true });
    const counts = host.calls.filter((c) => c.name === 'countReports');
    expect(counts.length).toBeLessThanOrEqual(1);
    for (const count of counts) {
      expect(count.args[0]).toEqual({ search: 'bulk' });
      expect(count.sentAt).toBeGreaterThanOrEqual(searched?.answeredAt ?? Infinity);
    }
  }, 120_000);

  it('a scroll gives the rows that left their nodes to the rows that came; a focused row leaves with its focus', async () => {
    const { app } = await apps.open({
      signedIn: false,
      hash: '#/reports',
      beforeWindow: withBulkReports(REPORTS, (h) => h.mirrorBeforeStart()),
    });
    const { page } = app;
    const list = page.getByRole('list', { name: 'Reports', exact: true });
    await until('the first rows', () => rowsShown(page, list, [1, 2, 3]));
    // Away from the top, where the rows above the view (the overscan) are rendered too.
    await scrollTo(list, 30 * ROW);
    await until('rows 31 to 33 shown', () => rowsShown(page, list, [31, 32, 33]));
    type Marked = { __seen?: boolean; querySelectorAll(s: string): ArrayLike<Marked> };
    // Every row's node as it is now, marked.
    const marked = await list.evaluate((el) => {
      const items = Array.from((el as unknown as Marked).querySelectorAll('[role="listitem"]'));
      for (const item of items) item.__seen = true;
      return items.length;
    });
    expect(marked).toBeGreaterThan(10);
    // 40 rows down, within the first block: every row rendered leaves, as many come.
    await scrollTo(list, 70 * ROW);
    await until('rows 71 to 73 shown', () => rowsShown(page, list, [71, 72, 73]));
    // The list's one tab stop is the first row in view, not a row rendered above it.
    const tabStop = list.locator('a[tabindex="0"]');
    expect(await tabStop.count()).toBe(1);
    await until(
      'the tab stop on row 71',
      async () => (await list.locator('[aria-posinset="71"] a[tabindex="0"]').count()) === 1,
    );
    const after = await list.evaluate((el) =>
      Array.from((el as unknown as Marked).querySelectorAll('[role="listitem"]')).map(
        (item) => item.__seen === true,
      ),
    );
    expect(after.length).toBe(marked);
    expect(after.filter((seen) => !seen)).toEqual([]);

    // The focus on a row's link, then a scroll away: the focus goes with that row's nodes,
    // never left on a node that now shows another report.
    const link = list.locator('[aria-posinset="75"]').getByRole('link');
    const href = await link.getAttribute('href');
    await link.focus();
    // (Within the block read already: the rows that come are reports at once, not placeholders.)
    await scrollTo(list, 150 * ROW);
    await until('row 151 shown', () => rowsShown(page, list, [151, 152]));
    const focused = await page.evaluate(() => {
      const active = (
        globalThis as unknown as {
          document: {
            activeElement: { tagName: string; getAttribute(n: string): string | null } | null;
          };
        }
      ).document.activeElement;
      return active ? { tag: active.tagName, href: active.getAttribute('href') } : null;
    });
    if (focused?.tag === 'A') expect(focused.href).toBe(href);
    else expect(focused?.tag).toBe('BODY');
  }, 120_000);
});

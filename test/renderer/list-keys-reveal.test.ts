import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useAppPerTest } from './support/app';
import { openSeededList } from './support/seeded-list';
import { until } from './support/ui';

interface Box {
  top: number;
  bottom: number;
}
interface El {
  closest(selector: string): El | null;
  getBoundingClientRect(): Box;
  getAttribute(name: string): string | null;
}

/**
 * The arrow keys move the focus down the reports list on a narrow window: the row moved to shows
 * whole. The fourth walk saw the focused row's meta line (status, program, date) cut off by the
 * bottom of the list: focusing its link scrolled only the link into view.
 */
describe('renderer: the row the arrow keys move to shows whole', () => {
  const apps = useAppPerTest('list-keys-reveal');

  /** The focused row's and the list's boxes, and the row's place in the list. */
  const focusedRow = (page: Page): Promise<{ row: Box; list: Box; at: number } | null> =>
    page.evaluate(() => {
      const d = (globalThis as unknown as { document: { activeElement: El | null } }).document;
      const row = d.activeElement?.closest('[role="listitem"]');
      const list = d.activeElement?.closest('.report-scroller');
      if (!row || !list) return null;
      const box = (b: Box): Box => ({ top: b.top, bottom: b.bottom });
      return {
        row: box(row.getBoundingClientRect()),
        list: box(list.getBoundingClientRect()),
        at: Number(row.getAttribute('aria-posinset')),
      };
    });

  it('down and up a list taller than its window, on a narrow window', async () => {
    const { page } = await openSeededList(apps, 60);
    // Narrow: the list alone, its visible part a few rows under the filters.
    await page.setViewportSize({ width: 820, height: 800 });
    const list = page.getByRole('list', { name: 'Reports', exact: true });
    await list.getByRole('link').first().focus();
    await until('the focus on the first row', async () => (await focusedRow(page))?.at === 1);
    const steps: [string, number][] = [
      ...Array.from({ length: 12 }, (_, i): [string, number] => ['ArrowDown', i + 2]),
      ...Array.from({ length: 12 }, (_, i): [string, number] => ['ArrowUp', 12 - i]),
    ];
    for (const [key, at] of steps) {
      await page.keyboard.press(key);
      await until(`the focus on row ${at}`, async () => (await focusedRow(page))?.at === at);
      const seen = await focusedRow(page);
      // Half a pixel for the rounding of the row's translated box.
      expect(seen?.row.top, `row ${at} after ${key}`).toBeGreaterThanOrEqual(
        (seen?.list.top ?? 0) - 0.5,
      );
      expect(seen?.row.bottom, `row ${at} after ${key}`).toBeLessThanOrEqual(
        (seen?.list.bottom ?? 0) + 0.5,
      );
    }
  }, 120_000);
});

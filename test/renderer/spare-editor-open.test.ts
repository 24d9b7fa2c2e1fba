/**
 * Drafts open in an editor made ahead (`editor/spare-editor.ts`), in the built app: the first
 * draft opened after the list sat idle, and the next one (its spare made while the first was
 * open). Each shows its own text, has nothing to undo, and what is typed in it is saved to it.
 * That the spare was taken shows in the page: the editor's root comes in with its document in it,
 * where a new editor's root comes in empty and is filled a moment later.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { sparesMade } from '../../bench/renderer-open';
import { useAppPerTest } from './support/app';
import { openSeededList } from './support/seeded-list';
import { until } from './support/ui';

const REPORTS = 60;

/** For each editor root put in the page from now on: whether its editor was in it already. */
async function watchEditorRoots(page: Page): Promise<() => Promise<boolean[]>> {
  await page.evaluate(() => {
    interface El {
      matches?(selector: string): boolean;
      querySelector(selector: string): unknown;
    }
    const g = globalThis as unknown as {
      document: { body: unknown };
      MutationObserver: new (cb: (records: { addedNodes: ArrayLike<El> }[]) => void) => {
        observe(target: unknown, options: object): void;
      };
      __roots: boolean[];
    };
    g.__roots = [];
    new g.MutationObserver((records) => {
      for (const record of records)
        for (const node of Array.from(record.addedNodes))
          if (node.matches?.('.description-root'))
            g.__roots.push(node.querySelector('[contenteditable]') !== null);
    }).observe(g.document.body, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (globalThis as unknown as { __roots: boolean[] }).__roots);
}

describe('renderer: drafts open in the editor made ahead', () => {
  const apps = useAppPerTest('spare-editor-open');

  it('the first draft after the list sat idle, then the next: each its own text, nothing to undo, typing saved to it', async () => {
    const { page, host } = await openSeededList(apps, REPORTS);
    const roots = await watchEditorRoots(page);
    const drafts = page.locator('[aria-label="Reports"] .report-row:has(.status-draft) a');
    const description = page.getByRole('textbox', { name: 'Description', exact: true });
    const heading = page.locator('.workspace-detail h1');

    for (const [n, typed] of ['first-typed', 'second-typed'].entries()) {
      await until(`spare editor ${n + 1} made`, async () => (await sparesMade(page)) > n, 30_000);
      const link = drafts.nth(n);
      const title = (await link.innerText()).trim();
      const reportId = decodeURIComponent(
        ((await link.getAttribute('href')) ?? '').replace('#/reports/', ''),
      );
      await link.click();
      await until(`"${title}" open`, async () => (await heading.textContent()) === title);
      await description.waitFor();
      expect(await roots(), `the editor roots put in the page, open ${n + 1}`).toEqual(
        Array<boolean>(n + 1).fill(true),
      );

      // The draft's own text: what the engine holds, not the spare's first text nor the last draft.
      const stored = (await host.engine.getReport(reportId))?.draft?.content.description ?? '';
      const firstLine = stored.split('\n').find((line) => line.trim() && !line.startsWith('#'));
      expect(firstLine).toBeTruthy();
      const shown = await description.innerText();
      expect(shown).toContain(firstLine?.trim().slice(0, 60));
      for (const other of ['Authorization: Bearer x', 'poc.txt', 'first-typed'])
        expect(shown).not.toContain(other);

      // Nothing to undo: the load is not an edit.
      await description.click();
      await page.keyboard.press('Control+End');
      await page.keyboard.press('Control+z');
      expect(await description.innerText()).toBe(shown);

      await page.keyboard.type(` ${typed}`);
      await until(
        `"${typed}" saved to its draft`,
        async () =>
          ((await host.engine.getReport(reportId))?.draft?.content.description ?? '').includes(
            typed,
          ),
        15_000,
      );
    }
  }, 180_000);
  it('the toolbar of a draft opened in the spare shows the heading the caret is in, as a new editor does', async () => {
    const { page } = await openSeededList(apps, REPORTS);
    const drafts = page.locator('[aria-label="Reports"] .report-row:has(.status-draft) a');
    const description = page.getByRole('textbox', { name: 'Description', exact: true });
    const heading = page
      .getByRole('toolbar', { name: 'Formatting' })
      .getByRole('button', { name: 'Heading', exact: true });
    const headingPressed = async (): Promise<boolean> =>
      (await heading.getAttribute('aria-pressed')) === 'true';

    await until('a spare editor made', async () => (await sparesMade(page)) > 0, 30_000);
    const link = drafts.first();
    const title = (await link.innerText()).trim();
    await link.click();
    await until(
      `"${title}" open`,
      async () => (await page.locator('.workspace-detail h1').textContent()) === title,
    );

    // The spare read its own first text (a heading first, as a draft's), then the draft's: the
    // caret's heading is the draft's, and the screen is told of it.
    const firstHeading = description.locator('h2').first();
    await firstHeading.click();
    await until('Heading pressed with the caret in the first heading', headingPressed, 5_000);
    await description.locator('p').first().click();
    await until('Heading not pressed in a paragraph', async () => !(await headingPressed()), 5_000);
    await firstHeading.click();
    await until('Heading pressed again', headingPressed, 5_000);
  }, 180_000);
});

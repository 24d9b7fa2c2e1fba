import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { useAppPerTest } from './support/app';
import { caretAtEndOf, goTo, until } from './support/ui';
import { savedDraft } from '../support/drafts';

/**
 * Leaving a code block written in the middle of the template, as a researcher does under a
 * section: the next block is the following section's heading. The third Enter and Escape put the
 * caret on a new line below the block; what is typed next is a paragraph of this section, never
 * the start of the next heading (an earlier version moved the caret into "Actual behavior").
 */
describe('renderer: leaving a code block that a heading follows', () => {
  const apps = useAppPerTest('code-block-leave');
  const SECTION_LINE = 'The redirect target is rejected.';

  const description = (page: Page): Locator =>
    page.getByRole('textbox', { name: 'Description', exact: true });

  /** A template draft, open, a code block typed under "Expected behavior" (a heading next). */
  async function blockBeforeHeading(): Promise<{ page: Page; markdown(): Promise<string> }> {
    const { host, page } = await apps.open();
    const draft = await savedDraft(host, { title: 'A code block under a section' });
    await goTo(page, `#/reports/${draft.reportId}`);
    const line = description(page).getByText(SECTION_LINE, { exact: true });
    await line.waitFor();
    await caretAtEndOf(line, SECTION_LINE);
    await page.keyboard.press('Enter');
    await page.keyboard.type('```');
    await page.keyboard.press('Enter');
    await page.keyboard.type('GET /api/v2/users/4411 HTTP/1.1');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Host: api.example.com');
    const markdown = async (): Promise<string> =>
      (await host.engine.getReport(draft.reportId))?.draft?.content.description ?? '';
    return { page, markdown };
  }

  const EXPECTED =
    '## Expected behavior\n\nThe redirect target is rejected.\n\n```\nGET /api/v2/users/4411 HTTP/1.1\nHost: api.example.com\n```\n\nThe server answers 403.\n\n## Actual behavior\n\nThe script runs after login.\n';

  async function expectSaved(page: Page, markdown: () => Promise<string>): Promise<void> {
    await until('the line after the block saved', async () =>
      (await markdown()).includes('The server answers 403.'),
    );
    expect(await markdown()).toContain(EXPECTED);
    await expect
      .poll(() =>
        description(page).getByRole('heading', { name: 'Actual behavior', exact: true }).count(),
      )
      .toBe(1);
  }

  it('three Enters at the end of the block: the next line is a paragraph above the next heading', async () => {
    const { page, markdown } = await blockBeforeHeading();
    for (let i = 0; i < 3; i++) await page.keyboard.press('Enter');
    await page.keyboard.type('The server answers 403.');
    await expectSaved(page, markdown);
  }, 120_000);

  // A walk pressed Enter twice, as after a paragraph, and typed its prose and a table into the
  // request: the block holding the caret says how to leave it, without moving a line.
  it('the block with the caret says how to leave it, and nothing moves when it does', async () => {
    const { page } = await blockBeforeHeading();
    const block = description(page).locator('pre');
    const hint = (): Promise<string> =>
      block.evaluate((el) => {
        const g = globalThis as unknown as {
          getComputedStyle(e: unknown, pseudo: string): { content: string };
        };
        return g.getComputedStyle(el, '::after').content;
      });
    const height = (): Promise<number> =>
      block.evaluate((el) => (el as unknown as { offsetHeight: number }).offsetHeight);
    expect(await hint()).toBe('"Esc, or Enter three times at the end, leaves the block"');
    const inside = await height();
    await page.keyboard.press('Escape');
    await until('the hint gone with the caret', async () => (await hint()) === 'none');
    expect(await height()).toBe(inside);
    // Back in, by a click on its first line: said again.
    await description(page)
      .getByText(/^GET \/api\/v2\/users\/4411/)
      .click();
    await until('the hint back', async () => (await hint()) !== 'none');

    // Typed on at the pane's foot, the way out stays in view (walk 20: below the pane's edge).
    await page.setViewportSize({ width: 1280, height: 520 });
    // To the end of the block's last line ("Host: …"), where a request is typed on.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    const foot = (): Promise<{ block: number; pane: number }> =>
      block.evaluate((el) => {
        type Box = { getBoundingClientRect(): { bottom: number } };
        type El = Box & { parentElement: El | null; scrollHeight: number; clientHeight: number };
        const g = globalThis as unknown as { getComputedStyle(e: El): { overflowY: string } };
        let pane = (el as unknown as El).parentElement;
        while (
          pane &&
          !(
            /auto|scroll/.test(g.getComputedStyle(pane).overflowY) &&
            pane.scrollHeight > pane.clientHeight
          )
        )
          pane = pane.parentElement;
        return {
          block: (el as unknown as Box).getBoundingClientRect().bottom,
          pane: pane?.getBoundingClientRect().bottom ?? 0,
        };
      });
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press('Enter');
      await page.keyboard.type(`X-Trace-${i}: 4411-${i}`);
    }
    expect(await hint()).not.toBe('none');
    const at = await foot();
    expect(at.block, JSON.stringify(at)).toBeLessThanOrEqual(at.pane);
  }, 120_000);

  it('Escape in the block: the next line is a paragraph above the next heading', async () => {
    const { page, markdown } = await blockBeforeHeading();
    await page.keyboard.press('Escape');
    await page.keyboard.type('The server answers 403.');
    await expectSaved(page, markdown);
  }, 120_000);
});

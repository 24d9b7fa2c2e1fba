import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { useAppPerTest } from './support/app';
import { caretAtEndOf, goTo, until } from './support/ui';
import { savedDraft } from '../support/drafts';

/**
 * Inline code switched on and off with Ctrl+E and nothing selected, then writing on: what is typed
 * after it is Markdown typing as anywhere else. An earlier version took over every keystroke once
 * code was switched off, so "1. " on the next line stayed text (sent as "1\. ") and no list,
 * heading or quote could be started until the caret was clicked elsewhere.
 */
describe('renderer: typing after inline code switched off with Ctrl+E', () => {
  const apps = useAppPerTest('inline-code-then-typing');
  const LINE = 'The script runs after login.';

  const description = (page: Page): Locator =>
    page.getByRole('textbox', { name: 'Description', exact: true });

  it('"1. " typed on the next line starts a numbered list', async () => {
    const { host, page } = await apps.open();
    const draft = await savedDraft(host, { title: 'Inline code, then a list' });
    await goTo(page, `#/reports/${draft.reportId}`);
    const line = description(page).getByText(LINE, { exact: true });
    await line.waitFor();
    await caretAtEndOf(line, LINE);
    const lists = await description(page).locator('ol').count();
    await page.keyboard.press('Enter');
    await page.keyboard.type('The response echoes ');
    await page.keyboard.press('Control+e');
    await page.keyboard.type('role');
    await page.keyboard.press('Control+e');
    await page.keyboard.type(' as admin.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('1. Log in as user A');
    const markdown = async (): Promise<string> =>
      (await host.engine.getReport(draft.reportId))?.draft?.content.description ?? '';
    await until('the list saved', async () => (await markdown()).includes('Log in as user A'));
    expect(await markdown()).toContain(
      `${LINE}\n\nThe response echoes \`role\` as admin.\n\n1. Log in as user A\n`,
    );
    expect(await description(page).locator('ol').count()).toBe(lists + 1);
  }, 120_000);

  it('Enter ends inline code: the next paragraph is plain text', async () => {
    const { host, page } = await apps.open();
    const draft = await savedDraft(host, { title: 'Inline code, then Enter' });
    await goTo(page, `#/reports/${draft.reportId}`);
    const line = description(page).getByText(LINE, { exact: true });
    await line.waitFor();
    await caretAtEndOf(line, LINE);
    await page.keyboard.press('Enter');
    await page.keyboard.type('Send ');
    await page.keyboard.press('Control+e');
    await page.keyboard.type('Authorization: Bearer <token>');
    await page.keyboard.press('Enter');
    await page.keyboard.type('On *.example.com every host answers.');
    const markdown = async (): Promise<string> =>
      (await host.engine.getReport(draft.reportId))?.draft?.content.description ?? '';
    await until('the line saved', async () => (await markdown()).includes('every host answers'));
    expect(await markdown()).toContain(
      `${LINE}\n\nSend \`Authorization: Bearer <token>\`\n\nOn *.example.com every host answers.\n`,
    );
  }, 120_000);
});

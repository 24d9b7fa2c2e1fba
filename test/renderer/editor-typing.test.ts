import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Report } from '../../src/shared/api';
import { useAppPerTest, type OpenApp } from './support/app';
import { caretAtEndOf, goTo, until } from './support/ui';
import { COMPLETE_DESCRIPTION } from '../support/fixtures';

/**
 * The description editor as a researcher types in it, through the app as built (issue 22): typed
 * payloads and redaction marks reach the server byte for byte, a table typed row by row is a
 * table, the formatting toolbar and its shortcuts, leaving a code block.
 */
describe('renderer: typing in the description editor', () => {
  const apps = useAppPerTest('editor-typing');
  const LAST_LINE = 'Session theft through a crafted link.';

  const description = (page: Page): Locator =>
    page.getByRole('textbox', { name: 'Description', exact: true });

  /** A draft with the complete template, open, the caret at the end of its last line. */
  async function draftAtEnd(): Promise<
    OpenApp & { reportId: string; markdown(): Promise<string> }
  > {
    const opened = await apps.open();
    const { host, page } = opened;
    const draft = await host.engine.createDraft(host.programs.open.id);
    await host.engine.saveDraft(draft.reportId, {
      title: 'Typed in the editor',
      asset: 'https://app.example.com/',
      description: COMPLETE_DESCRIPTION,
      cvss_vector: '',
    });
    await goTo(page, `#/reports/${draft.reportId}`);
    const editor = description(page);
    await editor.getByText(LAST_LINE, { exact: true }).waitFor();
    await caretAtEndOf(editor.getByText(LAST_LINE, { exact: true }), LAST_LINE);
    const markdown = async (): Promise<string> =>
      (await host.engine.getReport(draft.reportId))?.draft?.content.description ?? '';
    return { ...opened, reportId: draft.reportId, markdown };
  }

  it('payloads, redaction marks and a table typed row by row reach the server as typed', async () => {
    const { page, host, reportId, markdown } = await draftAtEnd();
    const lines = [
      'Key: [REDACTED:aws-access-key] in the response.',
      'Payload <img src=x onerror=alert(1)> in the name field.',
      "Also {{7*7}} and ' OR 1=1-- and C:\\Users\\me.",
    ];
    for (const line of lines) {
      await page.keyboard.press('Enter');
      await page.keyboard.type(line);
    }
    const table = ['| id | name |', '| --- | --- |', '| 1 | admin |', '| 2 | guest |'];
    for (const row of table) {
      await page.keyboard.press('Enter');
      await page.keyboard.type(row);
    }
    const expected = `${COMPLETE_DESCRIPTION.trimEnd()}\n\n${lines.join('\n\n')}\n\n${table.join('\n')}\n`;
    await until('the typed text saved', async () => (await markdown()) === expected, 15_000);
    // Typed on below the table: the rows stay a table, drawn as one.
    await page.keyboard.press('Enter');
    await page.keyboard.type('Seen on Chrome.');
    await until(
      'the last line saved',
      async () => (await markdown()) === `${expected}\nSeen on Chrome.\n`,
      15_000,
    );
    expect(await description(page).locator('table tr').count()).toBe(3);
    // Saved, sent, and on the server byte for byte.
    await until(
      'the draft on the server',
      async () =>
        (await host.sandbox.api<Report>('GET', `/api/reports/${reportId}`, { token: host.key }))
          .body.description === `${expected}\nSeen on Chrome.\n`,
      20_000,
    );
  });
});

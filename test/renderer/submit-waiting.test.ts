import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Report } from '../support/sandbox-client';
import { savedDraft } from '../support/drafts';
import { COMPLETE_DESCRIPTION } from '../support/fixtures';
import { useAppPerTest } from './support/app';
import { connection, expectText, goTo, placeInPage, until } from './support/ui';

/**
 * A draft submitted offline waits for the server as a whole: its description takes no typing
 * (a walk of the app typed into it, the first character went out with the report and the rest
 * was dropped unsaid), and it cannot be submitted or discarded a second time meanwhile (the walk
 * queued save, submit, save, submit).
 */
describe('renderer: a draft whose submit waits for the server', () => {
  const apps = useAppPerTest('submit-waiting');
  const TITLE = 'IDOR on the invoice export';

  /** The text of the element with the keyboard focus ('' for the page's body). */
  const focused = (page: Page): Promise<string> =>
    page.evaluate(() => {
      const g = globalThis as unknown as {
        document: { activeElement: { textContent: string | null } | null; body: unknown };
      };
      const active = g.document.activeElement;
      return active && active !== g.document.body ? (active.textContent ?? '').trim() : '';
    });

  it('is locked, the editor too, and goes out once, as it was when submitted', async () => {
    const { host, page } = await apps.open({
      beforeWindow: async (h) => {
        await h.engine.syncNow();
      },
    });
    const { reportId } = await savedDraft(host, {
      title: TITLE,
    });
    await host.engine.syncNow();
    await goTo(page, `#/reports/${reportId}`);
    const editor = page.getByRole('textbox', { name: 'Description', exact: true });
    await editor.getByText('Steps to reproduce', { exact: true }).waitFor();
    const submitButton = page.getByRole('button', { name: 'Check and submit', exact: true });
    const row = page
      .getByRole('list', { name: 'Reports', exact: true })
      .getByRole('listitem')
      .filter({ hasText: TITLE });
    expect(await editor.getAttribute('contenteditable')).toBe('true');
    // How the fields look, to compare once they are locked.
    const look = (field: Locator): Promise<string> =>
      field.evaluate((el) => {
        type Styled = { closest(s: string): Styled | null };
        const g = globalThis as unknown as {
          getComputedStyle(n: Styled): { backgroundColor: string; borderTopStyle: string };
        };
        const node = el as unknown as Styled;
        const style = g.getComputedStyle(node.closest('.description-host') ?? node);
        return `${style.backgroundColor} ${style.borderTopStyle}`;
      });
    const editable = [
      await look(editor),
      await look(page.getByRole('textbox', { name: 'Title', exact: true })),
    ];
    // Where the title stands in the page, whatever the pane's scroll: moved only by what comes
    // above it (a walk saw a line come in there after the submit).
    const title = page.getByRole('textbox', { name: 'Title', exact: true });
    const place = (): Promise<number> => placeInPage(title);
    const before = await place();

    await host.sandbox.faults({ rate: 1, reset_connection: true, seed: 11 });
    try {
      await page.getByRole('button', { name: 'Sync now', exact: true }).click();
      await expectText(connection(page), /Offline/, 30_000);
      await submitButton.click();
      const dialog = page.getByRole('dialog', { name: 'Submit checklist', exact: true });
      const submit = dialog.getByRole('button', { name: 'Submit report', exact: true });
      await until('"Submit report" enabled', () => submit.isEnabled(), 20_000);
      // Its "Passed" is this computer's, from the last sync: said while offline.
      await expectText(dialog, /Offline: checked against what was last synced\./);
      await submit.click();

      await until('"Check and submit" disabled', () => submitButton.isDisabled());
      const reason = await submitButton.getAttribute('aria-describedby');
      // Submitted, not "being submitted": offline nothing is under way. The save line says it,
      // and why nothing can be typed: no line of its own comes in above the fields.
      const said =
        'Submitted on this computer; sent to the service when the connection returns. It can no longer be edited.';
      await expectText(
        page.locator(`[id="${reason}"]`),
        new RegExp(`^${said.replace(/[.;]/g, '\\$&')}$`),
      );
      expect(await page.locator('.save-state').getAttribute('id')).toBe(reason);
      expect(await place()).toBe(before);
      // The dialog's opener is disabled now: the focus goes to the line that says why.
      await until('the focus on the reason', async () => (await focused(page)) === said);
      // Each locked control and field points to that line; the submit row says it too, not
      // every disabled button.
      for (const control of [
        editor,
        page.getByRole('textbox', { name: 'Title', exact: true }),
        page.getByRole('button', { name: 'Attach files', exact: true }),
      ])
        expect((await control.getAttribute('aria-describedby'))?.split(' ')).toContain(reason);
      expect(await page.getByText('Submitted: the report can no longer be edited.').count()).toBe(
        1,
      );
      expect(
        await page.getByRole('button', { name: 'Discard draft', exact: true }).isDisabled(),
      ).toBe(true);
      // The lock reaches the editor at once, not on its next keystroke.
      expect(await editor.getAttribute('contenteditable')).toBe('false');
      expect(await editor.getAttribute('aria-readonly')).toBe('true');
      // And they look locked, not like white boxes to type in (walk 17).
      const locked = [await look(editor), await look(title)];
      expect(locked.filter((style, i) => style === editable[i])).toEqual([]);
      const shown = await editor.innerText();
      await editor.getByText('Steps to reproduce', { exact: true }).click();
      await page.keyboard.type(' and one more step');
      await page.keyboard.press('Enter');
      expect(await editor.innerText()).toBe(shown);
      const waiting = await host.engine.getReport(reportId);
      expect(waiting?.draft?.content.description).toBe(COMPLETE_DESCRIPTION);
      expect(waiting?.outbox.filter((e) => e.kind === 'submit')).toHaveLength(1);
      // The list beside it says what is on its way: a walk read "Draft · Unsent" there.
      await expectText(row.locator('.status'), /^Submitting$/);
      await expectText(row, /Unsent/);
    } finally {
      await host.sandbox.clearFaults();
    }

    // Back with the focus where the submit left it (the typing above clicked it away), and the
    // service reached without a click that would move it.
    await page.locator('#draft-locked').focus();
    await host.engine.syncNow();
    const server = async (): Promise<Report> =>
      (await host.sandbox.api<Report>('GET', `/api/reports/${reportId}`, { token: host.key })).body;
    await until(
      'the server has the submission',
      async () => (await server()).status !== 'draft',
      30_000,
    );
    expect((await server()).submission?.content.description).toBe(COMPLETE_DESCRIPTION);
    await expectText(row.locator('.status'), /^In triage$/, 20_000);
    // The status filter beside the list says it as the row does (a walk read "Triaging (1)").
    const filter = page.getByRole('group', { name: 'Status', exact: true });
    await filter.getByRole('checkbox', { name: /^In triage \(\d+\)$/ }).waitFor();
    expect(await filter.getByRole('checkbox', { name: /^Triaging/ }).count()).toBe(0);
    // The draft turns into its submitted page: the focus goes to its heading, not the window.
    await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor({ timeout: 20_000 });
    await until('the focus on the heading', async () => (await focused(page)) === TITLE);
    // A second submit would have come back refused (the report is no draft now) and waited for
    // the researcher.
    await until('nothing unsent', async () => (await host.engine.getStatus()).unsent === 0, 20_000);
    expect((await host.engine.getStatus()).needsAction).toBe(0);
    // With no report left in triage, the service's word stays (walk 19 read "Triaging (0)").
    await host.sandbox.askForInformation(reportId, 'Which tenant did the PATCH run against?');
    await host.engine.syncNow();
    await filter
      .getByRole('checkbox', { name: /^Needs your input \(1\)$/ })
      .waitFor({ timeout: 20_000 });
    await filter.getByRole('checkbox', { name: 'In triage (0)', exact: true }).waitFor();
    expect(await filter.getByRole('checkbox', { name: /^Triaging/ }).count()).toBe(0);
  }, 120_000);
});

import { describe, expect, it } from 'vitest';
import { savedDraft } from '../support/drafts';
import { reportText } from '../support/report-texts';
import { useAppPerFile } from './support/app';
import { hasFocus, caretAtEndOf, expectText, goTo, until } from './support/ui';
import { watchInvokes } from './support/invokes';
import { saveOpenDraftAsTemplate } from './support/templates';

/**
 * The Templates dialog by mouse and keyboard: a walk of the app found no way to close its list
 * but Escape, and the focus dropped to the page when a step opened or closed.
 */
describe('renderer: the Templates dialog', () => {
  const opened = useAppPerFile('templates-dialog', {});

  it('each step takes the focus, and gives it back to the button that opened it; Close closes', async () => {
    const { host, page } = opened;
    const { reportId } = await savedDraft(host, {
      title: 'InfluxDB authentication bypass',
      asset: 'https://metrics.example.com:8086/',
      // A real report: a request with a bearer token in a code block.
      description: reportText('vulhub--influxdb-CVE-2019-20933.md'),
    });
    await goTo(page, `#/reports/${reportId}`);
    await page.getByRole('heading', { name: 'InfluxDB authentication bypass' }).waitFor();
    const { dialog } = await saveOpenDraftAsTemplate(page, 'Auth bypass');

    const use = dialog.getByRole('button', { name: 'New report from “Auth bypass”' });
    await use.click();
    await until('the program list has the focus', () => hasFocus(dialog.getByLabel('Program')));
    await dialog.getByRole('button', { name: 'Back', exact: true }).click();
    await until('"New report from" has the focus again', () => hasFocus(use));

    const edit = dialog.getByRole('button', { name: 'Edit “Auth bypass”' });
    await edit.press('Enter');
    await until('the name field has the focus', () => hasFocus(dialog.getByLabel('Template name')));
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await until('"Edit" has the focus again', () => hasFocus(edit));

    // Escape in a step leaves the step, not the dialog; the list's "Saved template" is gone.
    const listWidth = (await dialog.boundingBox())?.width;
    await edit.press('Enter');
    await until('the name field has the focus', () => hasFocus(dialog.getByLabel('Template name')));
    // The step is as wide as the list was: the dialog does not jump.
    expect((await dialog.boundingBox())?.width).toBe(listWidth);
    // Its two buttons stand apart (a walk found them touching).
    const save = await dialog
      .getByRole('button', { name: 'Save template', exact: true })
      .boundingBox();
    const cancel = await dialog.getByRole('button', { name: 'Cancel', exact: true }).boundingBox();
    expect((cancel?.x ?? 0) - ((save?.x ?? 0) + (save?.width ?? 0))).toBeGreaterThanOrEqual(8);
    expect(await dialog.getByText(/^Saved template/u).count()).toBe(0);
    await page.keyboard.press('Escape');
    await until('"Edit" has the focus after Escape', () => hasFocus(edit));
    expect(await dialog.isVisible()).toBe(true);

    // Escape in a step again and again, by keyboard and after clicks: each leaves the step only,
    // with the text typed in it gone with the step, never the whole dialog (left to the dialog's
    // cancel, Chromium shut the dialog at the third: a walk).
    for (let i = 0; i < 5; i++) {
      if (i % 2 === 0) await edit.click();
      else await edit.press('Enter');
      await dialog.getByLabel('Template name').waitFor();
      await dialog.getByLabel('Template name').fill(`Auth bypass on *.example.com ${i}`);
      await page.keyboard.press('Escape');
      await until(`Escape ${i + 1}: "Edit" has the focus in the list`, () => hasFocus(edit));
      expect(await dialog.isVisible()).toBe(true);
    }

    // Shut by the browser, not by the app (what Chromium does to a dialog whose cancel the page
    // refused too often): the app follows, no dialog is left rendered but shut, and "Templates…"
    // opens it again (a walk found it opened nothing).
    const templatesButton = page
      .getByRole('group', { name: 'Reports as Markdown files' })
      .getByRole('button', { name: 'Templates…' });
    await dialog.evaluate((el) => (el as unknown as { close(): void }).close());
    await until(
      'the dialog gone, none left shut',
      async () =>
        (await dialog.count()) === 0 && (await page.locator('dialog:not([open])').count()) === 0,
    );
    await templatesButton.click();
    await dialog.getByRole('button', { name: 'New template', exact: true }).waitFor();

    await dialog.getByRole('button', { name: 'Delete “Auth bypass”' }).click();
    const newTemplate = dialog.getByRole('button', { name: 'New template', exact: true });
    await until('the focus stays in the list', () => hasFocus(newTemplate));

    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const opener = page
      .getByRole('group', { name: 'Reports as Markdown files' })
      .getByRole('button', { name: 'Templates…' });
    expect(await hasFocus(opener)).toBe(true);
  });

  // A walk saw the last moments of typing missing from the template: the dialog read the stored
  // draft while the editor's save was still to come (300 ms after the last keystroke).
  it('"Save open draft as template" holds what was typed just before', async () => {
    const { host, page } = opened;
    const last = 'The token is accepted on every host under *.example.com.';
    const { reportId } = await savedDraft(host, {
      title: 'InfluxDB JWT with an empty secret',
      asset: 'https://metrics.example.com:8086/',
      description: `${reportText('vulhub--influxdb-CVE-2019-20933.md')}\n\n${last}\n`,
    });
    await goTo(page, `#/reports/${reportId}`);
    const description = page.getByRole('textbox', { name: 'Description', exact: true });
    await caretAtEndOf(description.getByText(last), last);
    // The engine is busy with the draft's saves (held) while the template is saved.
    const invokes = await watchInvokes(page, /^bridge:call:saveDraft$/u);
    const typed = ' Tested with C:\\Users\\me\\token.txt.';
    await page.keyboard.type(typed);
    const bar = page.getByRole('group', { name: 'Reports as Markdown files' });
    await bar.getByRole('button', { name: 'Templates…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Templates' });
    await dialog.getByLabel('Template name').fill('Typed last');
    await dialog.getByRole('button', { name: 'Save open draft as template' }).click();
    await until('the draft save is asked for', async () => (await invokes.count('saveDraft')) > 0);
    await invokes.release();
    await expectText(dialog.getByRole('status'), /^Saved template “Typed last”/u);
    const saved = (await host.engine.listTemplates()).find((t) => t.name === 'Typed last');
    expect(saved?.body).toContain(`${last}${typed}`);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  });

  // A walk's report from a template went to the program listed first, not the one it worked in,
  // and the focus stayed behind on "Templates…".
  it("a report from a template starts in the open draft's program, or in none chosen for it; the focus goes to it", async () => {
    const { host, page } = opened;
    const { reportId } = await savedDraft(host, {
      title: 'SSRF through the PDF export',
      asset: 'https://app.example.com/export',
      description: reportText('vulhub--influxdb-CVE-2019-20933.md'),
    });
    await goTo(page, `#/reports/${reportId}`);
    await page.getByRole('heading', { name: 'SSRF through the PDF export' }).waitFor();
    const { dialog } = await saveOpenDraftAsTemplate(page, 'SSRF');
    const use = dialog.getByRole('button', { name: 'New report from “SSRF”' });
    await use.click();
    const program = dialog.getByLabel('Program');
    await until(
      "the draft's program chosen",
      async () => (await program.inputValue()) === host.programs.open.id,
    );
    await dialog.getByRole('button', { name: 'Back', exact: true }).click();
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();

    // With no draft open, no program is chosen for the researcher.
    await goTo(page, '#/reports');
    await page
      .getByRole('group', { name: 'Reports as Markdown files' })
      .getByRole('button', { name: 'Templates…' })
      .click();
    await use.click();
    await until('the programs listed', async () => (await program.locator('option').count()) > 1);
    expect(await program.inputValue()).toBe('');
    const start = dialog.getByRole('button', { name: 'Start report', exact: true });
    expect(await start.isDisabled()).toBe(true);
    await program.selectOption(host.programs.open.id);
    await dialog.getByLabel('Report title').fill('SSRF in the avatar import');
    await dialog.getByLabel('Report asset').fill('https://*.example.com/avatar');
    await start.click();
    await dialog.waitFor({ state: 'detached' });
    const heading = page
      .getByRole('region', { name: 'Open report' })
      .getByRole('heading', { name: 'SSRF in the avatar import', level: 1 });
    await until("the new report's heading has the focus", () => hasFocus(heading));
  });
});

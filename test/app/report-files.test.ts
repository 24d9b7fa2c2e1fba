import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReportFile } from '../../src/engine/report-files/front-matter';
import { fileLinkTarget } from '../../src/shared/rules';
import type { ReportDetailView } from '../../src/shared/bridge/views';
import { COMPLETE_DESCRIPTION } from '../support/fixtures';
import { useAppPerTest } from '../renderer/support/app';
import { tempDirsPerTest } from '../support/temp-dirs';
import { goTo, hashOf, hasFocus, until } from '../renderer/support/ui';
import { saveOpenDraftAsTemplate, startReportFromTemplate } from '../renderer/support/templates';
import type { AppHost } from './host';

/**
 * Through the built app: the reports list's buttons ask main's dialogs for the folder
 * (the page never names a path), the engine writes and reads the files; an exported folder
 * imports back as the same draft, and a bad file is refused with its line, nothing imported.
 */
describe('reports as Markdown files, through the built app', () => {
  const apps = useAppPerTest('report-files');
  const tempDir = tempDirsPerTest();

  async function draft(host: AppHost): Promise<string> {
    const { reportId } = await host.engine.createDraft(host.programs.open.id);
    const description = `${COMPLETE_DESCRIPTION}\n---\ntitle: inside the description\n---\n\n\`\`\`http\nGET /search?q="><svg/onload=alert(1)> HTTP/1.1\n\`\`\`\n`;
    await host.engine.saveDraft(reportId, {
      title: 'Reflected XSS in search',
      asset: 'https://app.example.com/search',
      description,
      cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
    });
    const poc = await host.tokenFor(await host.file('poc request.txt', 'GET /search?q=x\n'));
    await host.engine.attachFiles(reportId, [{ file: poc, insertAt: description.length }]);
    await host.settled();
    return reportId;
  }

  const names = (view: ReportDetailView | null) =>
    new Map((view?.evidence ?? []).map((e) => [e.fileId, e.name]));
  const relabel = (view: ReportDetailView | null) =>
    [...names(view)].reduce(
      (text, [fileId, name]) =>
        text.split(fileLinkTarget(view?.id ?? '', fileId)).join(`<${name}>`),
      view?.draft?.content.description ?? '',
    );

  it('exports the open draft to the folder picked in main, and imports that folder back as the same draft', async () => {
    const { host, page } = await apps.open();
    const reportId = await draft(host);
    const out = await tempDir('export-');
    await goTo(page, `#/reports/${reportId}`);
    const bar = page.getByRole('group', { name: 'Reports as Markdown files' });
    await bar.getByRole('button', { name: 'Export report…' }).waitFor();

    host.pickInDialog([out]);
    await bar.getByRole('button', { name: 'Export report…' }).click();
    await bar
      .getByRole('status')
      .filter({ hasText: `Exported 1 report to ${out}` })
      .waitFor();
    const dialog = host.start().dialogs.at(-1);
    expect(dialog?.kind).toBe('open');
    expect(JSON.stringify(dialog?.options)).toContain('openDirectory');

    const [folder = ''] = await readdir(out);
    expect(folder).toMatch(/^reflected-xss-in-search-[0-9a-f]{8}$/);
    expect((await readdir(join(out, folder))).sort()).toEqual(['files', 'report.md', 'thread.md']);
    expect(await readFile(join(out, folder, 'files', 'poc request.txt'), 'utf8')).toBe(
      'GET /search?q=x\n',
    );
    const text = await readFile(join(out, folder, 'report.md'), 'utf8');
    expect(
      text.startsWith(`---\nreport_id: ${reportId}\nprogram: ${host.programs.open.id}\n`),
    ).toBe(true);
    expect(text).toContain('[poc request.txt](files/poc%20request.txt)');
    const parsed = parseReportFile(text);
    expect(parsed).toMatchObject({ ok: true, meta: { title: 'Reflected XSS in search' } });

    // Import the folder: a new draft, opened, with the same content and its own copy of the file.
    const before = await host.engine.getReport(reportId);
    host.pickInDialog([out]);
    await bar.getByRole('button', { name: 'Import folder…' }).click();
    await bar
      .getByRole('status')
      .filter({ hasText: 'Imported 1 draft: Reflected XSS in search' })
      .waitFor();
    await until(
      'the imported draft opened',
      async () => (await hashOf(page)) !== `#/reports/${reportId}`,
    );
    const newId = (await hashOf(page)).replace('#/reports/', '');
    const after = await host.engine.getReport(newId);
    expect(after?.draft?.content.title).toBe(before?.draft?.content.title);
    expect(after?.draft?.content.asset).toBe(before?.draft?.content.asset);
    expect(after?.draft?.content.cvss_vector).toBe(before?.draft?.content.cvss_vector);
    expect(relabel(after)).toBe(relabel(before));
    expect([...names(after).values()]).toEqual(['poc request.txt']);
    await page.getByRole('textbox', { name: 'Title' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Title' }).inputValue()).toBe(
      'Reflected XSS in search',
    );
  });

  // A walk cancelled "Import folder…" from the keyboard and the focus fell to the window: the
  // button is disabled while main's dialog is open.
  it('a dialog cancelled gives the focus back to the button that opened it', async () => {
    const { host, page } = await apps.open();
    const reportId = await draft(host);
    await goTo(page, `#/reports/${reportId}`);
    const bar = page.getByRole('group', { name: 'Reports as Markdown files' });
    for (const name of ['Import folder…', 'Import Markdown…', 'Export report…']) {
      const button = bar.getByRole('button', { name, exact: true });
      await button.focus();
      const dialogs = host.start().dialogs.length;
      // Nothing picked: main's stand-in answers as a cancelled dialog.
      await page.keyboard.press('Enter');
      await until(`the dialog of "${name}" asked for`, () => host.start().dialogs.length > dialogs);
      await until(`the focus back on "${name}"`, () => hasFocus(button));
    }
    expect(await bar.getByRole('status').count()).toBe(0);
    expect(await bar.getByRole('alert').count()).toBe(0);
  });

  it('a bad file gets a message naming its line, and nothing is imported', async () => {
    const { host, page } = await apps.open();
    const out = await tempDir('import-');
    await mkdir(join(out, 'files'));
    const good = join(out, 'good.md');
    const bad = join(out, 'bad.md');
    await writeFile(good, `---\nprogram: ${host.programs.open.id}\ntitle: Fine\n---\nbody\n`);
    await writeFile(
      bad,
      `---\ntitle: IDOR\nprogram: no-such-program\nasset: https://x.example\n---\n## Steps to reproduce\n\n![shot](files/missing.png)\n`,
    );
    const total = (await host.engine.listReports({})).total;
    await goTo(page, '#/reports');
    const bar = page.getByRole('group', { name: 'Reports as Markdown files' });
    host.pickInDialog([good, bad]);
    await bar.getByRole('button', { name: 'Import Markdown…' }).click();
    const alert = bar.getByRole('alert');
    await alert.waitFor();
    await expect.poll(() => alert.innerText()).toMatch(/Nothing was imported: 2 problems/);
    const text = await alert.innerText();
    expect(text).toContain('bad.md line 3: program: there is no program "no-such-program"');
    expect(text).toContain(
      'bad.md line 8: description: the linked file "files/missing.png" does not exist',
    );
    expect((await host.engine.listReports({})).total).toBe(total);
  });

  it('the part of a description selected in the editor is saved as a template, with placeholders', async () => {
    const { host, page } = await apps.open();
    const { reportId } = await host.engine.createDraft(host.programs.open.id);
    await host.engine.saveDraft(reportId, {
      title: 'Open redirect on login',
      asset: 'https://login.example.com',
      description:
        '## Steps to reproduce\n\n1. Open https://login.example.com/?next=//evil.example\n\n' +
        '## Security impact\n\nPhishing with a trusted link to https://login.example.com.\n',
      cvss_vector: '',
    });
    await goTo(page, `#/reports/${reportId}`);
    const editor = page.getByRole('textbox', { name: 'Description', exact: true });
    // From the start of the last section's heading to the end: that section alone.
    await editor.getByRole('heading', { name: 'Security impact' }).click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Control+Shift+End');
    await page.getByRole('button', { name: 'Save as template…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save as template' });
    await expect.poll(() => dialog.textContent()).toMatch(/The selected part \(\d+ characters\)/);
    await dialog.getByLabel('Template name').fill('Impact: open redirect');
    await dialog.getByRole('button', { name: 'Save template' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Saved template “Impact: open redirect”' })
      .waitFor();
    const [template] = await host.engine.listTemplates();
    expect(template?.body).toBe(
      '## Security impact\n\nPhishing with a trusted link to {{asset}}.\n',
    );

    // Nothing selected: the whole description.
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.getByRole('button', { name: 'Save as template…' }).click();
    await expect
      .poll(() => page.getByRole('dialog', { name: 'Save as template' }).textContent())
      .toMatch(/Nothing is selected: the whole description/);
  });

  it('a template saved from a draft starts a new report with its placeholders filled', async () => {
    const { host, page } = await apps.open();
    const program = host.programs.open;
    const { reportId } = await host.engine.createDraft(program.id);
    await host.engine.saveDraft(reportId, {
      title: 'Open redirect on login',
      asset: 'https://login.example.com',
      description:
        '## Steps to reproduce\n\n1. Open https://login.example.com/?next=//evil.example\n\n' +
        '## Security impact\n\nPhishing with a trusted link.\n',
      cvss_vector: '',
    });
    await goTo(page, `#/reports/${reportId}`);
    const { dialog } = await saveOpenDraftAsTemplate(page, 'Open redirect');
    const [template] = await host.engine.listTemplates();
    expect(template?.body).toContain('1. Open {{asset}}/?next=//evil.example');

    const newId = await startReportFromTemplate(page, dialog, 'Open redirect', {
      programId: program.id,
      title: 'Open redirect on signup',
      asset: 'https://signup.example.com',
      fromId: reportId,
    });
    const started = await host.engine.getReport(newId);
    expect(started?.draft?.programId).toBe(program.id);
    expect(started?.draft?.content).toMatchObject({
      title: 'Open redirect on signup',
      asset: 'https://signup.example.com',
      description:
        '## Steps to reproduce\n\n1. Open https://signup.example.com/?next=//evil.example\n\n' +
        '## Expected behavior\n\n## Actual behavior\n\n' +
        '## Security impact\n\nPhishing with a trusted link.\n\n',
    });
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Title' }).inputValue())
      .toBe('Open redirect on signup');
  });

  it('a report file dropped on the bar is imported as a draft (read through main’s token, never a path from the page)', async () => {
    const { host, page } = await apps.open();
    await goTo(page, '#/reports');
    const bar = page.getByRole('group', { name: 'Reports as Markdown files' });
    await bar.waitFor();
    const bytes = `---\nprogram: ${host.programs.open.id}\ntitle: "CSRF on /settings: \\"email\\" change"\nasset: https://app.example.com\n---\n## Steps to reproduce\n\n<form action="https://app.example.com/settings" method="POST">\n`;
    const path = join(await tempDir('drop-'), 'csrf.md');
    await host.dropFiles(bar, [{ path, bytes }]);
    await bar
      .getByRole('status')
      .filter({ hasText: 'Imported 1 draft: CSRF on /settings: "email" change' })
      .waitFor();
    expect(host.calls.filter((c) => c.name === 'importReports')).toHaveLength(1);
    const list = await host.engine.listReports({ search: 'CSRF' });
    expect(list.total).toBe(1);
  });
});

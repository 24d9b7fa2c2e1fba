import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { EDITING_NOTHING_SELECTED, menuAsShown } from '../support/context-menu-shown';
import { realFile } from '../support/real-corpus';
import { completeDraft, savedDraft } from '../support/drafts';
import { COMPLETE_DESCRIPTION } from '../support/fixtures';
import { useAppPerTest } from './support/app';
import { saveOpenDraftAsTemplate, startReportFromTemplate } from './support/templates';
import { connection, expectText, goTo, nav, until } from './support/ui';

/** Whose element has the focus, by its text (Node's types have no DOM: read in the page). */
const focusedText = (page: Page): Promise<string> =>
  page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { activeElement: { textContent: string } } })
      .document;
    return doc.activeElement.textContent.trim();
  });

/**
 * What a researcher reads and does around a report: a destructive confirmation opens
 * on Cancel, the words of a report's status and of the status bar, templates that carry no other
 * report's files, and the right-click menu with the spell checker, through main's own handlers.
 */
describe('renderer: the report researchers write, in words they act on', () => {
  const apps = useAppPerTest('report-words');

  it('"Discard draft" opens on Cancel: Enter, Enter (and Enter again) never discards', async () => {
    const { host, page } = await apps.open();
    const { reportId } = await savedDraft(host, { title: 'Keep me' });
    await host.settled();
    await goTo(page, `#/reports/${reportId}`);
    const discard = page.getByRole('button', { name: 'Discard draft', exact: true });
    await discard.click();
    const dialog = page.getByRole('alertdialog', { name: 'Discard this draft?', exact: true });
    await dialog.waitFor();
    expect(await focusedText(page)).toBe('Cancel');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    // The focus is back on "Discard draft": Enter opens the question again, on Cancel again.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    expect(await focusedText(page)).toBe('Cancel');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await host.settled();
    const server = await host.sandbox.api<{ status: string }>('GET', `/api/reports/${reportId}`, {
      token: host.key,
    });
    expect(server.body.status).toBe('draft');
    expect(host.calls.filter((c) => c.name === 'withdraw')).toEqual([]);
    await page.screenshot({ path: 'test-results/report-words/discard-cancel.png' });
    // A whole researcher flow through the built app: above the 30 s default on a busy machine.
  }, 90_000);

  it('the status is said once on a row and on the page, the timeline shows its changes, and the status bar says what it counts', async () => {
    const { host, page } = await apps.open();
    const { reportId } = await savedDraft(host, { title: 'IDOR on invoices' });
    await host.submitSettled(reportId);
    await host.sandbox.askForInformation(reportId, 'Which account did you use?');
    await host.engine.syncNow();
    await until(
      'the question mirrored',
      async () => (await host.engine.getReport(reportId))?.report?.status === 'needs_info',
    );

    await nav(page, 'Reports').click();
    const row = page
      .getByRole('list', { name: 'Reports', exact: true })
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: 'IDOR on invoices' }) });
    await expectText(row, /Needs your input/);
    const rowText = await row.innerText();
    // Once: no "Needs info" badge, no "Needs your action" beside the status that says it.
    expect(rowText.match(/Needs/g), rowText).toHaveLength(1);

    await goTo(page, `#/reports/${reportId}`);
    const status = page.locator('.report-status');
    await expectText(status, /Needs your input/);
    expect(await status.innerText()).not.toMatch(/—/);
    const timeline = page.getByRole('list', { name: 'Timeline', exact: true });
    await expectText(timeline, /Status: Needs your input/);
    await page.screenshot({ path: 'test-results/report-words/needs-info.png' });

    await host.sandbox.acceptAndPay(reportId, 'Confirmed, thank you.', 50_000);
    await page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await expectText(status, /Accepted/, 15_000);
    expect((await status.innerText()).match(/Accepted/g)).toHaveLength(1);
    await expectText(timeline, /Decision: Accepted/);

    // The request budget in words: what is counted, and against what.
    await expectText(connection(page), /Server requests this minute: \d+ of 120/);
    expect(await connection(page).innerText()).not.toMatch(/Requests \d+\/\d+/);

    // Asset types in the programs list read as words from the one label table.
    await nav(page, 'Programs').click();
    const metas = await page.locator('.row-meta').allInnerTexts();
    expect(metas.length).toBeGreaterThan(0);
    for (const meta of metas) expect(meta).not.toMatch(/source_code|\b(web|api|mobile)\b/);
    expect(metas.join('\n')).toMatch(/\b(Web|API|Mobile|Source code)\b/);
    // A whole researcher flow through the built app: above the 30 s default on a busy machine.
  }, 90_000);

  it('a template from a draft with a picture carries its text, not the picture; a link to another report’s file is never "Saved and sent"', async () => {
    const { host, page } = await apps.open();
    const program = host.programs.open;
    const a = await host.engine.createDraft(program.id);
    const photo = await host.file('invoice-1002.jpg', realFile('images', 'exifr-img_1771.jpg'));
    const [file] = await host.engine.attachFiles(a.reportId, [
      { file: await host.tokenFor(photo) },
    ]);
    const imageLink = `![invoice-1002.jpg](/reports/${a.reportId}/files/${file?.fileId ?? ''})`;
    await host.engine.saveDraft(a.reportId, {
      title: 'IDOR shows invoice 1002',
      asset: 'https://billing.example.com',
      description: `## Steps to reproduce\n\n1. Open invoice 1002 as customer B.\n\n${imageLink}\n\n## Security impact\n\nAny invoice.\n`,
      cvss_vector: '',
    });
    await host.settled();
    await goTo(page, `#/reports/${a.reportId}`);
    const { dialog, said } = await saveOpenDraftAsTemplate(page, 'IDOR with proof');
    expect(await said.innerText()).toContain(
      'without the link to “invoice-1002.jpg”: a template keeps text, not files',
    );
    await page.screenshot({ path: 'test-results/report-words/template-saved.png' });

    const b = await startReportFromTemplate(page, dialog, 'IDOR with proof', {
      programId: program.id,
      title: 'IDOR shows receipt 7',
      asset: 'https://shop.example.com',
      fromId: a.reportId,
    });
    const editor = page.getByRole('textbox', { name: 'Description', exact: true });
    await expectText(editor, /Open invoice 1002 as customer B\./);
    expect(await editor.locator('img').count()).toBe(0);
    expect(await editor.innerText()).not.toContain('invoice-1002.jpg');
    await expectText(page.locator('.save-state'), /Saved and sent\./, 15_000);
    const server = await host.sandbox.api<{ description: string }>('GET', `/api/reports/${b}`, {
      token: host.key,
    });
    expect(server.body.description).toBe(
      (await host.engine.getReport(b))?.draft?.content.description,
    );

    // A draft that links A's picture anyway (pasted from A) beside a picture of its own: the
    // line says what the server lacks, and only its own file shows as a picture in the editor.
    const c = await host.engine.createDraft(program.id);
    const receipt = await host.file('receipt-7.jpg', realFile('images', 'exifr-f1t.jpg'));
    const [own] = await host.engine.attachFiles(c.reportId, [
      { file: await host.tokenFor(receipt) },
    ]);
    const ownLink = `![receipt-7.jpg](/reports/${c.reportId}/files/${own?.fileId ?? ''})`;
    await host.engine.saveDraft(c.reportId, {
      ...completeDraft('Pasted from A'),
      description: `## Steps to reproduce\n\nSee ${imageLink}\n\n${ownLink}\n\n## Security impact\n\nSame.\n`,
    });
    await host.settled();
    await goTo(page, `#/reports/${c.reportId}`);
    await until(
      'C’s own picture shown',
      async () => (await editor.locator('img.evidence-image').count()) === 1,
      15_000,
    );
    expect(await editor.locator('img.evidence-image').getAttribute('alt')).toBe('receipt-7.jpg');
    await expectText(
      editor.locator('.other-report-file'),
      '[image: invoice-1002.jpg — a file of another report, not sent]',
    );
    const line = page.locator('.save-state');
    await expectText(line, /Saved; sent without the links named below\./, 15_000);
    const callout = page.locator('.other-report-files');
    await expectText(callout, /“invoice-1002\.jpg”, which is a file of another report/);
    expect(await line.innerText()).not.toContain('Saved and sent');
    const copy = await host.sandbox.api<{ description: string }>(
      'GET',
      `/api/reports/${c.reportId}`,
      { token: host.key },
    );
    expect(copy.body.description).not.toContain(a.reportId);
    await page.screenshot({ path: 'test-results/report-words/other-report-file.png' });
    // A whole researcher flow through the built app: above the 30 s default on a busy machine.
  }, 90_000);

  it('right-click: main builds the menu from what Chromium says (spelling, link, editing); the spell checker is on in the OS languages', async () => {
    const { host, page } = await apps.open({ launch: { systemLanguages: ['en-GB', 'de-AT'] } });
    const app = host.start();
    const window = [...app.windows.values()][0];
    expect(window?.options.webPreferences?.['spellcheck']).toBe(true);
    const spell = () => app.traces.filter((t) => t.t === 'spellcheck');
    await until('the languages set', async () =>
      spell().some((t) => t['call'] === 'setSpellCheckerLanguages'),
    );
    expect(spell().find((t) => t['call'] === 'setSpellCheckerLanguages')?.['languages']).toEqual([
      'en-GB',
      'de',
    ]);
    expect(spell().find((t) => t['call'] === 'setSpellCheckerDictionaryDownloadURL')?.['url']).toBe(
      'https://redirector.gvt1.com/edgedl/chrome/dict/',
    );

    const { reportId } = await savedDraft(host, {
      title: 'Token leak',
      description: `${COMPLETE_DESCRIPTION}\nThe server will recieve the token.\n`,
    });
    await host.settled();
    await goTo(page, `#/reports/${reportId}`);
    const editor = page.getByRole('textbox', { name: 'Description', exact: true });
    expect(await editor.getAttribute('spellcheck')).toBe('true');
    expect(await page.getByRole('textbox', { name: 'Asset' }).getAttribute('spellcheck')).toBe(
      'false',
    );
    const word = editor.getByText('The server will recieve the token.');
    const menu = await host.rightClick(word, {
      misspelledWord: 'recieve',
      dictionarySuggestions: ['receive', 'relieve'],
    });
    expect(menuAsShown(menu ?? [])).toEqual([
      'receive',
      'relieve',
      '-',
      'Add “recieve” to dictionary',
      '-',
      ...EDITING_NOTHING_SELECTED,
    ]);
    expect(await host.clickContextMenu('receive')).toBe(true);
    expect(await host.clickContextMenu('Add “recieve” to dictionary')).toBe(true);
    expect(spell().filter((t) => /replace|addWord/.test(String(t['call'])))).toMatchObject([
      { call: 'replaceMisspelling', word: 'receive' },
      { call: 'addWordToSpellCheckerDictionary', word: 'recieve' },
    ]);

    // Text selected in the title: Cut and Copy as Chromium allows them.
    const title = page.getByRole('textbox', { name: 'Title', exact: true });
    await title.selectText();
    const onTitle = await host.rightClick(title);
    expect(onTitle?.flatMap((i) => ('type' in i ? [] : [[i.label, i.enabled]]))).toEqual([
      ['Cut', true],
      ['Copy', true],
      ['Paste', true],
      ['Select all', true],
    ]);

    // A submitted report: the reply box is checked too, and a link in the thread can be copied.
    await host.submitSettled(reportId);
    await host.sandbox.act(reportId, {
      actor: 'agent',
      status: 'needs_info',
      message: 'Please follow https://docs.example.com/reporting and tell us the account id.',
    });
    await page.getByRole('button', { name: 'Sync now', exact: true }).click();
    const reply = page.getByRole('textbox', { name: 'Reply', exact: true });
    await reply.waitFor({ timeout: 15_000 });
    expect(await reply.getAttribute('spellcheck')).toBe('true');
    const link = page
      .getByRole('region', { name: 'Messages', exact: true })
      .getByRole('link', { name: 'https://docs.example.com/reporting' });
    await link.waitFor({ timeout: 15_000 });
    const onLink = await host.rightClick(link);
    expect(onLink?.[0]).toEqual({ label: 'Copy link', enabled: true });
    expect(await host.clickContextMenu('Copy link')).toBe(true);
    expect(app.traces.filter((t) => t.t === 'clipboard').map((t) => t['text'])).toEqual([
      'https://docs.example.com/reporting',
    ]);
    // Nothing opened: copying is all the menu does with a link.
    expect(host.external).toEqual([]);
    // A whole researcher flow through the built app: above the 30 s default on a busy machine.
  }, 90_000);
});

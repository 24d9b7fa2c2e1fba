import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { ReportListItemView, ReportQuery } from '../../src/shared/bridge/views';
import type { AppHost } from '../app/host';
import { useAppPerTest, withBulkReports } from './support/app';
import { expectText, goTo, until } from './support/ui';

const CRITICAL = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'; // 9.8
const MEDIUM = 'CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N'; // 5.4
const LOW = 'CVSS:3.1/AV:P/AC:H/PR:H/UI:R/S:U/C:L/I:N/A:N'; // 1.6

/** The little of the DOM the page functions below use (the tests compile without DOM types). */
interface El {
  tagName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  closest(selector: string): El | null;
}
/** A range over an element's contents: one client rect per line box its text takes. */
interface TextRange {
  selectNodeContents(node: unknown): void;
  getClientRects(): { length: number };
}

interface PageGlobals {
  document: { activeElement: El | null };
  location: { hash: string };
}

/** What has the keyboard focus: its tag, its text, and the list row or pane it is in. */
function focused(page: Page): Promise<{ tag: string; text: string; row: number; pane: string }> {
  return page.evaluate(() => {
    const el = (globalThis as unknown as PageGlobals).document.activeElement;
    const row = el?.closest('[aria-posinset]')?.getAttribute('aria-posinset');
    return {
      tag: el?.tagName.toLowerCase() ?? '',
      text: (el?.textContent ?? '').trim(),
      row: row ? Number(row) : 0,
      pane: el?.closest('.workspace-detail')
        ? 'report'
        : el?.closest('.workspace-list')
          ? 'list'
          : '',
    };
  });
}

const hash = (page: Page): Promise<string> =>
  page.evaluate(() => (globalThis as unknown as PageGlobals).location.hash);

/** The rows' titles as the list shows them, top to bottom. */
const titles = (list: Locator): Promise<string[]> => list.getByRole('link').allInnerTexts();

/** A program's name, as the app shows it. */
async function nameOf(host: AppHost, programId: string): Promise<string> {
  const program = await host.engine.getProgram(programId);
  if (!program) throw new Error(`no program ${programId}`);
  return program.name;
}

/** Drafts through the engine (they reach the server through the outbox), with their vectors. */
async function drafts(
  host: AppHost,
  specs: { title: string; vector: string; program?: string }[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const spec of specs) {
    const draft = await host.engine.createDraft(spec.program ?? host.programs.open.id);
    await host.engine.saveDraft(draft.reportId, {
      title: spec.title,
      asset: 'https://app.example.com/',
      description: 'Steps.',
      cvss_vector: spec.vector,
    });
    ids.push(draft.reportId);
  }
  await host.settled();
  return ids;
}

/**
 * The reports workspace: the list beside the open report, resizable and remembered, one pane at
 * a time on a narrow window; sorted and filtered by the engine; driven by the keyboard.
 */
describe('renderer: the two-pane reports workspace', () => {
  const apps = useAppPerTest('two-pane');

  it('shows the list beside the open report; the split is resizable, remembered, one pane when narrow', async () => {
    const { host, app } = await apps.open({ hash: '#/reports' });
    const { page } = app;
    const [first, second] = await drafts(host, [
      { title: 'Open redirect after login', vector: MEDIUM },
      { title: 'Stored XSS in comments', vector: CRITICAL },
    ]);
    const list = page.getByRole('list', { name: 'Reports', exact: true });
    const pane = page.getByRole('region', { name: 'Open report', exact: true });
    await list.getByRole('link', { name: /^Stored XSS in comments/ }).waitFor();
    // No report open: the right pane says how to open one.
    await expectText(pane, /Choose a report in the list/);

    // A row opens its report beside the list, which stays; the row is marked as the open one.
    await list.getByRole('link', { name: /^Open redirect after login/ }).click();
    await pane.getByRole('heading', { name: 'Open redirect after login', level: 1 }).waitFor();
    expect(await hash(page)).toBe(`#/reports/${first}`);
    expect(
      await list
        .getByRole('link', { name: /^Open redirect after login/ })
        .getAttribute('aria-current'),
    ).toBe('true');
    expect(await list.locator('[aria-current="true"]').count()).toBe(1);
    // The editor did not take the focus from the list.
    expect(await focused(page)).toMatchObject({ pane: 'list' });

    // A link to a report (#/reports/<id>) opens the same workspace with that row selected.
    await goTo(page, `#/reports/${second}`);
    await pane.getByRole('heading', { name: 'Stored XSS in comments', level: 1 }).waitFor();
    await until(
      'the row selected',
      async () =>
        (await list
          .getByRole('link', { name: /^Stored XSS in comments/ })
          .getAttribute('aria-current')) === 'true',
    );

    // The split: a separator with its value, moved with the keys and dragged with the mouse.
    const separator = page.getByRole('separator', { name: 'Resize the reports list' });
    expect(await separator.getAttribute('aria-orientation')).toBe('vertical');
    expect(await separator.getAttribute('aria-valuenow')).toBe('420');
    expect(Number(await separator.getAttribute('aria-valuemin'))).toBe(280);
    expect(Number(await separator.getAttribute('aria-valuemax'))).toBeGreaterThan(420);
    const listPane = page.locator('#reports-list-pane');
    const listWidth = async () => Math.round((await listPane.boundingBox())?.width ?? 0);
    expect(await listWidth()).toBe(420);
    await separator.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await separator.getAttribute('aria-valuenow')).toBe('452');
    await page.keyboard.press('Shift+ArrowLeft');
    expect(await separator.getAttribute('aria-valuenow')).toBe('388');
    const box = await separator.boundingBox();
    if (!box) throw new Error('the separator is not shown');
    await page.mouse.move(box.x + box.width / 2, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + 220, { steps: 5 });
    await page.mouse.move(box.x + box.width / 2 + 112, box.y + 240, { steps: 5 });
    await page.mouse.up();
    expect(await separator.getAttribute('aria-valuenow')).toBe('500');
    expect(await listWidth()).toBe(500);

    // A new start: the same split (and the same report open).
    await page.goto(page.url().replace(/#.*$/u, ''), { waitUntil: 'load' });
    await pane.getByRole('heading', { name: 'Stored XSS in comments', level: 1 }).waitFor();
    expect(await separator.getAttribute('aria-valuenow')).toBe('500');
    expect(await listWidth()).toBe(500);

    // A narrow window: one pane at a time, the open report with a way back to the list.
    await page.setViewportSize({ width: 820, height: 800 });
    await until('one pane', async () => (await list.count()) === 0);
    expect(await separator.count()).toBe(0);
    // The status bar's items wrap; its button stays one line.
    const syncLines = await page
      .getByRole('button', { name: 'Sync now', exact: true })
      .evaluate((button) => {
        const d = (globalThis as unknown as { document: { createRange(): TextRange } }).document;
        const range = d.createRange();
        range.selectNodeContents(button);
        return range.getClientRects().length;
      });
    expect(syncLines).toBe(1);
    await pane.getByRole('heading', { name: 'Stored XSS in comments', level: 1 }).waitFor();
    await pane.getByRole('link', { name: '← All reports', exact: true }).click();
    await list.getByRole('link', { name: /^Open redirect after login/ }).waitFor();
    expect(await pane.count()).toBe(0);
    expect(await hash(page)).toBe('#/reports');
    // Back at the list, the focus is on the row of the report left (a screen of 2 rows would
    // have it on the list's heading), by "All reports" and by Back after Enter on a row.
    const rowOf = async (title: RegExp): Promise<number> =>
      (await titles(list)).findIndex((t) => title.test(t)) + 1;
    const xss = /^Stored XSS in comments/;
    const redirect = /^Open redirect after login/;
    await until('the focus on a row', async () => (await focused(page)).row > 0);
    expect(await focused(page)).toMatchObject({
      tag: 'a',
      row: await rowOf(xss),
      text: expect.stringMatching(xss),
    });
    await list.getByRole('link', { name: redirect }).click();
    await pane.getByRole('heading', { name: 'Open redirect after login', level: 1 }).waitFor();
    expect(await list.count()).toBe(0);
    await page.goBack();
    await list.getByRole('link', { name: redirect }).waitFor();
    await until('the focus on a row', async () => (await focused(page)).row > 0);
    expect(await focused(page)).toMatchObject({
      tag: 'a',
      row: await rowOf(redirect),
      text: expect.stringMatching(redirect),
    });
    // To the other row with the keys (on a narrow window they move the focus, opening nothing),
    // Enter, then Back.
    const xssRow = await rowOf(xss);
    await page.keyboard.press(xssRow < (await rowOf(redirect)) ? 'ArrowUp' : 'ArrowDown');
    await until('the focus on the other row', async () => (await focused(page)).row === xssRow);
    expect(await list.count()).toBe(1);
    await page.keyboard.press('Enter');
    await pane.getByRole('heading', { name: 'Stored XSS in comments', level: 1 }).waitFor();
    await until('the focus in the report', async () => (await focused(page)).pane === 'report');
    await page.goBack();
    await until('the focus on a row', async () => (await focused(page)).row > 0);
    expect(await focused(page)).toMatchObject({
      tag: 'a',
      row: xssRow,
      text: expect.stringMatching(xss),
    });
    await list.getByRole('link', { name: redirect }).click();
    await pane.getByRole('heading', { name: 'Open redirect after login', level: 1 }).waitFor();
    expect(await list.count()).toBe(0);
    // Wide again: both panes.
    await page.setViewportSize({ width: 1280, height: 800 });
    await list.getByRole('link', { name: /^Stored XSS in comments/ }).waitFor();
    expect(await separator.getAttribute('aria-valuenow')).toBe('500');
  }, 120_000);

  it('sorts by severity, status and program and filters by program in the engine, in its order', async () => {
    const { host, app } = await apps.open({
      signedIn: false,
      hash: '#/reports',
      beforeWindow: withBulkReports(24, (h) => h.mirrorBeforeStart()),
    });
    const { page } = app;
    const h = host;
    await drafts(h, [
      { title: 'Medium finding', vector: MEDIUM },
      { title: 'Critical finding', vector: CRITICAL },
      { title: 'Low finding', vector: LOW },
    ]);
    const list = page.getByRole('list', { name: 'Reports', exact: true });
    await expectText(page.getByText(/^[\d,]+ reports/), '27 reports', 15_000);
    const sortBy = page.getByRole('combobox', { name: 'Sort by', exact: true });
    const programFilter = page.getByRole('combobox', { name: 'Program', exact: true });

    /** The list shows what the engine answers for the same query, in the same order. */
    const shows = async (query: ReportQuery): Promise<ReportListItemView[]> => {
      const answer = (await h.engine.listReports({ ...query, offset: 0, limit: 200 })).items;
      const want = answer.map((item) => item.title);
      // The rows in view (the list is virtual): the first rows of the answer.
      await until(`the list in the order of ${JSON.stringify(query)}`, async () => {
        const shown = await titles(list);
        return (
          shown.length >= Math.min(want.length, 5) &&
          shown.every((t, i) => t.startsWith(want[i] ?? '-'))
        );
      });
      // The page asked the engine for this order and filter: it did not sort rows itself.
      const asked = h.calls.filter((c) => c.name === 'listReports').at(-1)?.args[0] as ReportQuery;
      expect(asked).toMatchObject(query);
      return answer;
    };

    await sortBy.selectOption({ label: 'Severity (CVSS)' });
    const bySeverity = await shows({ sort: 'severity' });
    expect(bySeverity.slice(0, 3).map((r) => r.title)).toEqual([
      'Critical finding',
      'Medium finding',
      'Low finding',
    ]);
    expect(bySeverity.slice(0, 3).map((r) => r.severity)).toEqual([9.8, 5.4, 1.6]);
    await expectText(list.getByRole('listitem').first(), /CVSS 9\.8 Critical/);

    await sortBy.selectOption({ label: 'Status' });
    const order = ['draft', 'accepted', 'rejected', 'duplicate', 'insufficient_info', 'withdrawn'];
    const byStatus = await shows({ sort: 'status' });
    const ranks = byStatus.map((r) => order.indexOf(r.status));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(new Set(byStatus.map((r) => r.status)).size).toBeGreaterThan(3);

    await sortBy.selectOption({ label: 'Program' });
    const byProgram = await shows({ sort: 'program' });
    const names = byProgram.map((r) => r.programName.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBeGreaterThan(1);

    // One program: its reports only, with the counts of each program in the filter's options.
    const other = byProgram.find((r) => r.programId !== h.programs.open.id);
    if (!other) throw new Error('the bulk reports span several programs');
    const options = await programFilter.locator('option').allInnerTexts();
    expect(options[0]).toBe('All programs (27)');
    const option = options.find((o) => o.startsWith(`${other.programName} (`));
    if (!option) throw new Error(`no option for ${other.programName}: ${options.join(', ')}`);
    await programFilter.selectOption({ label: option });
    const ofProgram = await shows({ sort: 'program', program: other.programId });
    expect(ofProgram.every((r) => r.programId === other.programId)).toBe(true);
    expect(option).toBe(`${other.programName} (${ofProgram.length})`);
    await expectText(page.getByText(/^[\d,]+ of [\d,]+ reports/), `${ofProgram.length} of 27`);
    // With a status as well; the counts per status stay those of every report.
    const status = page.getByRole('group', { name: 'Status', exact: true });
    await status.getByRole('checkbox', { name: /^Draft \(/ }).check();
    const drafted = await shows({ sort: 'program', program: other.programId, status: ['draft'] });
    expect(drafted.every((r) => r.status === 'draft' && r.programId === other.programId)).toBe(
      true,
    );
    await expectText(status, /Draft \(15\)/);
    // Back to the program of the three findings, by severity.
    await status.getByRole('checkbox', { name: /^Draft \(/ }).uncheck();
    const openName = await nameOf(h, h.programs.open.id);
    const open = options.find((o) => o.startsWith(`${openName} (`));
    if (!open) throw new Error('no option for the open program');
    await programFilter.selectOption({ label: open });
    await sortBy.selectOption({ label: 'Severity (CVSS)' });
    const mine = await shows({ sort: 'severity', program: h.programs.open.id });
    expect(mine.slice(0, 3).map((r) => r.title)).toEqual([
      'Critical finding',
      'Medium finding',
      'Low finding',
    ]);

    // A new start: the same order and program, asked of the engine from the first page on.
    const restart = async () => {
      const url = page.url();
      await page.goto('about:blank');
      await page.goto(url, { waitUntil: 'load' });
    };
    const callsBefore = h.calls.length;
    await restart();
    await shows({ sort: 'severity', program: h.programs.open.id });
    const firstAsked = h.calls.slice(callsBefore).find((c) => c.name === 'listReports');
    expect(firstAsked?.args[0]).toMatchObject({ sort: 'severity', program: h.programs.open.id });
    expect(await sortBy.inputValue()).toBe('severity');
    expect(await programFilter.inputValue()).toBe(h.programs.open.id);
    // Back to every program, newest first: that is what the next start shows.
    await programFilter.selectOption({ label: 'All programs (27)' });
    await sortBy.selectOption({ label: 'Last update' });
    await shows({});
    await restart();
    await shows({});
    const lastAsked = h.calls.filter((c) => c.name === 'listReports').at(-1)?.args[0];
    expect(lastAsked).not.toHaveProperty('program');
    expect(lastAsked).not.toHaveProperty('sort');
    expect(await sortBy.inputValue()).toBe('updated');
    expect(await programFilter.inputValue()).toBe('');
  }, 120_000);

  it('moves through the list with the arrow keys, opens with Enter; Ctrl+N and Ctrl+F work here', async () => {
    const { host, app } = await apps.open({ hash: '#/reports' });
    const { page } = app;
    // Each key opens a report beside the list (an engine call, the pane's chunk): a full run on a
    // loaded 2-core runner once took over the 10 s default, so this walk waits up to 30 s a step.
    page.setDefaultTimeout(30_000);
    const ids = await drafts(host, [
      { title: 'Report C', vector: '' },
      { title: 'Report B', vector: '' },
      { title: 'Report A', vector: '' },
    ]);
    const list = page.getByRole('list', { name: 'Reports', exact: true });
    const pane = page.getByRole('region', { name: 'Open report', exact: true });
    const shown = async (): Promise<string[]> => (await titles(list)).map((t) => t.slice(0, 8));
    await until(
      'the three reports',
      async () => (await shown()).sort().join() === 'Report A,Report B,Report C',
    );
    // The order the server's update times give them (newest first): rows 1, 2 and 3.
    const [first, second, third] = await shown();
    if (!first || !second || !third) throw new Error('three rows');
    const idOf = (title: string): string | undefined =>
      ids[['Report C', 'Report B', 'Report A'].indexOf(title)];

    // The list is one tab stop: Tab from the search box reaches its first row.
    await page.getByRole('searchbox', { name: 'Search reports', exact: true }).focus();
    for (let i = 0; i < 20 && (await focused(page)).row === 0; i++)
      await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'a', row: 1 });

    // Down: the next row has the focus and its report opens beside the list.
    await page.keyboard.press('ArrowDown');
    await pane.getByRole('heading', { name: second, level: 1 }).waitFor();
    expect(await focused(page)).toMatchObject({ tag: 'a', row: 2, pane: 'list' });
    expect(await hash(page)).toBe(`#/reports/${idOf(second)}`);
    await page.keyboard.press('ArrowDown');
    await pane.getByRole('heading', { name: third, level: 1 }).waitFor();
    expect(await focused(page)).toMatchObject({ row: 3, pane: 'list' });
    // At the end it stays; Home goes to the top; Up from the top stays.
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toMatchObject({ row: 3 });
    await page.keyboard.press('Home');
    await pane.getByRole('heading', { name: first, level: 1 }).waitFor();
    expect(await focused(page)).toMatchObject({ row: 1, pane: 'list' });
    await page.keyboard.press('ArrowUp');
    expect(await focused(page)).toMatchObject({ row: 1 });
    await page.keyboard.press('ArrowDown');
    await pane.getByRole('heading', { name: second, level: 1 }).waitFor();

    // Enter: the focus moves into the open report, to its heading.
    await page.keyboard.press('Enter');
    await until('focus in the report', async () => (await focused(page)).pane === 'report');
    expect(await focused(page)).toMatchObject({ tag: 'h1', text: second });
    // Shift+Tab goes back to the list, to the open report's row.
    for (let i = 0; i < 10 && (await focused(page)).pane !== 'list'; i++)
      await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toMatchObject({ tag: 'a', row: 2, pane: 'list' });

    // Reports changing under the list keep the selection on its report.
    await drafts(host, [{ title: 'Report 0 newest', vector: '' }]);
    await until('four rows', async () => (await titles(list)).length === 4);
    const selected = list.locator('[aria-current="true"]');
    await expectText(selected, new RegExp(`^${second}`));
    expect(await focused(page)).toMatchObject({
      text: expect.stringMatching(new RegExp(`^${second}`)),
    });
    await page.keyboard.press('ArrowDown');
    await pane.getByRole('heading', { name: third, level: 1 }).waitFor();

    // Ctrl/Cmd+F: the search box.
    await page.keyboard.press('ControlOrMeta+f');
    expect(await focused(page)).toMatchObject({ tag: 'input' });
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as PageGlobals).document.activeElement?.getAttribute(
            'aria-label',
          ) ?? '',
      ),
    ).toBe('Search reports');

    // Ctrl/Cmd+N: the programs that take a report; one starts a draft, open beside the list
    // with the focus in its title.
    await page.keyboard.press('ControlOrMeta+n');
    const dialog = page.getByRole('dialog', { name: 'New report', exact: true });
    const programs = dialog.getByRole('list', { name: 'Open programs', exact: true });
    const openName = await nameOf(host, host.programs.open.id);
    await programs.getByRole('button', { name: openName, exact: true }).waitFor();
    for (const closed of [host.programs.closed, host.programs.paused, host.programs.poolPaused]) {
      const name = await nameOf(host, closed.id);
      expect(await programs.getByRole('button', { name, exact: true }).count()).toBe(0);
    }
    await programs.getByRole('button', { name: openName, exact: true }).click();
    await until('the new draft open', async () => (await hash(page)).length > '#/reports/'.length);
    await until('focus in its title', async () => {
      const f = await focused(page);
      return f.tag === 'input' && f.pane === 'report';
    });
    expect(await dialog.count()).toBe(0);
    await pane.getByRole('heading', { name: 'Untitled draft', level: 1 }).waitFor();
    await until(
      'the new draft selected in the list',
      async () =>
        (await list.locator('[aria-current="true"]').count()) === 1 &&
        /^Untitled draft/.test(await list.locator('[aria-current="true"]').innerText()),
    );

    // From another screen, Ctrl/Cmd+N comes here and asks for the program too.
    await goTo(page, '#/account');
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    await page.keyboard.press('ControlOrMeta+n');
    await dialog.waitFor();
    expect(await hash(page)).toBe('#/reports');
    await page.keyboard.press('Escape');
    await until('the dialog closed', async () => (await dialog.count()) === 0);
  }, 120_000);
});

import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Report } from '../../src/shared/api';
import { useAppPerTest, type OpenApp } from './support/app';
import { hasFocus, caretAtEndOf, goTo, until } from './support/ui';
import { COMPLETE_DESCRIPTION } from '../support/fixtures';
import { savedDraft } from '../support/drafts';

/**
 * The description editor as a researcher types in it, through the app as built: typed
 * payloads and redaction marks reach the server byte for byte, a table typed row by row is a
 * table, the formatting toolbar and its shortcuts, leaving a code block.
 */
describe('renderer: typing in the description editor', () => {
  const apps = useAppPerTest('editor-typing');
  const LAST_LINE = 'Session theft through a crafted link.';

  const description = (page: Page): Locator =>
    page.getByRole('textbox', { name: 'Description', exact: true });

  /** Waits until the keyboard focus is inside the formatting toolbar. */
  async function untilToolbarFocused(page: Page): Promise<void> {
    await until('the toolbar focused', () =>
      page.evaluate(() => {
        const g = globalThis as unknown as {
          document: { activeElement: { closest(s: string): unknown } | null };
        };
        return !!g.document.activeElement?.closest('[role=toolbar]');
      }),
    );
  }

  /** Types each line on a new line of its own (Enter, then the line), as a user goes on writing. */
  async function typeLines(page: Page, lines: readonly string[]): Promise<void> {
    for (const line of lines) {
      await page.keyboard.press('Enter');
      await page.keyboard.type(line);
    }
  }

  /** Waits for the saved description to end with `end`; a timeout shows what was saved. */
  async function savedEnding(what: string, markdown: () => Promise<string>, end: string) {
    try {
      await until(what, async () => (await markdown()).endsWith(end), 15_000);
    } catch {
      const saved = await markdown();
      expect(saved.slice(-(end.length + 40)), what).toBe(end);
    }
  }

  /** A draft with the complete template, open, the caret at the end of its last line. */
  async function draftAtEnd(): Promise<
    OpenApp & { reportId: string; markdown(): Promise<string> }
  > {
    const opened = await apps.open();
    const { host, page } = opened;
    const draft = await savedDraft(host, {
      title: 'Typed in the editor',
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
    await typeLines(page, lines);
    // A pipe escaped in a cell is the cell's pipe, as GFM reads it (a walk saw `\\\|` saved).
    const table = ['| id | name |', '| --- | --- |', '| 1 | admin |', '| 2 | id\\|whoami |'];
    await typeLines(page, table);
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
    expect(
      await description(page).locator('table tr').last().locator('td').allInnerTexts(),
    ).toEqual(['2', 'id|whoami']);
    // Saved, sent, and on the server byte for byte.
    await until(
      'the draft on the server',
      async () =>
        (await host.sandbox.api<Report>('GET', `/api/reports/${reportId}`, { token: host.key }))
          .body.description === `${expected}\nSeen on Chrome.\n`,
      20_000,
    );
  }, 120_000);

  it('each format by its button and by its shortcut: the stored Markdown is exactly what was asked', async () => {
    const { page, markdown } = await draftAtEnd();
    const toolbar = page.getByRole('toolbar', { name: 'Formatting', exact: true });
    const button = (name: string): Locator => toolbar.getByRole('button', { name, exact: true });
    const HREF = 'https://app.example.com/profile?id=1';
    const formats: { name: string; md(text: string): string }[] = [
      { name: 'Bold', md: (t) => `**${t}**` },
      { name: 'Italic', md: (t) => `*${t}*` },
      { name: 'Code', md: (t) => `\`${t}\`` },
      { name: 'Link', md: (t) => `[${t}](${HREF})` },
      { name: 'Heading', md: (t) => `## ${t}` },
      { name: 'Quote', md: (t) => `> ${t}` },
    ];
    const written: string[] = [];
    for (const format of formats) {
      // The shortcut pressed is the one the button's title names ("Bold (Ctrl+B)").
      const title = (await button(format.name).getAttribute('title')) ?? '';
      const shown = /\((Ctrl\+[^)]+)\)$/.exec(title)?.[1];
      expect(shown, title).toBeDefined();
      const keys = (shown ?? '')
        .split('+')
        .map((k) => (k === 'Ctrl' ? 'Control' : k.length === 1 ? k.toLowerCase() : k))
        .join('+');
      for (const via of ['button', 'shortcut'] as const) {
        // A line typed, then selected (Shift+Home) and formatted, as a researcher does.
        const text = `${format.name.toLowerCase()} by ${via}`;
        await page.keyboard.press('Enter');
        await page.keyboard.type(text);
        await page.keyboard.press('Shift+Home');
        if (via === 'button') await button(format.name).click();
        else await page.keyboard.press(keys);
        if (format.name === 'Link') {
          const address = page.getByRole('textbox', { name: 'Link address', exact: true });
          await until('the address field focused', () => hasFocus(address));
          await page.keyboard.type(HREF);
          await page.keyboard.press('Enter');
          await address.waitFor({ state: 'detached' });
        }
        // The caret after the formatted words, in the editor: the next line is typed below them.
        await page.keyboard.press('End');
        if (format.name === 'Quote') {
          // Enter on the empty line below leaves the quote.
          await page.keyboard.press('Enter');
          await page.keyboard.press('Enter');
        }
        written.push(format.md(text));
      }
    }
    await page.keyboard.press('Enter');
    await page.keyboard.type('Typed after the formats.');
    const expected = `${COMPLETE_DESCRIPTION.trimEnd()}\n\n${written.join('\n\n')}\n\nTyped after the formats.\n`;
    // Every format saved: polled, and on timeout the difference is shown.
    await expect.poll(markdown, { timeout: 15_000, interval: 100 }).toBe(expected);
  }, 120_000);

  it('the formatting toolbar: lists and table; reached from the keyboard', async () => {
    const { page, markdown } = await draftAtEnd();
    const toolbar = page.getByRole('toolbar', { name: 'Formatting', exact: true });
    const button = (name: string): Locator => toolbar.getByRole('button', { name, exact: true });
    expect(await button('Bold').getAttribute('aria-keyshortcuts')).toBe('Control+B');
    await page.keyboard.press('Enter');
    await button('Bulleted list').click();
    await page.keyboard.type('first item');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await button('Numbered list').click();
    await page.keyboard.type('step one');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await button('Table').click();
    await until(
      'every format saved',
      async () => {
        const md = await markdown();
        return ['* first item', '1. step one', '| --- | --- |'].every((part) => md.includes(part));
      },
      15_000,
    );
    // Keyboard only: Shift+Tab from a paragraph reaches the toolbar (one stop), arrows move. (In a
    // nested list item Shift+Tab outdents the item, as in the platforms' editors.)
    await description(page).getByText(LAST_LINE, { exact: true }).click();
    await page.keyboard.press('Shift+Tab');
    await untilToolbarFocused(page);
    await page.keyboard.press('End');
    for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowLeft');
    expect(await button('Quote').getAttribute('tabindex')).toBe('0');
    expect(await markdown()).not.toContain('](javascript:');
  }, 120_000);

  it('a list button toggles: a second click takes the item out of the list, the other kind switches it; lists are written tight', async () => {
    const { page, markdown } = await draftAtEnd();
    const toolbar = page.getByRole('toolbar', { name: 'Formatting', exact: true });
    const button = (name: string): Locator => toolbar.getByRole('button', { name, exact: true });
    const saved = async (part: string): Promise<void> =>
      expect.poll(markdown, { timeout: 15_000, interval: 100 }).toContain(part);
    await page.keyboard.press('Enter');
    await button('Bulleted list').click();
    await page.keyboard.type('first item');
    await page.keyboard.press('Enter');
    await page.keyboard.type('second item');
    // Tight, as typed: no blank line between the items.
    await saved(`${LAST_LINE}\n\n* first item\n* second item\n`);
    // The other kind: the same list, numbered.
    await button('Numbered list').click();
    await saved(`${LAST_LINE}\n\n1. first item\n2. second item\n`);
    // Its own kind again: the item leaves the list (it was wrapped in a second list before).
    await button('Numbered list').click();
    await saved(`${LAST_LINE}\n\n1. first item\n\nsecond item\n`);
  }, 120_000);

  it('Heading and Quote toggle back by their shortcuts as by their buttons; Shift+Tab outdents only a nested list item', async () => {
    const { page, markdown } = await draftAtEnd();
    const editor = description(page);
    const toolbar = page.getByRole('toolbar', { name: 'Formatting', exact: true });
    const button = (name: string): Locator => toolbar.getByRole('button', { name, exact: true });
    const line = editor.getByText('toggled line', { exact: true });
    const tagOfLine = (): Promise<string> =>
      line.evaluate((el) => (el as unknown as { tagName: string }).tagName);
    const quotes = (): Promise<number> => editor.locator('blockquote').count();
    await page.keyboard.press('Enter');
    await page.keyboard.type('toggled line');
    // Each heading level's shortcut makes that level, and a second press makes the line a
    // paragraph again; another level's shortcut changes the level; the button does the same.
    const steps: [() => Promise<void>, string][] = [
      [() => page.keyboard.press('Control+Alt+2'), 'H2'],
      [() => page.keyboard.press('Control+Alt+2'), 'P'],
      [() => page.keyboard.press('Control+Alt+3'), 'H3'],
      [() => page.keyboard.press('Control+Alt+3'), 'P'],
      [() => page.keyboard.press('Control+Alt+1'), 'H1'],
      [() => button('Heading').click(), 'H2'],
      [() => button('Heading').click(), 'P'],
    ];
    for (const [act, tag] of steps) {
      await act();
      await until(`the line a ${tag}`, async () => (await tagOfLine()) === tag);
    }
    // Quote: on, then off again (never a quote in a quote), by shortcut and by button.
    for (const act of [
      () => page.keyboard.press('Control+Shift+b'),
      () => button('Quote').click(),
    ]) {
      await act();
      await until('the line quoted', async () => (await quotes()) === 1);
      await act();
      await until('the quote gone', async () => (await quotes()) === 0);
    }
    expect(await tagOfLine()).toBe('P');
    // A list: Tab nests the second item, Shift+Tab outdents it; at the top level Shift+Tab leaves
    // the list whole and moves the focus back to the toolbar, as from any line.
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('- first');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.type('second');
    await until(
      'the second item nested',
      async () => (await editor.locator('li li').count()) === 1,
    );
    await page.keyboard.press('Shift+Tab');
    await until('the item outdented', async () => (await editor.locator('li li').count()) === 0);
    expect(await editor.locator('ul > li').count()).toBe(2);
    await page.keyboard.press('Shift+Tab');
    await untilToolbarFocused(page);
    expect(await editor.locator('ul > li').count()).toBe(2);
    expect(await editor.locator('li li').count()).toBe(0);
    // Saved as two items of one top-level list, tight as typed.
    const tail = `${COMPLETE_DESCRIPTION.trimEnd()}\n\ntoggled line\n\n`;
    await until('the list saved', async () => (await markdown()).startsWith(tail), 15_000);
    await expect
      .poll(async () => (await markdown()).slice(tail.length), { timeout: 10_000, interval: 100 })
      .toBe('* first\n* second\n');
  }, 60_000);

  it('a list nested with Tab is saved tight, as typed: no blank line between its items', async () => {
    const { page, markdown } = await draftAtEnd();
    const editor = description(page);
    await page.keyboard.press('Enter');
    await page.keyboard.type('- step one');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.type('nested a');
    await page.keyboard.press('Enter');
    await page.keyboard.type('nested b');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.type('deeper');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.type('step two');
    await until('the items nested', async () => (await editor.locator('li li li').count()) === 1);
    const expected = `${COMPLETE_DESCRIPTION.trimEnd()}\n\n* step one\n  * nested a\n  * nested b\n    * deeper\n* step two\n`;
    await expect.poll(markdown, { timeout: 15_000, interval: 100 }).toBe(expected);
  }, 60_000);

  it('leaves a code block at the end of the description with ArrowDown, and with three Enters', async () => {
    const { page, markdown } = await draftAtEnd();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+Alt+c');
    await page.keyboard.type('curl -s https://app.example.com/api');
    // The last block of the description: ArrowDown makes a line below it.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.type('After the first block.');
    await page.keyboard.press('Enter');
    await page
      .getByRole('toolbar', { name: 'Formatting', exact: true })
      .getByRole('button', { name: 'Code block', exact: true })
      .click();
    await page.keyboard.type('line one');
    await page.keyboard.press('Enter');
    await page.keyboard.type('line two');
    // Enter three times at the end: the two empty lines go, the caret is below the block.
    for (let i = 0; i < 3; i++) await page.keyboard.press('Enter');
    await page.keyboard.type('After the second block.');
    await until(
      'both blocks and the lines after them saved',
      async () =>
        (await markdown()).endsWith(
          '```\ncurl -s https://app.example.com/api\n```\n\nAfter the first block.\n\n```\nline one\nline two\n```\n\nAfter the second block.\n',
        ),
      15_000,
    );
  }, 120_000);

  /** An HTTP request as researchers write one: headers, a blank line, a JSON body. */
  const REQUEST = [
    'POST /api/v2/users/4411/roles HTTP/1.1',
    'Host: app.globex.example',
    'Content-Type: application/json',
    '',
    '{"role": "admin", "note": "*not* _mine_"}',
  ];

  it('a typed request keeps its blank line in the code block; Shift+Enter is a new line there; Escape leaves it', async () => {
    const { page, markdown } = await draftAtEnd();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+Alt+c');
    for (const [i, line] of REQUEST.entries()) {
      if (i > 0) await page.keyboard.press(i === 1 ? 'Shift+Enter' : 'Enter');
      await page.keyboard.type(line);
    }
    // One blank line, then two: still in the block, typed on.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('X-Trace: 1');
    await page.keyboard.press('Escape');
    await page.keyboard.type('The role is granted.');
    const block = `\`\`\`\n${REQUEST.join('\n')}\n\nX-Trace: 1\n\`\`\``;
    await until(
      'the request saved as one block, the line below it',
      async () => (await markdown()).endsWith(`\n\n${block}\n\nThe role is granted.\n`),
      15_000,
    );
    // Shown as code, never as emphasis.
    expect(await description(page).locator('pre').count()).toBe(1);
    expect(await description(page).locator('em').count()).toBe(0);
  }, 120_000);

  it('wildcard hosts, a typed \\\\ and a period after a link are stored as typed, not as emphasis or link', async () => {
    const { page, markdown } = await draftAtEnd();
    const lines = [
      'Both *.globex.example and *.globex.test are affected.',
      'Also *args, and 2 * 3 * 4.',
      'The share is \\\\files.globex.example\\export.',
      'Real *emphasis* and **strong** still work.',
      // A second wildcard right after a comma or a backtick (a walk of the app found both turned
      // into italics, their stars gone).
      'Hosts (*.example.com,*.example.org) answer.',
      'Scope: *.example.com; see `*.example.com` in the policy.',
    ];
    await typeLines(page, lines);
    await page.keyboard.press('Enter');
    await page.keyboard.type('See ');
    await page.keyboard.press('Control+k');
    const address = page.getByRole('textbox', { name: 'Link address', exact: true });
    await address.waitFor();
    await page.keyboard.type('https://app.globex.example/help');
    await page.keyboard.press('Enter');
    await address.waitFor({ state: 'detached' });
    await page.keyboard.type('. Then more.');
    const stored = [
      lines[0],
      lines[1],
      // `\\` reads as one backslash, `\f` as two characters: the pair as typed.
      'The share is \\\\\\files.globex.example\\export.',
      lines[3],
      // CommonMark reads `*.example.com,*` as emphasis: one star is escaped to read as typed.
      'Hosts (*.example.com,\\*.example.org) answer.',
      lines[5],
      // A link whose text is its address is written bare; the period stays out of it.
      'See https://app.globex.example/help. Then more.',
    ];
    await savedEnding('the lines saved as typed', markdown, `\n\n${stored.join('\n\n')}\n`);
    const editor = description(page);
    expect(await editor.locator('em').allInnerTexts()).toEqual(['emphasis']);
    expect(await editor.locator('strong').allInnerTexts()).toEqual(['strong']);
    expect(await editor.locator('a').last().innerText()).toBe('https://app.globex.example/help');
  }, 120_000);

  it('the numbered list shows its glyph', async () => {
    const { page } = await draftAtEnd();
    const toolbar = page.getByRole('toolbar', { name: 'Formatting', exact: true });
    // A sign every UI font has ('⒈' showed as an empty box: no font of the systems had it), and
    // no digits, which would be a visible label missing from the accessible name.
    const numbered = toolbar.getByRole('button', { name: 'Numbered list', exact: true });
    expect(await numbered.innerText()).toBe('№');
  }, 120_000);

  it('the Table button inserts a table to fill in; Tab from its last cell adds a row, never leaves the editor', async () => {
    const { page, markdown } = await draftAtEnd();
    const toolbar = page.getByRole('toolbar', { name: 'Formatting', exact: true });
    await page.keyboard.press('Enter');
    await toolbar.getByRole('button', { name: 'Table', exact: true }).click();
    const cells = [
      'id',
      'role',
      'result',
      '1',
      'admin',
      '200',
      '2',
      'guest',
      '403',
      '3',
      'none',
      '401',
    ];
    for (const [i, cell] of cells.entries()) {
      if (i > 0) await page.keyboard.press('Tab');
      await page.keyboard.type(cell);
    }
    await until(
      'the filled table saved, with the row Tab added',
      async () =>
        (await markdown()).endsWith(
          '\n\n| id | role | result |\n| --- | --- | --- |\n| 1 | admin | 200 |\n| 2 | guest | 403 |\n| 3 | none | 401 |\n',
        ),
      15_000,
    );
    expect(await description(page).locator('table tr').count()).toBe(4);
    const focused = await hasFocus(description(page));
    expect(focused).toBe(true);
  }, 120_000);

  it('"Attach files" with the caret in a trailing table links the file below the table', async () => {
    const { page, host, reportId, markdown } = await draftAtEnd();
    const table = '| id | role |\n| --- | --- |\n| 1 | admin |';
    for (const row of table.split('\n')) {
      await page.keyboard.press('Enter');
      await page.keyboard.type(row);
    }
    // The caret leaves the rows: they become a table (nothing is typed below it).
    await page.keyboard.press('Enter');
    await savedEnding('the table saved', markdown, `${table}\n`);
    const editor = description(page);
    await caretAtEndOf(editor.getByText('admin', { exact: true }), 'admin');
    const evidence = await host.file('roles.txt', 'GET /api/v2/users/4411/roles\n');
    host.pickInDialog([evidence]);
    await page.getByRole('button', { name: 'Attach files', exact: true }).click();
    await until(
      'the link saved below the table',
      async () =>
        /\| 1 \| admin \|\n\n\[roles\.txt\]\(\/reports\/[^)]+\)\n$/.test(await markdown()),
      15_000,
    );
    const md = await markdown();
    expect(md).toContain(`${table}\n\n[roles.txt](/reports/${reportId}/files/`);
    expect(await editor.locator('table a').count()).toBe(0);
  }, 120_000);
});

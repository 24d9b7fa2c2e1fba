import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { useAppPerTest } from './support/app';
import { caretAtEndOf, focusWithin, goTo, until } from './support/ui';
import { savedDraft } from '../support/drafts';

/**
 * The formatting toolbar shows which toggles are on where the caret is (`aria-pressed`), by the
 * rules the buttons act by: a pressed button is one whose click takes the format off. The walk of
 * the built app found no state at all: after Ctrl+E nothing said that code was on.
 */
const DESCRIPTION = [
  '## Steps to reproduce',
  '',
  'Send the request below as **user B of the tenant** with the `account_role` parameter.',
  '',
  '- Log in on *.example.com as user A',
  '',
  '1. Replay the request',
  '',
  '> The server answers 200 for any account.',
  '',
  '```http',
  'POST /api/v2/invoices/export HTTP/1.1',
  'Host: billing.example.com',
  'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl',
  'Content-Type: application/json',
  '',
  '{"account_id": 1337, "format": "csv"}',
  '```',
  '',
  '## Expected behavior',
  '',
  'A 403 for C:\\Users\\alice\\invoices.csv.',
  '',
].join('\n');

const TOGGLES = ['Bold', 'Italic', 'Code', 'Heading', 'Bulleted list', 'Numbered list', 'Quote'];

describe('renderer: the formatting toolbar shows what is on at the caret', () => {
  const apps = useAppPerTest('toolbar-pressed');

  const description = (page: Page): Locator =>
    page.getByRole('textbox', { name: 'Description', exact: true });

  /** The toggles shown pressed, by name. */
  async function pressed(page: Page): Promise<string[]> {
    const on: string[] = [];
    for (const name of TOGGLES) {
      const button = page
        .getByRole('toolbar', { name: 'Formatting' })
        .getByRole('button', { name, exact: true });
      if ((await button.getAttribute('aria-pressed')) === 'true') on.push(name);
    }
    return on;
  }

  async function expectPressed(page: Page, where: string, names: string[]): Promise<void> {
    await until(`${where}: pressed ${names.join(', ') || 'nothing'}`, async () => {
      return JSON.stringify(await pressed(page)) === JSON.stringify(names);
    });
  }

  it('heading, bold, code, lists, quote and code block each show their state; a click takes it off', async () => {
    const { host, page } = await apps.open();
    const draft = await savedDraft(host, { title: 'Toolbar state', description: DESCRIPTION });
    await goTo(page, `#/reports/${draft.reportId}`);
    const box = description(page);
    await box.getByText('Steps to reproduce', { exact: true }).waitFor();

    // Every toggle says whether it is on; the buttons that only insert say nothing.
    const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
    for (const name of TOGGLES) {
      expect(
        await toolbar.getByRole('button', { name, exact: true }).getAttribute('aria-pressed'),
        name,
      ).not.toBeNull();
    }
    for (const name of ['Link', 'Code block', 'Table']) {
      expect(
        await toolbar.getByRole('button', { name, exact: true }).getAttribute('aria-pressed'),
        name,
      ).toBeNull();
    }

    // The draft just opened, the focus nowhere in it: a heading's "Heading" is the state, not news
    // shown pressed (walks 19, 20: "H" pressed over a draft nobody was typing in).
    const heading = toolbar.getByRole('button', { name: 'Heading', exact: true });
    const plain = toolbar.getByRole('button', { name: 'Link', exact: true });
    const look = (button: Locator): Promise<string> =>
      button.evaluate((el) => {
        const g = globalThis as unknown as {
          getComputedStyle(e: unknown): { backgroundColor: string; color: string };
        };
        const style = g.getComputedStyle(el);
        return `${style.backgroundColor} ${style.color}`;
      });
    await expectPressed(page, 'as opened', ['Heading']);
    await page.getByRole('textbox', { name: 'Title', exact: true }).focus();
    expect(await look(heading)).toBe(await look(plain));

    await caretAtEndOf(box.getByText('Steps to reproduce', { exact: true }), 'Steps to reproduce');
    await expectPressed(page, 'in the heading', ['Heading']);
    expect(await look(heading)).not.toBe(await look(plain));
    // Into the toolbar by keyboard: still pressed where the caret is.
    await page.keyboard.press('Shift+Tab');
    await until('the focus in the toolbar', () => focusWithin(toolbar));
    expect(await look(heading)).not.toBe(await look(plain));
    await caretAtEndOf(box.getByText('Steps to reproduce', { exact: true }), 'Steps to reproduce');

    await box.locator('strong', { hasText: 'user B of the tenant' }).click();
    await expectPressed(page, 'in the bold word', ['Bold']);
    await box.locator('code', { hasText: 'account_role' }).click();
    await expectPressed(page, 'in the inline code', ['Code']);

    const bullet = box.locator('ul li', { hasText: 'Log in on' });
    await caretAtEndOf(bullet, 'Log in on *.example.com as user A');
    await expectPressed(page, 'in the bulleted list', ['Bulleted list']);
    const numbered = box.locator('ol li', { hasText: 'Replay the request' });
    await caretAtEndOf(numbered, 'Replay the request');
    await expectPressed(page, 'in the numbered list', ['Numbered list']);
    const quote = box.locator('blockquote p');
    await caretAtEndOf(quote, 'The server answers 200 for any account.');
    await expectPressed(page, 'in the quote', ['Quote']);

    // In the fenced request: no toggle is on (inline code does not apply inside a code block).
    await box.getByText('Content-Type: application/json', { exact: false }).click();
    await expectPressed(page, 'in the code block', []);

    // Ctrl+E with nothing selected holds code for what is typed next: the button says so, and
    // Enter ends it.
    const expected = box.getByText('A 403 for', { exact: false });
    await caretAtEndOf(expected, 'A 403 for C:\\Users\\alice\\invoices.csv.');
    await expectPressed(page, 'in plain text', []);
    await page.keyboard.press('Control+e');
    await expectPressed(page, 'after Ctrl+E', ['Code']);
    await page.keyboard.type(' id=1337');
    await expectPressed(page, 'typing code', ['Code']);
    await page.keyboard.press('Control+e');
    await expectPressed(page, 'after the second Ctrl+E', []);

    // A click on a pressed button takes the format off: the quote is a paragraph again.
    await caretAtEndOf(quote, 'The server answers 200 for any account.');
    await expectPressed(page, 'back in the quote', ['Quote']);
    await toolbar.getByRole('button', { name: 'Quote', exact: true }).click();
    await expectPressed(page, 'the quote undone', []);
    const markdown = async (): Promise<string> =>
      (await host.engine.getReport(draft.reportId))?.draft?.content.description ?? '';
    await until('the unquoted line saved', async () =>
      (await markdown()).includes('\nThe server answers 200 for any account.\n'),
    );
    expect(await markdown()).not.toContain('> The server answers');
    expect(await markdown()).toContain('A 403 for C:\\Users\\alice\\invoices.csv.` id=1337`');
    expect(await markdown()).toContain(
      'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl\nContent-Type: application/json\n\n{"account_id": 1337, "format": "csv"}\n```',
    );
  }, 120_000);
});

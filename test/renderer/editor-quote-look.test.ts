/**
 * A quote looks like a quote while it is written: the editor draws it as the report's page does
 * (a bar on its left, muted text). The walk of the built app found it drawn as a plain paragraph
 * indented like a list item's text, so nothing showed that the line was quoted.
 */
import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { useAppPerTest } from './support/app';
import { goTo } from './support/ui';
import { savedDraft } from '../support/drafts';

const QUOTED = 'The server answers 201 for any account.';
const DESCRIPTION = [
  '## Steps to reproduce',
  '',
  '1. Send the request',
  '',
  `> ${QUOTED}`,
  '',
  'Plain text after the quote.',
  '',
].join('\n');

/** How an element is drawn: its left border and its text colour. */
const look = (el: Locator) =>
  el.evaluate((node) => {
    const style = (
      globalThis as unknown as {
        getComputedStyle(n: unknown): {
          borderLeftStyle: string;
          borderLeftWidth: string;
          color: string;
        };
      }
    ).getComputedStyle(node);
    return {
      border: `${style.borderLeftStyle} ${style.borderLeftWidth}`,
      color: style.color,
    };
  });

describe('renderer: a quote in the description editor', () => {
  const apps = useAppPerTest('editor-quote-look');

  it('has a bar on its left and muted text, unlike the paragraph after it', async () => {
    const { host, page } = await apps.open();
    const draft = await savedDraft(host, { title: 'A quoted answer', description: DESCRIPTION });
    await goTo(page, `#/reports/${draft.reportId}`);
    const box = page.getByRole('textbox', { name: 'Description', exact: true });
    const quote = box.locator('blockquote', { hasText: QUOTED });
    await quote.waitFor();
    const plain = box.getByText('Plain text after the quote.', { exact: true });

    const quoted = await look(quote);
    const after = await look(plain);
    expect(quoted.border).toMatch(/^solid [2-9]px$/u);
    expect(after.border).toMatch(/^none /u);
    expect(quoted.color).not.toBe(after.color);
  }, 120_000);
});

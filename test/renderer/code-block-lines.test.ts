import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { useAppPerTest } from './support/app';
import { goTo } from './support/ui';
import { savedDraft } from '../support/drafts';
import { templateDescription } from '../support/fixtures';

/**
 * The lines of a code block start in one column in the description editor: a request's first line
 * stood a few pixels right of its headers (the inline code's padding applied to the block's first
 * line only; the rendered Markdown of a report had the same rule).
 */
describe('renderer: the lines of a code block line up', () => {
  const apps = useAppPerTest('code-block-lines');
  const REQUEST = ['POST /api/v2/users HTTP/1.1', 'Host: api.example.com'];

  /** The left edge of the first character of each line of the block's text. */
  const lineStarts = (block: Locator): Promise<number[]> =>
    block.evaluate((el, lines) => {
      interface TextNode {
        textContent: string | null;
      }
      const g = globalThis as unknown as {
        document: {
          createTreeWalker(root: unknown, what: number): { nextNode(): TextNode | null };
          createRange(): {
            setStart(node: TextNode, offset: number): void;
            setEnd(node: TextNode, offset: number): void;
            getBoundingClientRect(): { left: number };
          };
        };
      };
      const walker = g.document.createTreeWalker(el, 4);
      const starts: number[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const line of lines) {
          const at = text.indexOf(line);
          if (at < 0) continue;
          const range = g.document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + 1);
          starts.push(range.getBoundingClientRect().left);
        }
      }
      return starts;
    }, REQUEST);

  it('in the description editor', async () => {
    const { host, page } = await apps.open();
    const draft = await savedDraft(host, {
      title: 'A request in a code block',
      description: templateDescription({
        'Steps to reproduce': `\`\`\`\n${REQUEST.join('\n')}\n\`\`\``,
        'Expected behavior': 'A 403.',
        'Actual behavior': 'A 200.',
        'Security impact': 'Any user becomes admin.',
      }),
    });
    await goTo(page, `#/reports/${draft.reportId}`);
    const block = (p: Page): Locator =>
      p.getByRole('textbox', { name: 'Description', exact: true }).locator('pre');
    await block(page)
      .getByText(REQUEST[1] ?? '', { exact: false })
      .waitFor();
    const [first, second] = await lineStarts(block(page));
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(Math.abs((first ?? 0) - (second ?? 0))).toBeLessThan(0.5);
  }, 120_000);
});

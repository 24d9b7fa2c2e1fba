import { describe, expect, it } from 'vitest';
import { blockInsertPoint, insertBlock } from '../../src/engine/commands/http-import-commands';
import { reportText } from '../support/report-texts';
import { parseMarkdown } from '../../src/shared/rules/markdown';

/** The code blocks of a Markdown text, as a reader sees them. */
function codeBlocks(markdown: string): string[] {
  return parseMarkdown(markdown)
    .children.filter((n) => n.type === 'code')
    .map((n) => (n.type === 'code' ? n.value : ''));
}

describe('a block in the description', () => {
  const doc = '## Steps to reproduce\n\nOpen the page.\n\n## Expected behavior\n\nNothing.';

  it('never splits a line; the start of a line (a heading too) stays where it is', () => {
    expect(blockInsertPoint(doc, doc.indexOf('the page'))).toBe(doc.indexOf('\n\n## Expected'));
    expect(blockInsertPoint(doc, doc.indexOf('## Expected'))).toBe(doc.indexOf('## Expected'));
    expect(blockInsertPoint(doc, 5)).toBe(doc.indexOf('\n'));
    expect(blockInsertPoint(doc, 10_000)).toBe(doc.length);
  });

  it('stands as its own paragraph, with one blank line on each side', () => {
    const { text, end } = insertBlock(
      doc,
      doc.indexOf('## Expected'),
      '```http\nGET / HTTP/1.1\n```',
    );
    expect(text).toBe(
      '## Steps to reproduce\n\nOpen the page.\n\n```http\nGET / HTTP/1.1\n```\n\n## Expected behavior\n\nNothing.',
    );
    expect(text.slice(end - 3, end)).toBe('```');
    expect(insertBlock('', 0, 'B').text).toBe('B\n');
    expect(insertBlock('A', 1, 'B').text).toBe('A\n\nB\n');
  });

  it('never goes inside a code block: a drop on a line of one goes below the block', () => {
    // InfluxDB CVE-2019-20933 (vulhub): a request with a bearer JWT in a fence, then a picture.
    const text = reportText('vulhub--influxdb-CVE-2019-20933.md');
    const header = text.indexOf('Authorization: Bearer eyJ');
    const close = text.indexOf('\n```', header) + '\n```'.length;
    expect(header).toBeGreaterThan(0);
    for (const at of [header, header + 5, text.indexOf('\n', header), close - 1]) {
      expect(blockInsertPoint(text, at), `offset ${at}`).toBe(close);
    }
    // At the start of the fence it stays above the block.
    const open = text.lastIndexOf('```\n', header);
    expect(blockInsertPoint(text, open)).toBe(open);
    const { text: after } = insertBlock(text, header, '```http\nGET / HTTP/1.1\n```');
    expect(after.slice(0, close)).toBe(text.slice(0, close));
    expect(after.slice(close)).toBe(
      `\n\n\`\`\`http\nGET / HTTP/1.1\n\`\`\`\n\n${text.slice(close).replace(/^\n*/, '')}`,
    );
  });

  it('after a fence never closed (an imported file cut short), closes it first: the block is its own', () => {
    const text = reportText('vulhub--influxdb-CVE-2019-20933.md');
    const header = text.indexOf('Authorization: Bearer eyJ');
    const cut = text.slice(0, text.indexOf('\n', header) + 1);
    const block = '```http\nGET /debug/vars HTTP/1.1\nHost: *.example.com\n```';
    for (const at of [cut.length, header + 5]) {
      const { text: after, end } = insertBlock(cut, at, block);
      expect(after.startsWith(cut), `offset ${at}`).toBe(true);
      const blocks = codeBlocks(after);
      expect(blocks.at(-1), `offset ${at}`).toBe('GET /debug/vars HTTP/1.1\nHost: *.example.com');
      expect(blocks.at(-2)?.endsWith(text.slice(header, text.indexOf('\n', header)))).toBe(true);
      expect(after.slice(end - block.length, end)).toBe(block);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { blockInsertPoint, insertBlock } from '../../src/engine/commands/http-import-commands';

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
});

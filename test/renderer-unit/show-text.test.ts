import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Schema, type Node as ProseNode } from '@milkdown/kit/prose/model';
import { findInDocument, markdownAt } from '../../src/renderer/src/editor/show-text';
import { reportExcerptArb } from '../support/report-texts';

// Text blocks as the description editor has them: paragraphs with hard breaks, code blocks.
const schema = new Schema({
  nodes: {
    doc: { content: 'block+' },
    paragraph: { group: 'block', content: 'inline*' },
    code_block: { group: 'block', content: 'text*', marks: '', code: true },
    hardbreak: { group: 'inline', inline: true },
    text: { group: 'inline' },
  },
});
const { nodes } = schema;
const p = (...parts: (string | 'BR')[]) =>
  nodes.paragraph.create(
    null,
    parts
      .filter(Boolean)
      .map((part) => (part === 'BR' ? nodes.hardbreak.create() : schema.text(part))),
  );
const code = (s: string) => nodes.code_block.create(null, s ? [schema.text(s)] : []);
const doc = (...blocks: ProseNode[]) => nodes.doc.create(null, blocks);

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMzM3Iiwicm9sZSI6InVzZXIifQ.4pcPyMD09olPSyXnrXCjTwXyr4BsezdI1AVTmud2fU4';
const REQUEST = `PATCH /api/v2/users/1337/role HTTP/1.1\nHost: api.example.com\nAuthorization: Bearer ${JWT}\nContent-Type: application/json\n\n{"role": "admin", "user_id": 1337}`;
const MARKDOWN = `## Steps to reproduce\n\nEvery tenant under \\*.example.com, from C:\\\\Users\\\\alice\\\\poc.html:\n\n\`\`\`http\n${REQUEST}\n\`\`\`\n`;

describe('showing a finding of the Markdown in the rich editor', () => {
  it('reads the value at its line and column of the Markdown', () => {
    const line = MARKDOWN.split('\n').findIndex((l) => l.includes(JWT)) + 1;
    const column = (MARKDOWN.split('\n')[line - 1] ?? '').indexOf(JWT) + 1;
    expect(markdownAt(MARKDOWN, line, column, JWT.length)).toBe(JWT);
    // Out of the text (it changed since the check read it): nothing, never a shorter piece.
    expect(markdownAt(MARKDOWN, 99, 1, 5)).toBeNull();
    expect(markdownAt(MARKDOWN, line, column + 10, JWT.length)).not.toBe(JWT);
    expect(
      markdownAt(MARKDOWN.slice(0, MARKDOWN.indexOf(JWT) + 10), line, column, JWT.length),
    ).toBeNull();
  });

  it('finds it in a code block across its lines, and after a hard break', () => {
    const d = doc(
      p('Every tenant under *.example.com, from C:\\Users\\alice\\poc.html:'),
      code(REQUEST),
      p('Token seen again:', 'BR', `Bearer ${JWT}`),
    );
    const first = findInDocument(d, JWT);
    expect(first && d.textBetween(first.from, first.to)).toBe(JWT);
    expect(first && d.resolve(first.from).parent.type.name).toBe('code_block');
    const spanning = 'Content-Type: application/json\n\n{"role"';
    const range = findInDocument(d, spanning);
    expect(range && d.textBetween(range.from, range.to)).toBe(spanning);
    // The hard break before it is one position: the range is the token, not one character off.
    const single = doc(p('Token seen again:', 'BR', `Bearer ${JWT}`));
    const afterBreak = findInDocument(single, JWT);
    expect(afterBreak && single.textBetween(afterBreak.from, afterBreak.to)).toBe(JWT);
    expect(findInDocument(d, 'not in the report')).toBeNull();
    expect(findInDocument(d, '')).toBeNull();
  });

  it('finds any piece of a line of a real report where it is (seeded)', () => {
    fc.assert(
      fc.property(
        reportExcerptArb(1200, 4),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 1, max: 60 }),
        (text, which, start, length) => {
          const lines = text.split('\n').filter((l) => l.trim() !== '');
          fc.pre(lines.length > 0);
          const d = doc(...lines.map((l) => p(l)));
          const line = lines[which % lines.length] ?? '';
          const from = start % line.length;
          const piece = line.slice(from, from + length);
          const range = findInDocument(d, piece);
          expect(range && d.textBetween(range.from, range.to)).toBe(piece);
        },
      ),
      { numRuns: 300 },
    );
  });
});

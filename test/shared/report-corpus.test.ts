import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownBlocks, reportTexts, REPORTS_DIR } from '../support/report-texts';

const SOURCES = readFileSync(join(REPORTS_DIR, '..', 'SOURCES.md'), 'utf8');

describe('the real report corpus', () => {
  const texts = reportTexts();

  it('holds 100+ texts within the API description limit, each from a listed source', () => {
    expect(texts.length).toBeGreaterThanOrEqual(100);
    for (const { name, text } of texts) {
      expect(text.length, name).toBeLessThanOrEqual(30_000);
      expect(text.trim().length, name).toBeGreaterThan(0);
      const prefix = name.slice(0, name.indexOf('--') + 2);
      expect(SOURCES, name).toContain(`reports/${prefix}*.md`);
    }
  });

  it('holds what reports hold (printed found/total)', () => {
    const shapes: [string, RegExp][] = [
      ['Authorization: Bearer', /Authorization: Bearer \S/],
      ['HTTP/1.1 request', /^(GET|POST|PUT|PATCH|DELETE) \S+ HTTP\/1\.1$/m],
      ['JSON body after a blank line', /\n\n\{\s*"/],
      ['Cookie header', /^Cookie: /m],
      ['table', /^\|.*\|$/m],
      ['Windows path', /[A-Z]:\\/],
      ['wildcard host', /\*\.[a-z0-9-]+\.[a-z]/],
      ['sqlmap', /sqlmap/],
    ];
    for (const [what, pattern] of shapes) {
      const found = texts.filter((t) => pattern.test(t.text)).length;
      console.log(`report corpus: ${what}: ${found}/${texts.length}`);
      expect(found, what).toBeGreaterThan(0);
    }
    const fenced = texts.filter((t) =>
      markdownBlocks(t.text).some((b) => /^ {0,3}(```|~~~)/.test(b) && b.includes('\n\n')),
    ).length;
    console.log(`report corpus: code block holding a blank line: ${fenced}/${texts.length}`);
    expect(fenced).toBeGreaterThan(0);
  });

  it('splits every text into blocks that join back to the text', () => {
    for (const { name, text } of texts) {
      const blocks = markdownBlocks(text);
      expect(blocks.length, name).toBeGreaterThan(0);
      // Blank lines only separate blocks: dropping them from both sides compares the rest.
      const squeeze = (s: string) =>
        s
          .split('\n')
          .filter((l) => l.trim() !== '')
          .join('\n');
      expect(squeeze(blocks.join('\n\n')), name).toBe(squeeze(text));
    }
  });
});

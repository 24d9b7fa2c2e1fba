import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  escapeWarmUp,
  withoutNeedlessEscapes,
} from '../../src/renderer/src/screens/report/editor/needless-escapes';
import { description } from '../rules/support/descriptions';
import { reportText } from '../rules/support/report-text';

/** The escapes the Markdown writer adds are dropped only where the text reads the same. */
describe('needless escapes', () => {
  it('drops what changes nothing: redaction marks, inline tags, template syntax', () => {
    expect(withoutNeedlessEscapes('Key \\[REDACTED:aws-access-key] here\n')).toBe(
      'Key [REDACTED:aws-access-key] here\n',
    );
    expect(withoutNeedlessEscapes('Payload \\<img src=x onerror=alert(1)> here\n')).toBe(
      'Payload <img src=x onerror=alert(1)> here\n',
    );
    expect(withoutNeedlessEscapes('\\| id | name |\n')).toBe('| id | name |\n');
    expect(withoutNeedlessEscapes('{{7\\*7}} and a\\_b\n')).toBe('{{7*7}} and a_b\n');
    // A backslash before a letter is a backslash: a typed Windows path needs no doubling.
    expect(withoutNeedlessEscapes('C:\\\\Users\\\\me\n')).toBe('C:\\Users\\me\n');
  });

  it('keeps what changes the reading: links, entities, blocks, emphasis, comments', () => {
    for (const kept of [
      '\\[link](https://x.com)\n',
      '\\&amp; stays an entity\n',
      '\\<script>alert(1)</script>\n',
      '\\# not a heading\n',
      '\\*not emphasis\\*\n',
      'a \\<!-- hidden --> b\n',
      '\\[REDACTED:x]\n\n[redacted:x]: https://evil.example\n',
    ]) {
      const out = withoutNeedlessEscapes(kept);
      // (`\*not emphasis\*` may lose one of its two escapes: either alone reads the same.)
      if (kept.startsWith('\\*')) expect(out).toMatch(/\\\*/);
      else expect(out).toBe(kept);
    }
  });

  it('only takes backslashes away, never throws, and a second pass changes nothing (generated texts)', () => {
    fc.assert(
      fc.property(fc.oneof(description, reportText), (markdown) => {
        const out = withoutNeedlessEscapes(markdown);
        // Only backslashes go.
        expect(out.length).toBeLessThanOrEqual(markdown.length);
        expect(withoutNeedlessEscapes(out)).toBe(out);
      }),
      { numRuns: 150, seed: 22 },
    );
  });

  it('weighs a long description in steps while idle, and its first pass then parses nothing new', () => {
    const markdown = fc.sample(reportText, { numRuns: 15, seed: 7 }).join('\n\n');
    const step = escapeWarmUp(markdown);
    // No time left: one block per step (the first step only plans).
    let steps = 1;
    while (!step(() => false)) steps++;
    expect(steps).toBeGreaterThan(5);
    // Every block's result is remembered: a warm-up of the same text has nothing left to do.
    expect(escapeWarmUp(markdown)(() => false)).toBe(true);
    const out = withoutNeedlessEscapes(markdown);
    expect(withoutNeedlessEscapes(out)).toBe(out);
    expect(out.length).toBeLessThan(markdown.length);
  });
});

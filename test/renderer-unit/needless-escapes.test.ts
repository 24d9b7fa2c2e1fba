import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  WARM_UP_SLICE_CHARS,
  escapeWarmUp,
  withoutNeedlessEscapes,
} from '../../src/renderer/src/editor/needless-escapes';
import { description, reportWithPayloads } from '../support/generated-texts';

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
      // Definitions anywhere give labels: in a quote, in a list item, right after another.
      '\\[REDACTED:x]\n\n> [redacted:x]: https://evil.example\n',
      '\\[Shot  One]\n\n- [a]: /a\n  [shot one]: /b\n',
      'See \\[^1]\n\n[^1]: a footnote\n',
    ]) {
      const out = withoutNeedlessEscapes(kept);
      // (`\*not emphasis\*` may lose one of its two escapes: either alone reads the same.)
      if (kept.startsWith('\\*')) expect(out).toMatch(/\\\*/);
      else expect(out).toBe(kept);
    }
  });

  it('among many definitions, keeps the escape one of them needs and drops the others', () => {
    const definitions = Array.from({ length: 40 }, (_, i) => `[d${i}]: https://x.com/${i}`);
    const markdown = `Key \\[REDACTED:k] and \\[d7]\n\n${definitions.join('\n')}\n`;
    expect(withoutNeedlessEscapes(markdown)).toBe(
      `Key [REDACTED:k] and \\[d7]\n\n${definitions.join('\n')}\n`,
    );
  });

  it('only takes backslashes away, never throws, and a second pass changes nothing (generated texts)', () => {
    fc.assert(
      fc.property(fc.oneof(description, reportWithPayloads), (markdown) => {
        const out = withoutNeedlessEscapes(markdown);
        // Only backslashes go.
        expect(out.length).toBeLessThanOrEqual(markdown.length);
        expect(withoutNeedlessEscapes(out)).toBe(out);
      }),
      { numRuns: 150, seed: 22 },
    );
  });

  it('weighs a long description in steps while idle, and its first pass then parses nothing new', () => {
    const blocks = fc.sample(reportWithPayloads, { numRuns: 15, seed: 7 });
    const step = escapeWarmUp(blocks.map((b) => () => b));
    // No time left: one unit (a piece written, or one block weighed) per step.
    let steps = 1;
    while (!step(() => false)) steps++;
    expect(steps).toBeGreaterThan(blocks.length);
    // Every block's result is remembered: a warm-up of the same pieces has only writing left.
    const again = escapeWarmUp(blocks.map((b) => () => b));
    let writes = 1;
    while (!again(() => false)) writes++;
    expect(writes).toBe(blocks.length);
    const markdown = blocks.join('\n\n');
    const out = withoutNeedlessEscapes(markdown);
    expect(withoutNeedlessEscapes(out)).toBe(out);
    expect(out.length).toBeLessThan(markdown.length);
  });

  it('bounds each step by work, not by the time it is told it has: a 27 KB description in slices', () => {
    // The description the editor bench opens: report texts with payloads, about 27 KB.
    const blocks: string[] = [];
    for (const text of fc.sample(reportWithPayloads, { numRuns: 2_000, seed: 2_722 })) {
      if (blocks.join('\n\n').length >= 27_000) break;
      blocks.push(text.trimEnd());
    }
    const largest = Math.max(...blocks.map((b) => b.length));
    const written: number[][] = [];
    let slice: number[] = [];
    const step = escapeWarmUp(
      blocks.map((b) => () => {
        slice.push(b.length);
        return b;
      }),
    );
    // Unlimited idle time: each step still stops after its share of work.
    let done = false;
    while (!done) {
      slice = [];
      done = step(() => true);
      written.push(slice);
    }
    const total = blocks.reduce((n, b) => n + b.length, 0);
    expect(written.flat()).toHaveLength(blocks.length);
    expect(written.length).toBeGreaterThanOrEqual(
      Math.floor(total / (WARM_UP_SLICE_CHARS + largest)),
    );
    for (const sizes of written) {
      // Within the budget, but for the one unit that crossed it.
      const sum = sizes.reduce((n, b) => n + b, 0);
      expect(sum - (sizes.at(-1) ?? 0)).toBeLessThan(WARM_UP_SLICE_CHARS);
    }
  });

  it('resumes a block that needs many parses in the next step instead of weighing it whole', () => {
    // One block with escapes some of which change the reading (`\*a\*` would become emphasis),
    // so weighing it halves its escapes over many parses: 38 ms in one idle slice before
    //; now one parse per unit, resumed by the next step.
    const block = Array.from({ length: 24 }, (_, i) => `x${i} \\*a\\* \\[REDACTED:k${i}] y`).join(
      ' ',
    );
    const units = escapeWarmUp([() => block], () => '[zz]: https://example.com');
    let steps = 1;
    while (!units(() => false)) steps++;
    // The write, the reading to keep, then one step per variant tried.
    expect(steps).toBeGreaterThan(8);
    // With all the time in the world, a step still parses at most about WARM_UP_SLICE_CHARS.
    const sliced = escapeWarmUp([() => `${block} z`], () => '[zy]: https://example.com');
    let slices = 1;
    while (!sliced(() => true)) slices++;
    expect(slices).toBeGreaterThan(1);
    const out = withoutNeedlessEscapes(`${block}\n`);
    expect(out).toContain('[REDACTED:k0]');
    expect(out).toContain('\\*a\\*');
  });
});

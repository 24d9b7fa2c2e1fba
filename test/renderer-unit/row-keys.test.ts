import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recycledKeys } from '../../src/renderer/src/lib/row-keys';

/** The rows a list of `total` shows from `first`, `size` at a time, by name. */
const view = (first: number, size: number, total = 100_000): string[] =>
  Array.from({ length: Math.min(size, total - first) }, (_, i) => `r${first + i}`);

describe('recycled row keys', () => {
  it('a scroll gives the keys of the rows that left to the rows that came, and keeps the others', () => {
    const before = recycledKeys(new Map(), view(0, 30));
    expect([...before.values()].sort((a, b) => a - b)).toEqual(view(0, 30).map((_, i) => i));
    const after = recycledKeys(before, view(10, 30));
    for (const row of view(10, 20)) expect(after.get(row)).toBe(before.get(row));
    const leftKeys = view(0, 10).map((row) => before.get(row));
    const cameKeys = view(30, 10).map((row) => after.get(row));
    expect(new Set(cameKeys)).toEqual(new Set(leftKeys));
  });

  it('a jump past every row shown (a drag of the scroll bar) hands the keys on in their order', () => {
    const before = recycledKeys(new Map(), view(0, 25));
    const after = recycledKeys(before, view(100, 25));
    expect([...after.values()]).toEqual([...before.values()]);
  });

  it('a report inserted at the top: every row shown keeps its key, the new one takes a new key', () => {
    const before = recycledKeys(new Map(), ['b', 'c', 'd']);
    const after = recycledKeys(before, ['a', 'b', 'c', 'd']);
    for (const row of ['b', 'c', 'd']) expect(after.get(row)).toBe(before.get(row));
    expect([...before.values()]).not.toContain(after.get('a'));
  });

  it('the focused row gives its key to nobody when it leaves', () => {
    const before = recycledKeys(new Map(), view(0, 5));
    const held = before.get('r0');
    const after = recycledKeys(before, view(1, 5), 'r0');
    expect([...after.values()]).not.toContain(held);
  });

  it('keys stay unique through any run of views and focus (property)', () => {
    let views = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            first: fc.nat({ max: 500 }),
            size: fc.integer({ min: 0, max: 40 }),
            held: fc.option(fc.nat({ max: 540 }), { nil: null }),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        (steps) => {
          let keys = new Map<string, number>();
          for (const { first, size, held } of steps) {
            const shown = view(first, size, 540);
            const next = recycledKeys(keys, shown, held === null ? null : `r${held}`);
            views++;
            expect([...next.keys()]).toEqual(shown);
            expect(new Set(next.values()).size).toBe(shown.length);
            // A row in view before and now keeps its key.
            for (const row of shown) if (keys.has(row)) expect(next.get(row)).toBe(keys.get(row));
            // Keys stay few: about the rows shown, never one per report passed.
            expect(Math.max(-1, ...next.values())).toBeLessThan(2 * 40 + 1);
            keys = next;
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(views).toBeGreaterThanOrEqual(300);
  });
});

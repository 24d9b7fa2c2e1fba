import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeText } from '../../src/cli/terminal';

const SEED = Number(process.env['PROPERTY_SEED']) || Date.now() % 2 ** 31;

/** What a terminal acts on: C0 controls but tab and newline, DEL, C1 controls, bidi overrides. */
const acted = (ch: number): boolean =>
  (ch < 0x20 && ch !== 0x09 && ch !== 0x0a) ||
  (ch >= 0x7f && ch <= 0x9f) ||
  ch === 0x200e ||
  ch === 0x200f ||
  (ch >= 0x202a && ch <= 0x202e) ||
  (ch >= 0x2066 && ch <= 0x2069);

describe('text from the service, printed to a terminal', () => {
  it('loses the escape sequences of a hostile title (ESC, OSC 8 links, bell, C1 CSI)', () => {
    const title =
      '\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007 \u001b[2J\u009b31m ok\r';
    expect(safeText(title)).toBe(']8;;https://evil.exampleclick]8;; [2J31m ok');
  });

  it('keeps every other character, in order, whatever the text (seeded)', () => {
    console.log(`safeText property seed: ${SEED} (PROPERTY_SEED replays it)`);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const out = safeText(text);
        const kept = [...text].filter((c) => !acted(c.codePointAt(0) ?? 0)).join('');
        expect(out).toBe(kept);
      }),
      { numRuns: 500, seed: SEED },
    );
  });
});

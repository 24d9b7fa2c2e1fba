import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesColumns, mayMatch, parseSearch, tokenize } from '../../src/engine/store/text-match';
import { reportExcerptArb } from '../support/report-texts';

/** The tokenizer's rule, as text-match.ts states it, token by token (the slow way). */
function reference(text: string): string[] {
  return (text.match(/[\p{L}\p{N}\p{Co}]+/gu) ?? [])
    .map((t) => t.toLowerCase().normalize('NFD').replace(/\p{M}/gu, ''))
    .filter((t) => t.length > 0);
}

// Report-like text: ASCII words and punctuation, plus letters that fold (accents, Greek with its
// final sigma, Turkish dotted I, combining marks, ligatures, CJK).
const pieces = fc.constantFrom(
  'token',
  'Redirect',
  'SSRF',
  'x',
  '42',
  ' ',
  '\n',
  '-',
  '.',
  "'",
  '/',
  '_',
  '(',
  ')',
  '`',
  'café',
  'CAFE\u0301',
  'ΟΔΟΣ',
  'οδός',
  'Σ',
  'İstanbul',
  'ﬁle',
  '漢字',
  'ß',
  '\u0301',
);
// And runs of real reports (test/fixtures/real/reports): requests, tokens, JSON, paths, tables.
const text = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .array(fc.oneof(pieces, fc.string({ maxLength: 6 })), { maxLength: 30 })
      .map((a) => a.join('')),
  },
  { weight: 1, arbitrary: reportExcerptArb(1_500, 3) },
);
const asciiText = fc.string({ maxLength: 200 }).map((s) => s.replace(/\P{ASCII}/gu, ''));

describe('report text matching without the index', () => {
  it('tokenizes ASCII text exactly as the rule does, by the fast path', () => {
    fc.assert(
      fc.property(asciiText, (t) => {
        expect(tokenize(t)).toEqual(reference(t));
      }),
      {
        numRuns: 2_000,
      },
    );
  });

  it('tokenizes any text as the rule does', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(tokenize(t)).toEqual(reference(t));
      }),
      {
        numRuns: 2_000,
      },
    );
  });

  it('the cheap pre-test never rules out a report that matches', () => {
    fc.assert(
      fc.property(text, text, fc.nat(), fc.boolean(), (title, body, pick, prefix) => {
        const tokens = tokenize(`${title} ${body}`);
        fc.pre(tokens.length > 0);
        const token = tokens[pick % tokens.length] as string;
        // What is typed is NFKC-normalized ("ﬁ" is typed "fi"), as FTS5 would miss it too.
        fc.pre(token.normalize('NFKC') === token);
        const typed = prefix ? [...token].slice(0, 3).join('') + '*' : token;
        const words = parseSearch(typed);
        fc.pre(words !== null);
        const columns = [title, body];
        expect(mayMatch(words ?? [], columns)).toBe(true);
        expect(matchesColumns(words ?? [], columns)).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });

  it('the pre-test folds case, accents and the final sigma as the tokens are folded', () => {
    const match = (typed: string, body: string) =>
      matchesColumns(parseSearch(typed, { prefixLast: false }) ?? [], ['', body]);
    expect(match('cafe', 'Le CAFÉ est ouvert')).toBe(true);
    expect(match('café', 'un cafe\u0301')).toBe(true);
    // "ΟΔΟΣ'Χ": in the whole text Σ is not final (a letter follows the apostrophe); alone it is.
    expect(match('οδος', "ΟΔΟΣ'Χ")).toBe(true);
    expect(match('token', 'a session cookie')).toBe(false);
  });
});

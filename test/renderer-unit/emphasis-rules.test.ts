import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPHASIS_STAR } from '../../src/renderer/src/editor/emphasis-rules';

/**
 * The typed-emphasis rule sees the text before the caret each time a `*` is typed: every prefix
 * of a line that ends in `*` is what it is asked about.
 */
function starsTyped(line: string): string[] {
  const prefixes: string[] = [];
  for (let i = 0; i < line.length; i++) if (line[i] === '*') prefixes.push(line.slice(0, i + 1));
  return prefixes;
}

const madeEmphasis = (line: string): string[] =>
  starsTyped(line).filter((prefix) => EMPHASIS_STAR.test(prefix));

/** Scope entries as programs and researchers write them: wildcard hosts, globs, paths. */
const scopeEntry = fc.constantFrom(
  '*.example.com',
  '*.api.example.com',
  '*.example.org',
  'api.example.com/*',
  'https://*.example.com/*',
  '/api/v2/*',
  'C:\\Users\\*\\AppData',
  '*.s3.amazonaws.com',
  '`*.example.com`',
  '*',
);
const between = fc.constantFrom(', ', ',', '; ', ' and ', ' ', ' (', ') ', ' `', '` ', ' | ');
const scopeLine = fc
  .tuple(
    fc.constantFrom('', 'Scope: ', 'Hosts (', 'In scope: ', 'See '),
    fc.array(fc.tuple(scopeEntry, between), { minLength: 2, maxLength: 6 }),
  )
  .map(([lead, entries]) => lead + entries.map(([entry, sep]) => entry + sep).join(''));

describe('typed emphasis', () => {
  it('wildcards written close together stay text as each star is typed', () => {
    for (const line of [
      'Scope: *.example.com; see `*.example.com` in the policy.',
      'Hosts (*.example.com,*.example.org) answer.',
      'Both *.globex.example and *.globex.test are affected.',
      'Paths api.example.com/* and https://*.example.com/* are in scope.',
      'Also *args, and 2 * 3 * 4.',
    ])
      expect(madeEmphasis(line), line).toEqual([]);
  });

  it('no list of wildcards, globs and paths becomes emphasis (property)', () => {
    let lines = 0;
    fc.assert(
      fc.property(scopeLine, (line) => {
        lines++;
        expect(madeEmphasis(line)).toEqual([]);
      }),
      { numRuns: 2_000 },
    );
    expect(lines).toBeGreaterThanOrEqual(2_000);
  });

  it('a star around words is emphasis, with what the text holds inside', () => {
    for (const [typed, inside] of [
      ['Real *emphasis*', 'emphasis'],
      ['*x*', 'x'],
      ['The *really* bad part', 'really'],
      ['a *"quoted" word*', '"quoted" word'],
      ['*(optional)*', '(optional)'],
      ['x *Note:*', 'Note:'],
      ['Use *Authorization: Bearer*', 'Authorization: Bearer'],
      ['日本語の*強調*', '強調'],
    ] as const) {
      const match = EMPHASIS_STAR.exec(typed.slice(0, typed.lastIndexOf('*') + 1));
      expect(match?.[1], typed).toBe(inside);
    }
  });

  it('an escaped star, a second star or a space inside is never emphasis', () => {
    for (const typed of ['\\*a*', '**a*', 'a * b*', 'a *b *', '*.example.com*', 'x *a,*'])
      expect(EMPHASIS_STAR.test(typed), typed).toBe(false);
  });
});

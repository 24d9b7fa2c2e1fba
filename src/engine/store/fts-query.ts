import { parseSearch, type ParseOptions, type SearchWord } from './text-match';

/**
 * Turns what a person typed into a safe FTS5 MATCH expression (the rules are in text-match.ts).
 *
 * Every word becomes a quoted string ("" doubled inside), so FTS5 operators typed by the user
 * (`NEAR`, `AND`, `OR`, `NOT`, `-`, `^`, `:`, parentheses, column filters) are plain words. Words
 * are ANDed. A word ending in `*`, and the last word (search as you type), match as prefixes once
 * their last token has `MIN_PREFIX` characters. Returns null when nothing searchable is left
 * (only punctuation, empty input).
 */
export type MatchOptions = ParseOptions;

export function ftsExpression(words: readonly SearchWord[]): string {
  return words
    .map((word) => {
      const quoted = `"${word.text.replaceAll('"', '""')}"`;
      return word.prefix ? `${quoted}*` : quoted;
    })
    .join(' ');
}

export function toFtsMatch(input: string, options: MatchOptions = {}): string | null {
  const words = parseSearch(input, options);
  return words === null ? null : ftsExpression(words);
}

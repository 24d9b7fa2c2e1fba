/**
 * Turns what a person typed into a safe FTS5 MATCH expression.
 *
 * Every token becomes a quoted string ("" doubled inside), so FTS5 operators typed by the user
 * (`NEAR`, `AND`, `OR`, `NOT`, `-`, `^`, `:`, parentheses, column filters) are plain words. Tokens
 * are ANDed. A token ending in `*`, and the last token (search as you type), match as prefixes.
 * Returns null when nothing searchable is left (only punctuation, empty input).
 */
const MAX_TOKENS = 32;
const searchable = /[\p{L}\p{N}]/u;

export interface MatchOptions {
  /** Prefix-match the last token even without `*` (default true). */
  prefixLast?: boolean;
}

export function toFtsMatch(input: string, options: MatchOptions = {}): string | null {
  const prefixLast = options.prefixLast ?? true;
  const tokens = input
    .normalize('NFKC')
    .split(/\s+/u)
    .map((raw) => ({ text: raw.replace(/\*+$/u, ''), prefix: raw.endsWith('*') }))
    .filter((token) => searchable.test(token.text))
    .slice(0, MAX_TOKENS);
  if (tokens.length === 0) return null;
  return tokens
    .map((token, index) => {
      const quoted = `"${token.text.replaceAll('"', '""')}"`;
      const prefix = token.prefix || (prefixLast && index === tokens.length - 1);
      return prefix ? `${quoted}*` : quoted;
    })
    .join(' ');
}

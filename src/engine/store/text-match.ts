/**
 * What a person typed in a search box, parsed once for both ways a report is searched: as an
 * FTS5 MATCH expression for the indexed reports (`fts-query.ts`), and as a matcher in JavaScript
 * for the rows the index does not hold yet (queued for the background drain) and for local drafts
 * (which are not indexed at all). Both follow the report index's tokenizer
 * (`unicode61 remove_diacritics 2`): a token is a run of Unicode letters, digits or private-use
 * characters, compared case-folded and without diacritics. The JavaScript side uses the Unicode
 * tables of the JavaScript engine rather than SQLite's, so rare characters may tokenize differently
 * for the moments a report waits to be indexed.
 *
 * Rules (see `toFtsMatch`): whitespace-separated words are ANDed; a word with punctuation inside
 * ("foo-bar") is a phrase of its tokens; a word ending in `*`, and the last word (search as you
 * type), match as prefixes, but only from `MIN_PREFIX` characters: a one- or two-letter prefix
 * expands to a large part of the vocabulary (1.8 s for one letter at 100,000 reports), and finds
 * nothing a person would narrow to anyway.
 */
export const MAX_WORDS = 32;
export const MIN_PREFIX = 3;

const searchable = /[\p{L}\p{N}]/u;
const tokenRun = /[\p{L}\p{N}\p{Co}]+/gu;
const marks = /\p{M}/gu;
const nonAscii = /[^\p{ASCII}]/u;

export interface SearchWord {
  /** The word as typed (without trailing `*`), for the FTS5 string. */
  text: string;
  /** Its tokens, folded: an FTS5 phrase. */
  tokens: string[];
  /** The last token matches as a prefix. */
  prefix: boolean;
}

export interface ParseOptions {
  /** Prefix-match the last word even without `*` (default true). */
  prefixLast?: boolean;
}

function fold(token: string): string {
  return token.toLowerCase().normalize('NFD').replace(marks, '');
}

const asciiRun = /[a-z0-9]+/g;

/**
 * The folded tokens of `text`, in order. ASCII text (most reports) is lower-cased once and split
 * by one native regex, ten times faster than folding token by token; the result is the same.
 */
export function tokenize(text: string): string[] {
  if (!nonAscii.test(text)) return text.toLowerCase().match(asciiRun) ?? [];
  return (text.match(tokenRun) ?? []).map(fold).filter((t) => t.length > 0);
}

/** Null when nothing searchable is left (only punctuation, empty input). */
export function parseSearch(input: string, options: ParseOptions = {}): SearchWord[] | null {
  const prefixLast = options.prefixLast ?? true;
  const words = input
    .normalize('NFKC')
    .split(/\s+/u)
    .map((raw) => ({ text: raw.replace(/\*+$/u, ''), star: raw.endsWith('*') }))
    .filter((word) => searchable.test(word.text))
    .slice(0, MAX_WORDS);
  if (words.length === 0) return null;
  return words.map((word, index) => {
    const tokens = tokenize(word.text);
    const last = tokens[tokens.length - 1] ?? '';
    const wanted = word.star || (prefixLast && index === words.length - 1);
    return { text: word.text, tokens, prefix: wanted && [...last].length >= MIN_PREFIX };
  });
}

/** Whether one column's tokens hold the phrase (the last token as a prefix when asked). */
function hasPhrase(column: readonly string[], word: SearchWord): boolean {
  const { tokens, prefix } = word;
  if (tokens.length === 0) return false;
  const lastIndex = tokens.length - 1;
  for (let start = 0; start + tokens.length <= column.length; start++) {
    let k = 0;
    for (; k < tokens.length; k++) {
      const have = column[start + k] as string;
      const want = tokens[k] as string;
      const ok = k === lastIndex && prefix ? have.startsWith(want) : have === want;
      if (!ok) break;
    }
    if (k === tokens.length) return true;
  }
  return false;
}

const finalSigma = /ς/gu;

/**
 * The text as `tokenize` folds it (lower case, diacritics removed), in one piece: ASCII text
 * (most reports) only needs lower case, the expensive NFD pass is for the rest. A final sigma is
 * made a plain one on both sides: whether lower case gives ς depends on what follows, which is not
 * the same in the whole text as in one token.
 */
function foldText(text: string): string {
  const lower = text.toLowerCase();
  if (!nonAscii.test(lower)) return lower;
  return lower.normalize('NFD').replace(marks, '').replace(finalSigma, 'σ');
}

/**
 * False only when the text cannot match: some token of the search is not even a substring of the
 * folded text (every token `tokenize` finds is one). Tokenizing a report with its thread costs
 * about 50 µs; this test a few µs, and it rules out nearly every row of a narrow search.
 */
export function mayMatch(words: readonly SearchWord[], columns: readonly string[]): boolean {
  const folded = columns.map(foldText);
  return words.every((word) =>
    word.tokens.every((token) => {
      const plain = token.replace(finalSigma, 'σ');
      return folded.some((column) => column.includes(plain));
    }),
  );
}

/** Every word is in some column (a phrase never spans two columns), as FTS5 would answer. */
export function matchesColumns(words: readonly SearchWord[], columns: readonly string[]): boolean {
  return matchScore(words, columns) !== null;
}

/**
 * Null when the columns do not match (as `matchesColumns`); else a rough relevance for rows found
 * without the index (bm25 needs the index's statistics): how many words hit the title, weighted
 * as the index weighs columns (5), plus the other columns (1). Each column is tokenized once.
 */
export function matchScore(
  words: readonly SearchWord[],
  columns: readonly string[],
): number | null {
  if (!mayMatch(words, columns)) return null;
  const tokenized = columns.map(tokenize);
  if (!words.every((word) => tokenized.some((column) => hasPhrase(column, word)))) return null;
  const weights = [5, 1, 1];
  let score = 0;
  tokenized.forEach((column, i) => {
    for (const word of words) if (hasPhrase(column, word)) score += weights[i] ?? 1;
  });
  return score;
}

import type { ReportStatus } from './api-types';
import type { SearchWord } from './text-match';

/**
 * A report's status and program are tokens of the search index's `facets` column (migration 10):
 * `s` and `p` followed by the value's UTF-8 bytes in hex (what SQLite's `lower(hex(x))` gives),
 * one token each whatever the value holds. A search with a filter then asks FTS5 for both at
 * once, and its hits are the list's rows: at 100,000 reports, a search for a word in a quarter of
 * them with one status took 6.5 ms to collect its 25,000 hits and count those of the status,
 * against 1.9 ms for FTS5 to intersect. What a person types only ever searches the text columns.
 */
export const TEXT_COLUMNS = '{title description messages asset}';

/** What a facet token may begin with: `s` or `p`, then hex digits (see `token`). */
const facetPrefix = /^[sp][0-9a-f]*$/u;
const asciiOnly = /^\p{ASCII}*$/u;

/**
 * The FTS5 expression of what a person typed (`expression`), matched in the text columns only.
 * The column filter is said only when some word could match a facet token: FTS5 reads the
 * positions of every hit to apply it, and a prefix query collects all of its hits first, so the
 * first page of a search for a word in a quarter of 100,000 reports took 2.8 ms with it and 1.1
 * without. A word of ASCII text tokenizes alike here and in SQLite (text-match.ts); one whose
 * tokens cannot begin a facet token never matches the facets column, so the hits are the same.
 */
export function textColumnsMatch(words: readonly SearchWord[], expression: string): string {
  const facetFree = words.every(
    (word) => asciiOnly.test(word.text) && word.tokens.every((t) => !facetPrefix.test(t)),
  );
  return facetFree ? `(${expression})` : `${TEXT_COLUMNS} : (${expression})`;
}

export interface ReportFacets {
  /** Only these statuses (none: any). */
  statuses: readonly ReportStatus[];
  /** Only this program's reports (null: any). */
  program: string | null;
}

export const NO_FACETS: ReportFacets = { statuses: [], program: null };

const token = (kind: 's' | 'p', value: string): string =>
  `"${kind}${Buffer.from(value, 'utf8').toString('hex')}"`;

/** The FTS5 expression of the facets, or null when nothing is filtered. */
export function facetExpression(facets: ReportFacets): string | null {
  const parts: string[] = [];
  if (facets.statuses.length > 0) {
    parts.push(`facets : (${facets.statuses.map((s) => token('s', s)).join(' OR ')})`);
  }
  if (facets.program !== null) parts.push(`facets : ${token('p', facets.program)}`);
  return parts.length > 0 ? parts.join(' AND ') : null;
}

/** An opened text saved untouched, then with one word changed in one block (editor harness). */
export interface KeptRoundTrip {
  /** Saved right after opening. */
  saved: string;
  /** Saved after one word of a block was changed (null: no block with a word to change). */
  edited: string | null;
  /** The changed block's span in the text as read (null: it was not kept). */
  span: { start: number; end: number } | null;
  /** The word changed (an `s` was added to it). */
  word: string;
  error?: string;
}

/**
 * Whether a text saved after one block was changed kept every other block byte for byte: it is
 * the text as read with only the changed block's span (`span`, in the text as read) replaced.
 */
export function keptOutside(
  read: string,
  saved: string,
  span: { start: number; end: number } | null,
): boolean {
  if (!span) return false;
  const before = read.slice(0, span.start);
  const after = read.slice(span.end);
  return (
    saved.length >= before.length + after.length &&
    saved.startsWith(before) &&
    saved.endsWith(after)
  );
}

/**
 * Mapping a point in the rich-text editor to an offset in the Markdown the engine stores.
 *
 * The editor inserts a marker word at the drop point in a copy of its document and serializes
 * that copy; the marker's index in the result is the offset. Serializing may format the text
 * around a marker differently (a marker between blocks becomes its own paragraph), so the offset
 * is clamped to the longest prefix the marked text shares with the unmarked Markdown. Pure.
 */

/** A marker that Markdown serialization leaves alone (letters and digits only). */
export function makeMarker(random: () => number = Math.random): string {
  return `BDDROP${Math.floor(random() * 1e12).toString(36)}X`;
}

export function offsetFromMarked(marked: string, marker: string, markdown: string): number {
  const index = marked.indexOf(marker);
  if (index < 0) return markdown.length;
  const before = marked.slice(0, index);
  if (markdown.startsWith(before)) return before.length;
  // The marker can make the serializer escape a character next to it ("flow.X" would read as a
  // domain, so it writes "flow\.X"): walk both texts, skipping backslashes only one side has.
  let i = 0;
  let j = 0;
  while (i < before.length && j < markdown.length) {
    if (before[i] === markdown[j]) {
      i++;
      j++;
    } else if (before[i] === '\\') {
      i++;
    } else if (markdown[j] === '\\') {
      j++;
    } else {
      break;
    }
  }
  return j;
}

const WORD = /[\p{L}\p{N}_]/u;

/**
 * A link dropped inside a word would split it: move the offset to the end of that word.
 * Offsets between words, at line ends or next to punctuation stay where they are.
 */
export function snapOutOfWord(markdown: string, offset: number): number {
  let at = Math.max(0, Math.min(offset, markdown.length));
  const before = markdown[at - 1];
  const after = markdown[at];
  if (before === undefined || after === undefined || !WORD.test(before) || !WORD.test(after))
    return at;
  while (at < markdown.length && WORD.test(markdown[at] as string)) at++;
  return at;
}

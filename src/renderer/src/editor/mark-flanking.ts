/**
 * A closing `*`, `**` or `~~` after punctuation closes only before whitespace or punctuation
 * (CommonMark's flanking rules): `*a [x](http://x.co)*b` is no emphasis. Milkdown's writer puts
 * the text after an emphasis right after its marker, so when what the mark wrote ends in
 * punctuation and the text after it starts with a letter or digit, that first character is
 * written as a character reference (`*…)*&#x62;`), as mdast's own writer does: it reads as the
 * same letter, and the marker closes.
 */
import type { Handle, Info, State } from 'mdast-util-to-markdown';
import type { Nodes, Parents } from 'mdast';
import { autolinkSpans } from './autolinks';

/** What each emphasis and strong of the tree being written wrote (its last write: the real one). */
const written = new WeakMap<Nodes, string>();

/** The mark's handler, remembering what it wrote. */
export function recordWrittenMark(base: Handle): Handle {
  return (node: Nodes, parent: Parents | undefined, state: State, info: Info): string => {
    const out = base(node, parent, state, info);
    written.set(node, out);
    return out;
  };
}

const PUNCTUATION = /[\p{P}\p{S}]/u;
const WHITESPACE = /\s/u;

/** Whether `markdown` (a mark as written) ends in a closing marker right after punctuation. */
function closesAfterPunctuation(markdown: string): boolean {
  const marker = markdown.at(-1);
  if (marker !== '*' && marker !== '_' && marker !== '~') return false;
  let at = markdown.length - 1;
  while (at > 0 && markdown[at - 1] === marker) at--;
  return PUNCTUATION.test(markdown[at - 1] ?? '');
}

/**
 * `out` (what the text handler wrote for `value`, the text after `previous`) with its first
 * character as a character reference where the mark before could not close otherwise. Not where
 * that would start a link the letter kept from being one (`bwww.x.com` read as `;www.x.com`).
 */
export function afterClosingMarker(
  previous: Nodes | undefined,
  value: string,
  out: string,
): string {
  const first = value.codePointAt(0);
  if (first === undefined || !previous || !out.startsWith(String.fromCodePoint(first))) return out;
  const char = String.fromCodePoint(first);
  if (PUNCTUATION.test(char) || WHITESPACE.test(char)) return out;
  const mark = written.get(previous);
  if (mark === undefined || !closesAfterPunctuation(mark)) return out;
  const rest = value.slice(char.length);
  const spans = (text: string, shift: number): string =>
    JSON.stringify(autolinkSpans(text).map((s) => [s.start + shift, s.end + shift]));
  if (spans(`;${rest}`, char.length - 1) !== spans(value, 0)) return out;
  return `&#x${first.toString(16).toUpperCase()};${out.slice(char.length)}`;
}

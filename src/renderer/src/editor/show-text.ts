/**
 * Shows the researcher a piece of the description's Markdown in the rich editor: a credential the
 * check found is placed by its Markdown line and column ("Description, line 33"), which the
 * editor does not show.
 */
import type { Node as ProseNode } from '@milkdown/kit/prose/model';
import { TextSelection } from '@milkdown/kit/prose/state';
import type { EditorView } from '@milkdown/kit/prose/view';

/** One character for each inline node without text (a hard break, an image): positions stay aligned. */
const LEAF = '\ufffc';

/** Where `text` first occurs inside one text block of `doc`, as document positions. */
export function findInDocument(doc: ProseNode, text: string): { from: number; to: number } | null {
  if (text === '') return null;
  let found: { from: number; to: number } | null = null;
  doc.descendants((node, pos) => {
    if (found) return false;
    if (!node.isTextblock) return true;
    const at = node.textBetween(0, node.content.size, undefined, LEAF).indexOf(text);
    if (at >= 0) found = { from: pos + 1 + at, to: pos + 1 + at + text.length };
    return false;
  });
  return found;
}

/** The Markdown from 1-based `line` and `column` on, `length` characters of it (null when out of it). */
export function markdownAt(
  markdown: string,
  line: number,
  column: number,
  length: number,
): string | null {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const end = markdown.indexOf('\n', start);
    if (end < 0) return null;
    start = end + 1;
  }
  const from = start + column - 1;
  const text = markdown.slice(from, from + length);
  return text.length === length && length > 0 ? text : null;
}

/** Markdown's backslash escapes of punctuation taken off: the text as the editor holds it. */
const unescaped = (text: string): string => text.replace(/\\([!-/:-@[-`{-~])/gu, '$1');

/**
 * Whether `text` is the value whose SHA-256 (hex) begins with `fingerprint`, as the check's
 * findings name theirs: text read at a finding's line and column after the description changed
 * is some other text (walk 19 saw Show select the 229 characters after a deleted token).
 */
export async function isFingerprinted(text: string, fingerprint: string): Promise<boolean> {
  if (fingerprint === '') return false;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  return hex.startsWith(fingerprint.toLowerCase());
}

/**
 * Selects `text` where the editor holds it (as written, or without Markdown's escapes), gives
 * the editor the focus and has `centre` scroll the range to the middle of the pane. False when the
 * editor does not hold it.
 */
export function selectText(
  view: EditorView,
  text: string,
  centre: (from: number, to: number) => void,
): boolean {
  const { doc } = view.state;
  const range = findInDocument(doc, text) ?? findInDocument(doc, unescaped(text));
  if (!range) return false;
  view.dispatch(view.state.tr.setSelection(TextSelection.create(doc, range.from, range.to)));
  view.focus();
  centre(range.from, range.to);
  return true;
}

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
 * Selects in the editor the text at `line`/`column` of `markdown` (the editor's own Markdown),
 * scrolls it into view and gives the editor the focus. False when the editor does not hold it
 * (the text changed since it was read).
 */
export function showMarkdownText(
  view: EditorView,
  markdown: string,
  place: { line: number; column: number; length: number },
): boolean {
  const text = markdownAt(markdown, place.line, place.column, place.length);
  if (!text) return false;
  const { doc } = view.state;
  const range = findInDocument(doc, text) ?? findInDocument(doc, unescaped(text));
  if (!range) return false;
  view.dispatch(
    view.state.tr.setSelection(TextSelection.create(doc, range.from, range.to)).scrollIntoView(),
  );
  view.focus();
  return true;
}

/**
 * How lists and raw HTML lines in them are written, so that a tight list the researcher typed
 * stays tight and two lists of different kinds stay two lists.
 */
import type { List, Nodes, Parents } from 'mdast';
import type { Handle, Info, Join, State } from 'mdast-util-to-markdown';

/** A paragraph that is one line of raw HTML: what the editor makes of an HTML block. */
function isHtmlLine(node: Nodes): boolean {
  if (node.type !== 'paragraph' || node.children.length !== 1) return false;
  const only = node.children[0];
  return only?.type === 'html' && !only.value.includes('\n');
}

/** Set by `writeList` on an HTML line that follows its item's text at once (`joinsText`). */
const JOINS_TEXT = 'bountyDeskJoinsText';

const flagged = (node: Nodes): boolean =>
  (node.data as Record<string, unknown> | undefined)?.[JOINS_TEXT] === true;

function flag(node: Nodes): void {
  const data: Record<string, unknown> = { ...node.data, [JOINS_TEXT]: true };
  (node as { data?: unknown }).data = data;
}

/**
 * A line of raw HTML right under a list item's text (`- a` then `<br />` unindented) is read by
 * the editor's parser (micromark) as an HTML block inside the item. (CommonMark reads such a tag,
 * which cannot interrupt a paragraph, as a lazy line of the item's paragraph; in a tight list the
 * two show alike.) The editor holds it as a paragraph of its own, which the writer parted from
 * the text above by a blank line: the list became loose, and the tag a block shown apart. In a
 * tight list (no blank line in or between its items) the line follows the text at once, as typed,
 * and is read as that text's last line; so without its trailing spaces, which a paragraph's end
 * drops (the next save then writes the same).
 */
export function writeList(list: Handle): Handle {
  return (node: Nodes, parent: Parents | undefined, state: State, info: Info): string => {
    if (node.type === 'list') {
      const loose = node.spread === true || node.children.some((item) => item.spread === true);
      for (const item of loose ? [] : node.children) {
        item.children.forEach((child, i) => {
          if (i === 0 || !isHtmlLine(child) || item.children[i - 1]?.type !== 'paragraph') return;
          flag(child);
          if (child.type === 'paragraph') child.children.forEach(flag);
        });
      }
    }
    return list(node, parent, state, info);
  };
}

export const joinHtmlLineInTightItem: Join = (_left, right) =>
  flagged(right as Nodes) ? 0 : undefined;

/** Whether a list is written tight: no blank line between its items nor in one. */
function writtenTight(list: List): boolean {
  // (Milkdown's nodes may come without `children` where they are empty.)
  return !list.spread && list.children.every((item) => !item.spread || childrenOf(item).length < 2);
}

const childrenOf = (node: Nodes | undefined): Nodes[] =>
  (node as { children?: Nodes[] } | undefined)?.children ?? [];

/**
 * A tight list right after a tight list of the other kind (`1. a` then `* b`, as typed): the
 * second starts a list of its own without a blank line, which in a quote or a list item a reader
 * takes as making the first list loose (its text in paragraphs). Only where the second list's
 * first item can interrupt a paragraph: not empty, and a numbered one from 1.
 */
export const joinListsOfTwoKinds: Join = (left, right) => {
  if (left.type !== 'list' || right.type !== 'list') return undefined;
  if (Boolean(left.ordered) === Boolean(right.ordered)) return undefined;
  if (!writtenTight(left) || !writtenTight(right)) return undefined;
  const first = childrenOf(right.children[0])[0];
  if (first?.type !== 'paragraph' || childrenOf(first).length === 0) return undefined;
  return right.ordered && (right.start ?? 1) !== 1 ? undefined : 0;
};

export function writeHtml(html: Handle): Handle {
  return (node: Nodes, parent: Parents | undefined, state: State, info: Info): string => {
    const written = html(node, parent, state, info);
    return flagged(node) ? written.trimEnd() : written;
  };
}

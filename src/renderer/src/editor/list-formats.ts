/** Lists as the toolbar and the keys make them: toggled as the platforms' editors do, kept tight. */
import { commandsCtx, editorViewCtx } from '@milkdown/kit/core';
import type { Ctx } from '@milkdown/kit/ctx';
import {
  liftListItemCommand,
  sinkListItemCommand,
  wrapInBulletListCommand,
  wrapInOrderedListCommand,
} from '@milkdown/kit/preset/commonmark';
import type { EditorState } from '@milkdown/kit/prose/state';
import type { Node as ProseNode } from '@milkdown/kit/prose/model';
import type { EditorView } from '@milkdown/kit/prose/view';

const LISTS = ['bullet_list', 'ordered_list'];

/** The innermost list the caret is in (what the list buttons act on), and where it starts. */
export function listAround(state: EditorState): { list: ProseNode; pos: number } | null {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 0; depth--) {
    const list = $from.node(depth);
    if (LISTS.includes(list.type.name)) return { list, pos: $from.before(depth) };
  }
  return null;
}

/**
 * A list of `kind` around the selected blocks, as the platforms' editors toggle it: in a list of
 * that kind already, the selected items leave it (a second click undoes the first instead of
 * nesting a list in the item); in a list of the other kind, that list becomes one of this kind.
 * A new list is tight (no blank line between items), as researchers type one.
 */
export function toggleList(ctx: Ctx, kind: 'bullet_list' | 'ordered_list'): void {
  const view = ctx.get(editorViewCtx);
  const around = listAround(view.state);
  if (around) {
    if (around.list.type.name === kind) {
      ctx.get(commandsCtx).call(liftListItemCommand.key);
    } else {
      const type = view.state.schema.nodes[kind];
      if (type) view.dispatch(view.state.tr.setNodeMarkup(around.pos, type, around.list.attrs));
    }
    return;
  }
  const before = view.state.doc;
  ctx
    .get(commandsCtx)
    .call(kind === 'bullet_list' ? wrapInBulletListCommand.key : wrapInOrderedListCommand.key);
  tightenNewList(view, before);
}

/** The list just made (its items' `spread` defaults to loose) as a tight one. */
function tightenNewList(view: EditorView, before: ProseNode): void {
  if (view.state.doc.eq(before)) return;
  const { $from } = view.state.selection;
  const tr = view.state.tr;
  for (let depth = $from.depth; depth > 0; depth--) {
    const list = $from.node(depth);
    if (!LISTS.includes(list.type.name)) continue;
    const start = $from.before(depth);
    if (list.attrs.spread !== undefined) tr.setNodeAttribute(start, 'spread', false);
    list.forEach((item, offset) => {
      if (item.attrs.spread === true) tr.setNodeAttribute(start + 1 + offset, 'spread', false);
    });
    break;
  }
  if (tr.docChanged) view.dispatch(tr);
}

/**
 * Whether the selection is in a list nested in another list's item: only such an item is
 * outdented. At the top level Shift-Tab leaves the list as it is (ProseMirror's lift would turn
 * the item into a paragraph, breaking the list silently) and moves the focus back, as in a form.
 */
export function inNestedList(state: EditorState): boolean {
  const { $from, $to } = state.selection;
  const item = state.schema.nodes.list_item;
  const range = $from.blockRange($to, (node) => node.firstChild?.type === item);
  return !!range && range.depth >= 1 && $from.node(range.depth - 1).type === item;
}

/**
 * Nests the selected list items in the item before them (ProseMirror's sink), keeping a tight
 * list tight: Milkdown makes every new item loose (`spread`), so the item that now holds the
 * nested list under its text was written with a blank line before it, and the whole list read as
 * loose (paragraphs). That item is made tight where its list reads tight, as the toolbar's lists
 * are; in a loose list it stays as it was.
 */
export function indent(ctx: Ctx): boolean {
  const view = ctx.get(editorViewCtx);
  const itemType = view.state.schema.nodes.list_item;
  /** The depth of the innermost list item around the selection's start (0: none). */
  const itemDepth = (): number => {
    const { $from } = view.state.selection;
    let depth = $from.depth;
    while (depth > 0 && $from.node(depth).type !== itemType) depth--;
    return depth;
  };
  // Whether the item before already holds a nested list (the items then join that list).
  const { $from: $start } = view.state.selection;
  const startDepth = itemDepth();
  const index = startDepth > 0 ? $start.index(startDepth - 1) : 0;
  const previous = index > 0 ? $start.node(startDepth - 1).child(index - 1) : null;
  const hadNested = LISTS.includes(previous?.lastChild?.type.name ?? '');
  if (!ctx.get(commandsCtx).call(sinkListItemCommand.key)) return false;
  if (hadNested) return true;
  const { $from } = view.state.selection;
  // The moved item, in its new nested list, in the item before it, in the outer list.
  const holderDepth = itemDepth() - 2;
  if (holderDepth < 1) return true;
  const holder = $from.node(holderDepth);
  const outer = $from.node(holderDepth - 1);
  if (holder.type !== itemType || !LISTS.includes(outer.type.name)) return true;
  let loose = outer.attrs.spread === true;
  outer.forEach((node) => {
    loose ||= node !== holder && node.childCount > 1 && node.attrs.spread === true;
  });
  if (!loose && holder.attrs.spread === true) {
    view.dispatch(view.state.tr.setNodeAttribute($from.before(holderDepth), 'spread', false));
  }
  return true;
}

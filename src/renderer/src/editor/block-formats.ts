/** Headings, quotes, tables and links as the toolbar and the keys make them. */
import { commandsCtx, editorViewCtx } from '@milkdown/kit/core';
import type { Ctx } from '@milkdown/kit/ctx';
import {
  toggleLinkCommand,
  turnIntoTextCommand,
  wrapInBlockquoteCommand,
  wrapInHeadingCommand,
} from '@milkdown/kit/preset/commonmark';
import { addRowAfterCommand } from '@milkdown/kit/preset/gfm';
import { goToNextCell, isInTable } from '@milkdown/kit/prose/tables';
import { liftTarget } from '@milkdown/kit/prose/transform';
import type { EditorView } from '@milkdown/kit/prose/view';
import type { EditorState } from '@milkdown/kit/prose/state';
import type { NodeRange } from '@milkdown/kit/prose/model';

/**
 * The table around the caret without column alignments: Milkdown makes every column
 * left-aligned (`| :--- |`), which nobody asked for by clicking Table (`| --- |`).
 */
export function withoutAlignment(view: EditorView): void {
  const { $from } = view.state.selection;
  for (let depth = $from.depth; depth > 0; depth--) {
    const table = $from.node(depth);
    if (table.type.name !== 'table') continue;
    const start = $from.start(depth);
    const tr = view.state.tr;
    table.descendants((node, pos) => {
      if (node.attrs.alignment === undefined) return true;
      if (node.attrs.alignment !== null) {
        tr.setNodeMarkup(start + pos, undefined, { ...node.attrs, alignment: null });
      }
      return false;
    });
    if (tr.docChanged) view.dispatch(tr);
    return;
  }
}

/**
 * Tab in a table goes to the next cell; from the last cell it adds a row and goes to its first
 * cell, never out of the editor (what was typed next was lost). Shift-Tab goes back, and stays
 * in the first cell.
 */
export function tableTab(ctx: Ctx, direction: 1 | -1): boolean {
  const view = ctx.get(editorViewCtx);
  if (!isInTable(view.state)) return false;
  if (goToNextCell(direction)(view.state, view.dispatch)) return true;
  if (direction === 1 && ctx.get(commandsCtx).call(addRowAfterCommand.key)) {
    goToNextCell(1)(view.state, view.dispatch);
  }
  return true;
}

/** The level of the toolbar's Heading (its shortcut is that level's, Mod-Alt-2). */
export const TOOLBAR_HEADING_LEVEL = 2;
export const HEADING_LEVELS = [1, 2, 3, 4, 5, 6] as const;

/** A heading of `level` where the caret is, or back to a paragraph when it already is one. */
/** Whether the caret is in a heading of `level` (which its heading button turns back into text). */
export function inHeading(state: EditorState, level: number): boolean {
  const block = state.selection.$from.parent;
  return block.type.name === 'heading' && block.attrs.level === level;
}

export function toggleHeading(ctx: Ctx, level: number): void {
  const commands = ctx.get(commandsCtx);
  if (inHeading(ctx.get(editorViewCtx).state, level)) {
    commands.call(turnIntoTextCommand.key);
  } else {
    commands.call(wrapInHeadingCommand.key, level);
  }
}

/**
 * The selected blocks out of the quote they are in (the quote is split around them when it holds
 * more), or into a new quote when they are in none: a second Quote undoes the first, never nests.
 */
export function toggleQuote(ctx: Ctx): void {
  const view = ctx.get(editorViewCtx);
  const out = outOfQuote(view.state);
  if (out) {
    view.dispatch(view.state.tr.lift(out.range, out.target).scrollIntoView());
    return;
  }
  ctx.get(commandsCtx).call(wrapInBlockquoteCommand.key);
}

/** The selected blocks' quote, and where they go out of it: null when they are in none. */
export function outOfQuote(state: EditorState): { range: NodeRange; target: number } | null {
  const { $from, $to } = state.selection;
  const quote = state.schema.nodes.blockquote;
  const range = $from.blockRange($to, (node) => node.type === quote);
  const target = range ? liftTarget(range) : null;
  return range && target !== null ? { range, target } : null;
}

/** A link on the selected text, or the address itself as a linked text where nothing is selected. */
export function insertLink(ctx: Ctx, href: string): void {
  if (href === '') return;
  const view = ctx.get(editorViewCtx);
  const { state } = view;
  const mark = state.schema.marks.link;
  if (!mark) return;
  const { from, to, empty } = state.selection;
  if (empty) {
    const text = state.schema.text(href, [mark.create({ href, title: '' })]);
    view.dispatch(state.tr.replaceSelectionWith(text, false));
    return;
  }
  ctx.get(commandsCtx).call(toggleLinkCommand.key, { href, title: '' });
  // Toggling twice removes it; a second link on the same text replaces the address.
  if (!view.state.doc.rangeHasMark(from, to, mark)) {
    view.dispatch(view.state.tr.addMark(from, to, mark.create({ href, title: '' })));
  }
}

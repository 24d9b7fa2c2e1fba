/**
 * The description editor's formatting actions, one definition each: the toolbar's buttons and
 * their keyboard shortcuts (`formattingKeys` binds every button's keys, Mod-Alt-1…6 for the
 * heading levels, Tab/Mod-] for nesting a list item and Shift-Tab/Mod-[ for outdenting one, ahead
 * of Milkdown's own keymaps),
 * and what each does to the document. Heading and Quote toggle, by button and by key alike.
 */
import { commandsCtx, editorViewCtx, type Editor } from '@milkdown/kit/core';
import type { Ctx } from '@milkdown/kit/ctx';
import {
  createCodeBlockCommand,
  liftListItemCommand,
  listItemKeymap,
  toggleEmphasisCommand,
  toggleInlineCodeCommand,
  toggleStrongCommand,
} from '@milkdown/kit/preset/commonmark';
import { insertTableCommand } from '@milkdown/kit/preset/gfm';
import { keymap } from '@milkdown/kit/prose/keymap';
import { TextSelection, type EditorState, type Plugin } from '@milkdown/kit/prose/state';
import { FORMAT_BUTTONS, type FormatAction } from './format-buttons';
import {
  HEADING_LEVELS,
  insertLink,
  tableTab,
  TOOLBAR_HEADING_LEVEL,
  toggleHeading,
  toggleQuote,
  withoutAlignment,
} from './block-formats';
import { indent, inNestedList, toggleList } from './list-formats';
import { toggleTypingCode } from './inline-code-typing';

/** The editor's selection, kept while a form (the link's address) has the focus. */
export interface Range {
  from: number;
  to: number;
}

export function selectionOf(editor: Editor): Range {
  return editor.action((ctx) => {
    const { from, to } = ctx.get(editorViewCtx).state.selection;
    return { from, to };
  });
}

/**
 * Runs a formatting action on the editor's selection (a link needs its address, and is put on
 * `range`, the selection when its form opened: the form took the focus since).
 */
export function runFormat(
  editor: Editor,
  action: FormatAction,
  href?: string,
  range?: Range,
): void {
  editor.action((ctx) => {
    if (range) {
      const view = ctx.get(editorViewCtx);
      const size = view.state.doc.content.size;
      if (range.to <= size) {
        view.dispatch(
          view.state.tr.setSelection(TextSelection.create(view.state.doc, range.from, range.to)),
        );
      }
    }
    formatIn(ctx, action, href);
  });
}

function formatIn(ctx: Ctx, action: FormatAction, href?: string): void {
  const commands = ctx.get(commandsCtx);
  const view = ctx.get(editorViewCtx);
  switch (action) {
    case 'bold':
      commands.call(toggleStrongCommand.key);
      break;
    case 'italic':
      commands.call(toggleEmphasisCommand.key);
      break;
    case 'code':
      // Nothing selected: what is typed next is code (or, inside code, plain), as bold does.
      if (!toggleTypingCode(view)) commands.call(toggleInlineCodeCommand.key);
      break;
    case 'link':
      insertLink(ctx, href ?? '');
      break;
    case 'heading':
      toggleHeading(ctx, TOOLBAR_HEADING_LEVEL);
      break;
    case 'bullet-list':
      toggleList(ctx, 'bullet_list');
      break;
    case 'numbered-list':
      toggleList(ctx, 'ordered_list');
      break;
    case 'quote':
      toggleQuote(ctx);
      break;
    case 'code-block':
      commands.call(createCodeBlockCommand.key);
      break;
    case 'table':
      // A header and two rows of three cells, the caret in the first: Tab fills it in, and Tab
      // from the last cell adds a row.
      commands.call(insertTableCommand.key, { row: 3, col: 3 });
      withoutAlignment(view);
      break;
  }
  view.focus();
}

/**
 * Milkdown's own Shift-Tab and Mod-[ lift a top-level list item out of its list; they are left to
 * `formattingKeys`. Call in `Editor.config`.
 */
export function configureFormattingKeys(ctx: Ctx): void {
  ctx.update(listItemKeymap.key, (prev) => ({ ...prev, LiftListItem: { shortcuts: [] } }));
}

/**
 * Every toolbar button's shortcut runs what the button does (Mod-k asks for the link's address);
 * Mod-Alt-1…6 toggle a heading of that level; Tab and Mod-] nest a list item, Shift-Tab and Mod-[
 * outdent a nested one; in a table Tab and Shift-Tab move between cells (`tableTab`).
 * Placed before Milkdown's keymaps, these win where both bind a key.
 */
export function formattingKeys(ctx: Ctx, askForLink: () => void): Plugin {
  const bindings: Record<string, (state: EditorState) => boolean> = {};
  for (const level of HEADING_LEVELS) {
    bindings[`Mod-Alt-${level}`] = () => {
      toggleHeading(ctx, level);
      return true;
    };
  }
  for (const button of FORMAT_BUTTONS) {
    bindings[button.keys] = () => {
      if (button.action === 'link') askForLink();
      else formatIn(ctx, button.action);
      return true;
    };
  }
  const outdent = (state: EditorState): boolean =>
    inNestedList(state) && ctx.get(commandsCtx).call(liftListItemCommand.key);
  bindings.Tab = () => tableTab(ctx, 1) || indent(ctx);
  bindings['Mod-]'] = () => indent(ctx);
  bindings['Shift-Tab'] = (state) => tableTab(ctx, -1) || outdent(state);
  bindings['Mod-['] = outdent;
  return keymap(bindings);
}

/**
 * The description editor's formatting actions, one definition each: the toolbar's buttons and
 * their keyboard shortcuts (Milkdown's own keymaps for most; Mod-k for a link and Mod-Alt-t for a
 * table are added by `formattingKeys`), and what each does to the document.
 */
import { commandsCtx, editorViewCtx, type Editor } from '@milkdown/kit/core';
import type { Ctx } from '@milkdown/kit/ctx';
import {
  createCodeBlockCommand,
  toggleEmphasisCommand,
  toggleInlineCodeCommand,
  toggleLinkCommand,
  toggleStrongCommand,
  turnIntoTextCommand,
  wrapInBlockquoteCommand,
  wrapInBulletListCommand,
  wrapInHeadingCommand,
  wrapInOrderedListCommand,
} from '@milkdown/kit/preset/commonmark';
import { insertTableCommand } from '@milkdown/kit/preset/gfm';
import { keymap } from '@milkdown/kit/prose/keymap';
import { TextSelection, type Plugin } from '@milkdown/kit/prose/state';

export type FormatAction =
  | 'bold'
  | 'italic'
  | 'code'
  | 'link'
  | 'heading'
  | 'bullet-list'
  | 'numbered-list'
  | 'quote'
  | 'code-block'
  | 'table';

export interface FormatButton {
  action: FormatAction;
  label: string;
  /** What the button shows (a short glyph; the label is its name). */
  face: string;
  /** ProseMirror's key name (`Mod` is Ctrl, or Cmd on macOS). */
  keys: string;
}

export const FORMAT_BUTTONS: readonly FormatButton[] = [
  { action: 'bold', label: 'Bold', face: 'B', keys: 'Mod-b' },
  { action: 'italic', label: 'Italic', face: 'I', keys: 'Mod-i' },
  { action: 'code', label: 'Code', face: '</>', keys: 'Mod-e' },
  { action: 'link', label: 'Link', face: 'Link', keys: 'Mod-k' },
  { action: 'heading', label: 'Heading', face: 'H', keys: 'Mod-Alt-2' },
  { action: 'bullet-list', label: 'Bulleted list', face: '•', keys: 'Mod-Alt-8' },
  { action: 'numbered-list', label: 'Numbered list', face: '⒈', keys: 'Mod-Alt-7' },
  { action: 'quote', label: 'Quote', face: '❝', keys: 'Mod-Shift-b' },
  { action: 'code-block', label: 'Code block', face: '{ }', keys: 'Mod-Alt-c' },
  { action: 'table', label: 'Table', face: '▦', keys: 'Mod-Alt-t' },
];

const isMac = (): boolean => /Mac|iPhone|iPad/.test(navigator.platform);

/** A shortcut as the user reads it ("Ctrl+Alt+2", "⌘⌥2"). */
export function shortcutText(keys: string): string {
  const mac = isMac();
  return keys
    .split('-')
    .map((part) => {
      if (part === 'Mod') return mac ? '⌘' : 'Ctrl';
      if (part === 'Alt') return mac ? '⌥' : 'Alt';
      if (part === 'Shift') return mac ? '⇧' : 'Shift';
      return part.toUpperCase();
    })
    .join(mac ? '' : '+');
}

/** The shortcut in `aria-keyshortcuts` form ("Control+Alt+2"). */
export function ariaShortcut(keys: string): string {
  return keys
    .split('-')
    .map((part) =>
      part === 'Mod'
        ? isMac()
          ? 'Meta'
          : 'Control'
        : part.length === 1
          ? part.toUpperCase()
          : part,
    )
    .join('+');
}

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
  {
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
        commands.call(toggleInlineCodeCommand.key);
        break;
      case 'link':
        insertLink(ctx, href ?? '');
        break;
      case 'heading':
        if (view.state.selection.$from.parent.type.name === 'heading') {
          commands.call(turnIntoTextCommand.key);
        } else {
          commands.call(wrapInHeadingCommand.key, 2);
        }
        break;
      case 'bullet-list':
        commands.call(wrapInBulletListCommand.key);
        break;
      case 'numbered-list':
        commands.call(wrapInOrderedListCommand.key);
        break;
      case 'quote':
        commands.call(wrapInBlockquoteCommand.key);
        break;
      case 'code-block':
        commands.call(createCodeBlockCommand.key);
        break;
      case 'table':
        commands.call(insertTableCommand.key, { row: 2, col: 2 });
        break;
    }
    view.focus();
  }
}

/** A link on the selected text, or the address itself as a linked text where nothing is selected. */
function insertLink(ctx: Ctx, href: string): void {
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

/** Mod-k asks for a link's address; Mod-Alt-t inserts a table. */
export function formattingKeys(ctx: Ctx, askForLink: () => void): Plugin {
  return keymap({
    'Mod-k': () => {
      askForLink();
      return true;
    },
    'Mod-Alt-t': () => {
      formatIn(ctx, 'table');
      return true;
    },
  });
}

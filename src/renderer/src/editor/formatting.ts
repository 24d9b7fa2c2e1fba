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
  sinkListItemCommand,
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
import { addRowAfterCommand, insertTableCommand } from '@milkdown/kit/preset/gfm';
import { goToNextCell, isInTable } from '@milkdown/kit/prose/tables';
import { keymap } from '@milkdown/kit/prose/keymap';
import { TextSelection, type EditorState, type Plugin } from '@milkdown/kit/prose/state';
import { liftTarget } from '@milkdown/kit/prose/transform';
import type { Node as ProseNode } from '@milkdown/kit/prose/model';
import type { EditorView } from '@milkdown/kit/prose/view';

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
  // '⒈' (U+2488) is missing from common fonts and showed as an empty box; '1.' as a face is a
  // visible label not in the accessible name (WCAG 2.5.3). '№' is in every common UI font.
  { action: 'numbered-list', label: 'Numbered list', face: '№', keys: 'Mod-Alt-7' },
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
 * The table around the caret without column alignments: Milkdown makes every column
 * left-aligned (`| :--- |`), which nobody asked for by clicking Table (`| --- |`).
 */
function withoutAlignment(view: EditorView): void {
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
function tableTab(ctx: Ctx, direction: 1 | -1): boolean {
  const view = ctx.get(editorViewCtx);
  if (!isInTable(view.state)) return false;
  if (goToNextCell(direction)(view.state, view.dispatch)) return true;
  if (direction === 1 && ctx.get(commandsCtx).call(addRowAfterCommand.key)) {
    goToNextCell(1)(view.state, view.dispatch);
  }
  return true;
}

/** The level of the toolbar's Heading (its shortcut is that level's, Mod-Alt-2). */
const TOOLBAR_HEADING_LEVEL = 2;
const HEADING_LEVELS = [1, 2, 3, 4, 5, 6] as const;

/** A heading of `level` where the caret is, or back to a paragraph when it already is one. */
function toggleHeading(ctx: Ctx, level: number): void {
  const commands = ctx.get(commandsCtx);
  const block = ctx.get(editorViewCtx).state.selection.$from.parent;
  if (block.type.name === 'heading' && block.attrs.level === level) {
    commands.call(turnIntoTextCommand.key);
  } else {
    commands.call(wrapInHeadingCommand.key, level);
  }
}

const LISTS = ['bullet_list', 'ordered_list'];

/**
 * A list of `kind` around the selected blocks, as the platforms' editors toggle it: in a list of
 * that kind already, the selected items leave it (a second click undoes the first instead of
 * nesting a list in the item); in a list of the other kind, that list becomes one of this kind.
 * A new list is tight (no blank line between items), as researchers type one.
 */
function toggleList(ctx: Ctx, kind: 'bullet_list' | 'ordered_list'): void {
  const view = ctx.get(editorViewCtx);
  const { $from } = view.state.selection;
  for (let depth = $from.depth; depth > 0; depth--) {
    const list = $from.node(depth);
    if (!LISTS.includes(list.type.name)) continue;
    if (list.type.name === kind) {
      ctx.get(commandsCtx).call(liftListItemCommand.key);
    } else {
      const type = view.state.schema.nodes[kind];
      if (type) view.dispatch(view.state.tr.setNodeMarkup($from.before(depth), type, list.attrs));
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
 * The selected blocks out of the quote they are in (the quote is split around them when it holds
 * more), or into a new quote when they are in none: a second Quote undoes the first, never nests.
 */
function toggleQuote(ctx: Ctx): void {
  const view = ctx.get(editorViewCtx);
  const { state } = view;
  const { $from, $to } = state.selection;
  const quote = state.schema.nodes.blockquote;
  const range = $from.blockRange($to, (node) => node.type === quote);
  const target = range ? liftTarget(range) : null;
  if (range && target !== null) {
    view.dispatch(state.tr.lift(range, target).scrollIntoView());
    return;
  }
  ctx.get(commandsCtx).call(wrapInBlockquoteCommand.key);
}

/**
 * Whether the selection is in a list nested in another list's item: only such an item is
 * outdented. At the top level Shift-Tab leaves the list as it is (ProseMirror's lift would turn
 * the item into a paragraph, breaking the list silently) and moves the focus back, as in a form.
 */
function inNestedList(state: EditorState): boolean {
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
function indent(ctx: Ctx): boolean {
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

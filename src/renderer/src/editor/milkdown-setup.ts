/**
 * The description editor as one Milkdown setup, used by `DescriptionEditor` and, unchanged, by
 * the round-trip property tests in Chromium: CommonMark + GFM, history, the safe paste, the link
 * guard, the template sections, and the Markdown input/output rules of `markdown-io.ts`.
 */
import {
  Editor,
  defaultValueCtx,
  editorViewCtx,
  editorViewOptionsCtx,
  nodeViewCtx,
  parserCtx,
  rootCtx,
  serializerCtx,
} from '@milkdown/kit/core';
import {
  commonmark,
  linkSchema,
  remarkPreserveEmptyLinePlugin,
  syncHeadingIdPlugin,
} from '@milkdown/kit/preset/commonmark';
import { linkWithParts, remarkAdjacentLinks } from './adjacent-links';
import { gfm, remarkGFMPlugin } from '@milkdown/kit/preset/gfm';
import { history } from '@milkdown/kit/plugin/history';
import { clipboard } from '@milkdown/kit/plugin/clipboard';
import { $prose, replaceAll } from '@milkdown/kit/utils';
import type { Ctx } from '@milkdown/kit/ctx';
import { Plugin, PluginKey, Selection } from '@milkdown/kit/prose/state';
import type { NodeViewConstructor } from '@milkdown/kit/prose/view';
import { makeMarker, offsetFromMarked, snapOutOfWord } from '../lib/editor-offset';
import { imagePlaceholderView, linkGuardPlugin } from './link-guard';
import { swallowRepeatedListMarker } from './list-markers';
import {
  configureMarkdownOutput,
  remarkHtmlInFootnotes,
  remarkNullTitles,
  remarkTypedAutolinks,
  serializeWithoutEmptyParagraphs,
} from './markdown-io';
import { warmUpEscapePass } from './escape-warm-up';
import { patchDocument } from './patch-document';
import { isFingerprinted, markdownAt, selectText } from './show-text';
import { centreInPane } from './centre-in-pane';
import { remarkFlattenNestedMarks } from './nested-marks';
import { keptDefinitionSchema, remarkKeptDefinitions } from './kept-definitions';
import { pastePlugin } from './paste';
import { remarkUnlinkedAddresses, unlinkedAddressSchema } from './unlinked-urls';
import { sectionsPlugin } from './sections';
import { typedTablesPlugin } from './typed-tables';
import { codeBlockExitPlugin } from './code-block-exit';
import { inlineCodeTypingPlugin } from './inline-code-typing';
import { flankingEmphasisRule, flankingStrongRule, replacedInputRules } from './emphasis-rules';
import { configureFormattingKeys, formattingKeys } from './formatting';
import { selectionSyncPlugin } from './selection-sync';
import { pacedPhases } from './paced-phases';
import { pressedFormatsPlugin } from './pressed-formats';
import type { FormatAction } from './format-buttons';
import {
  keepOrigins,
  keptOriginsPlugin,
  remarkKeptBlocks,
  withBlocksRewritten,
} from './kept-blocks';

/**
 * Milkdown keeps an empty line as a literal `<br />` in the Markdown. In a report that is noise for
 * the triager and, worse, made an empty template section look written: empty lines stay empty.
 */
const emptyLineTags: readonly unknown[] = remarkPreserveEmptyLinePlugin;
/**
 * Nor does it sync the headings' ids into the document: an extra transaction as each description
 * opens (about a tenth of the open's time), for anchors nothing in the app links to.
 */
const dropped: readonly unknown[] = [...emptyLineTags, syncHeadingIdPlugin, ...replacedInputRules];
const commonmarkWithoutEmptyLineTags = commonmark
  .filter((plugin) => !dropped.includes(plugin))
  // In its place: the marks' order decides how they nest when written.
  .map((plugin) =>
    plugin === linkSchema.ctx
      ? linkWithParts.ctx
      : plugin === linkSchema.mark
        ? linkWithParts.mark
        : plugin,
  );

/** What an editor asks of the screen it is in: read on every use, so a spare can take a screen. */
export interface DescriptionBinding {
  /** The report being written: only its files show as pictures (none without it). */
  readonly reportId?: string;
  editable(): boolean;
  /** Read on every update (errors come and go). */
  attributes(): Record<string, string>;
  openExternal(href: string): void;
  /** The document changed. */
  onChange(): void;
  /** The link shortcut (Mod-k): ask for the address. */
  askForLink?(): void;
  /** The toolbar's toggles that are on where the selection is, whenever they change. */
  onPressedFormats?(pressed: FormatAction[]): void;
}

export interface DescriptionEditorOptions extends DescriptionBinding {
  root: HTMLElement;
  initialValue: string;
}

/**
 * The description editor in `options.root`, with `options.initialValue` as its document. With
 * `pace`, each of Milkdown's phases waits for it (an editor made ahead, in idle periods).
 */
export async function createDescriptionEditor(
  options: DescriptionEditorOptions,
  pace?: (next: () => void) => void,
): Promise<Editor> {
  const changeWatcher = new Plugin({
    key: new PluginKey('bounty-desk-dirty'),
    view: () => ({
      update(view, prev) {
        if (!view.state.doc.eq(prev.doc)) options.onChange();
      },
    }),
  });
  const editor = Editor.make()
    .config((ctx) => {
      ctx.set(rootCtx, options.root);
      ctx.set(defaultValueCtx, options.initialValue);
      ctx.update(editorViewOptionsCtx, (prev) => ({
        ...prev,
        editable: () => options.editable(),
        attributes: () => options.attributes(),
        // Typing at the pane's foot keeps room below the caret's line: a code block's way out,
        // said under its last line (code-block-exit.ts), stood below the pane's edge (walk 20).
        scrollThreshold: { top: 0, left: 0, right: 0, bottom: 40 },
        scrollMargin: { top: 5, left: 5, right: 5, bottom: 40 },
      }));
      ctx.update(nodeViewCtx, (views) => [
        ...views,
        ['image', imagePlaceholderView(() => options.reportId)] satisfies [
          string,
          NodeViewConstructor,
        ],
      ]);
      configureMarkdownOutput(ctx);
      configureFormattingKeys(ctx);
      // Tables without padding: the column widths of one save would differ from the next for
      // the same cells (wide characters), and a triager reads the rendered table anyway.
      ctx.set(remarkGFMPlugin.options.key, { tablePipeAlign: false });
    })
    .use(swallowRepeatedListMarker)
    // Before the preset, which drops definitions once it has resolved the references.
    .use(remarkKeptDefinitions)
    .use(commonmarkWithoutEmptyLineTags)
    .use(gfm)
    .use([flankingEmphasisRule, flankingStrongRule])
    .use(keptDefinitionSchema)
    .use(remarkNullTitles)
    .use(remarkHtmlInFootnotes)
    .use(remarkFlattenNestedMarks)
    .use(remarkAdjacentLinks)
    .use(remarkTypedAutolinks)
    .use(unlinkedAddressSchema)
    .use(remarkUnlinkedAddresses)
    // Last of the remark plugins: it records the blocks as the editor reads them.
    .use(remarkKeptBlocks)
    .use(history)
    .use($prose(() => selectionSyncPlugin()))
    .use($prose((ctx) => pastePlugin(ctx)))
    .use(clipboard)
    .use($prose(() => linkGuardPlugin((href) => options.openExternal(href))))
    .use($prose(() => sectionsPlugin()))
    .use($prose(() => keptOriginsPlugin()))
    .use($prose(() => typedTablesPlugin()))
    .use($prose(() => codeBlockExitPlugin()))
    .use($prose(() => inlineCodeTypingPlugin()))
    .use($prose((ctx) => formattingKeys(ctx, () => options.askForLink?.())))
    .use($prose(() => pressedFormatsPlugin((pressed) => options.onPressedFormats?.(pressed))))
    .use($prose(() => changeWatcher));
  if (pace) editor.use(pacedPhases(pace));
  await editor.create();
  editor.action((ctx) => {
    // Every text read from now on (a replaced description, a paste) keeps its blocks' sources.
    const parse = ctx.get(parserCtx);
    keepOrigins(ctx.get(editorViewCtx).state.doc, options.initialValue);
    ctx.set(parserCtx, (markdown: string) => {
      const doc = parse(markdown);
      keepOrigins(doc, markdown);
      return doc;
    });
    serializeWithoutEmptyParagraphs(ctx);
    settleDocument(ctx);
  });
  return editor;
}

/**
 * Opens `markdown` in an editor made before (a spare): a new state with the same plugins, so
 * nothing of the document before is left, not even in the undo history; then settled as a new
 * editor settles its first document.
 */
export function loadDescription(editor: Editor, markdown: string): void {
  editor.action(replaceAll(markdown, true));
  editor.action(settleDocument);
}

/**
 * Puts `markdown` in place of the document by changing only what differs (a redaction changes a
 * token, a merged website edit a line; `patch-document.ts`): the caret and the undo history of
 * the rest stay. The whole document replaced put the caret at its start, in the first heading (a
 * walk saw "Heading" pressed after a redaction, and typing would have gone there).
 */
export function replaceDescription(editor: Editor, markdown: string): void {
  editor.action((ctx) => {
    const view = ctx.get(editorViewCtx);
    const next = ctx.get(parserCtx)(markdown);
    const { doc, selection } = view.state;
    const tr = view.state.tr;
    patchDocument(tr, doc, next);
    if (!tr.docChanged) return;
    // A selection over text the engine replaced (Show, then Redact) would hold the replacement,
    // and the first key typed would overwrite `[REDACTED:jwt]` (walk 19): it ends where that does.
    const mapped = tr.selection;
    if (
      !selection.empty &&
      doc.textBetween(selection.from, selection.to, '\n') !==
        tr.doc.textBetween(mapped.from, mapped.to, '\n')
    ) {
      tr.setSelection(Selection.near(tr.doc.resolve(mapped.to), -1));
    }
    view.dispatch(tr);
  });
}

/** Each view's loads, counted: the warm-up of a document stops when another one is loaded. */
const loads = new WeakMap<object, number>();

/** What follows a document's load, in a new editor or a spare. */
function settleDocument(ctx: Ctx): void {
  // One transaction so the sections plugin gives every empty section its line.
  const view = ctx.get(editorViewCtx);
  view.dispatch(view.state.tr.setMeta('addToHistory', false));
  const load = (loads.get(view) ?? 0) + 1;
  loads.set(view, load);
  // The first save of a long description then re-reads only the blocks typed in since.
  warmUpEscapePass(ctx, view.state.doc, () => view.isDestroyed || loads.get(view) !== load);
}

/**
 * Selects the text at a line and column of the document's Markdown (a credential the check found
 * there, `fingerprint` the start of its SHA-256), in the middle of the pane with the focus in the
 * editor; false when the editor does not hold that value there (the text changed since the check).
 */
export async function showDescriptionText(
  editor: Editor,
  place: { line: number; column: number; length: number; fingerprint: string },
): Promise<boolean> {
  const text = markdownAt(markdownOf(editor), place.line, place.column, place.length);
  if (!text || !(await isFingerprinted(text, place.fingerprint))) return false;
  return editor.action((ctx) => {
    const view = ctx.get(editorViewCtx);
    return selectText(view, text, (from, to) => centreInPane(view, from, to));
  });
}

/** The Markdown of the document now. */
export function markdownOf(editor: Editor): string {
  return editor.action((ctx) => ctx.get(serializerCtx)(ctx.get(editorViewCtx).state.doc));
}

/** Whether the caret is in a code block, where what is pasted stays the text it is. */
export function caretInCodeBlock(editor: Editor): boolean {
  return editor.action(
    (ctx) => !!ctx.get(editorViewCtx).state.selection.$from.parent.type.spec.code,
  );
}

/**
 * The Markdown of the selected part of the document (whole blocks or words within one), or null
 * when nothing is selected: each end found in the Markdown as `markdownOffsetAt` finds the caret.
 */
export function selectedMarkdown(editor: Editor): string | null {
  const { from, to, atBlockEnd } = editor.action((ctx) => {
    const { selection } = ctx.get(editorViewCtx).state;
    const end = selection.$to;
    return {
      from: selection.from,
      to: selection.to,
      atBlockEnd: end.parentOffset === end.parent.content.size,
    };
  });
  if (from === to) return null;
  const start = markdownOffsetAt(editor, from, false, [to]);
  const end = markdownOffsetAt(editor, to, false, [from]);
  const markdown = start.markdown;
  // From the start of a heading, list item or quote: its markup too. To the end of a block: the
  // whole line (a marker at the very end of a link or an autolinked address changes its Markdown).
  const lineStart = markdown.lastIndexOf('\n', start.offset - 1) + 1;
  const first = BLOCK_MARKUP.test(markdown.slice(lineStart, start.offset))
    ? lineStart
    : start.offset;
  const lineEnd = markdown.indexOf('\n', end.offset);
  const last = atBlockEnd ? (lineEnd === -1 ? markdown.length : lineEnd) : end.offset;
  const text = markdown.slice(first, last).trim();
  return text === '' ? null : `${text}\n`;
}

/** What may stand before a block's text on its first line: `## `, `> `, `- `, `1. `. */
const BLOCK_MARKUP = /^[ \t]*(?:(?:#{1,6}|>|[-*+]|\d{1,9}[.)])[ \t]+)*$/;

/**
 * The Markdown offset of a document position (the caret when `pos` is null), with the Markdown it
 * refers to: a marker word inserted there in a copy of the document finds it in the Markdown.
 */
export function markdownOffsetAt(
  editor: Editor,
  pos: number | null,
  snap = false,
  alsoRewritten: readonly number[] = [],
): { offset: number; markdown: string } {
  return editor.action((ctx) => {
    const view = ctx.get(editorViewCtx);
    const serialize = ctx.get(serializerCtx);
    const at = pos ?? view.state.selection.head;
    // The block the marker goes in is written anew in both texts (kept as read in one, it could
    // differ from the other before the marker): it is the block the offset is used on.
    const doc = withBlocksRewritten(view.state.doc, [at, ...alsoRewritten]);
    const markdown = serialize(doc);
    const marker = makeMarker();
    try {
      const marked = serialize(
        view.state.tr.replaceWith(0, doc.content.size, doc.content).insertText(marker, at).doc,
      );
      const offset = offsetFromMarked(marked, marker, markdown);
      return { offset: snap ? snapOutOfWord(markdown, offset) : offset, markdown };
    } catch {
      return { offset: markdown.length, markdown };
    }
  });
}

/**
 * How the description editor reads and writes Markdown, so that what the researcher typed is
 * what the program receives:
 * - typed URLs, `www.` domains and e-mail addresses are written as typed (autolink-output.ts);
 * - images and links without a title (reference-style ones included) parse with an empty title
 *   (Milkdown's schema requires a string and would throw, dropping the rest of the document);
 * - empty paragraphs (the editor's empty lines, the sections still to write) are not written.
 */
import { defaultHandlers, type Handle, type Info, type State } from 'mdast-util-to-markdown';
import type { Nodes, Parents } from 'mdast';
import { remarkStringifyOptionsCtx, serializerCtx } from '@milkdown/kit/core';
import type { Ctx } from '@milkdown/kit/ctx';
import { Fragment, type Node as ProseNode } from '@milkdown/kit/prose/model';
import { $remark } from '@milkdown/kit/utils';
import { recordMarkParents, writeBreak, writeLink, writeText } from './autolink-output';
import { KEPT_DEFINITION, joinAfterKeptDefinition, writeKeptDefinition } from './kept-definitions';
import { definedLabels, withoutNeedlessEscapes } from './needless-escapes';
import { writeKeepingBlocks, type Writer } from './kept-blocks';
import { blocksReadAlike } from './block-reading';
import { withTypedTables } from './typed-tables';
import { UNLINKED_ADDRESS_NODE, writeUnlinkedAddress } from './unlinked-urls';
import { recordWrittenMark } from './mark-flanking';
import { joinHtmlLineInTightItem, joinListsOfTwoKinds, writeHtml, writeList } from './list-output';

interface MdNode {
  type: string;
  title?: string | null;
  children?: MdNode[];
}

export function fillNullTitles(node: MdNode): void {
  if ((node.type === 'image' || node.type === 'link') && node.title == null) node.title = '';
  for (const child of node.children ?? []) fillNullTitles(child);
}

/**
 * Runs after Milkdown's own remark steps (reference links become inline ones there, with the
 * definition's title: null when it has none), so it must be used after the commonmark preset.
 */
export const remarkNullTitles = $remark('bountyDeskNullTitles', () => () => (tree) => {
  fillNullTitles(tree as unknown as MdNode);
});

interface MdParent {
  type: string;
  value?: string;
  children?: MdParent[];
}

/**
 * A line of raw HTML right under a footnote's text (`[^1]: A note.` then `<br />`) is read as an
 * HTML block in the footnote; Milkdown holds one as a paragraph in a list item or a quote, but
 * not in a footnote, whose node then could not be made: the whole footnote was dropped, the
 * description saved without it. Such a block is held as a paragraph there too.
 */
export function htmlInFootnotesAsParagraphs(node: MdParent): void {
  for (const child of node.children ?? []) {
    if (node.type === 'footnoteDefinition' && child.type === 'html') {
      child.children = [{ type: 'html', value: child.value ?? '' }];
      delete child.value;
      child.type = 'paragraph';
      continue;
    }
    htmlInFootnotesAsParagraphs(child);
  }
}

export const remarkHtmlInFootnotes = $remark('bountyDeskHtmlInFootnotes', () => () => (tree) => {
  htmlInFootnotesAsParagraphs(tree as unknown as MdParent);
});

interface UnsafePattern {
  character: string;
  before?: string | null;
  after?: string | null;
}
interface ToMarkdownExtension {
  unsafe?: UnsafePattern[] | null;
  handlers?: Record<string, Handle> | null;
  extensions?: ToMarkdownExtension[] | null;
}

/** GFM's escapes that keep a typed URL, domain or address from becoming a link. */
function isAutolinkEscape(u: UnsafePattern): boolean {
  return (
    (u.character === ':' && u.before === '[ps]') ||
    (u.character === '.' && u.before === '[Ww]') ||
    (u.character === '@' && u.before === '[+\\-.\\w]')
  );
}

/**
 * A table's delimiter row as researchers type it and GFM's specification writes it (`| --- |`),
 * not the writer's shortest (`| - |`, with padding off): a table typed row by row is saved as
 * typed.
 */
function withTypedDelimiterRow(table: Handle): Handle {
  return (node: Nodes, parent: Parents | undefined, state: State, info: Info): string => {
    const lines = table(node, parent, state, info).split('\n');
    const delimiter = lines[1];
    if (delimiter !== undefined) {
      lines[1] = delimiter.replace(/(\| ?)(:?)-(:?)(?= ?\|)/g, '$1$2---$3');
    }
    return lines.join('\n');
  };
}

function withoutAutolinkEscapes(extension: ToMarkdownExtension): ToMarkdownExtension {
  const table = extension.handlers?.table;
  return {
    ...extension,
    ...(table ? { handlers: { ...extension.handlers, table: withTypedDelimiterRow(table) } } : {}),
    ...(extension.unsafe ? { unsafe: extension.unsafe.filter((u) => !isAutolinkEscape(u)) } : {}),
    ...(extension.extensions
      ? { extensions: extension.extensions.map(withoutAutolinkEscapes) }
      : {}),
  };
}

/** Must be used after the GFM preset, whose remark plugin adds the escapes. */
export const remarkTypedAutolinks = $remark(
  'bountyDeskTypedAutolinks',
  () =>
    function (this: { data(): { toMarkdownExtensions?: ToMarkdownExtension[] } }) {
      const data = this.data();
      if (data.toMarkdownExtensions) {
        data.toMarkdownExtensions = data.toMarkdownExtensions.map(withoutAutolinkEscapes);
      }
    },
);

/** Sets the serializer options; call in `Editor.config`. */
export function configureMarkdownOutput(ctx: Ctx): void {
  ctx.update(remarkStringifyOptionsCtx, (prev) => {
    const handlers = (prev.handlers ?? {}) as Record<string, Handle>;
    return {
      ...prev,
      join: [
        ...(prev.join ?? []),
        joinHtmlLineInTightItem,
        joinListsOfTwoKinds,
        joinAfterKeptDefinition,
      ],
      handlers: {
        ...handlers,
        // Not Milkdown's own text handler: it writes text that ends in a space unescaped, so a
        // typed `&amp; ` or `<b> ` reached the program as `&` or as HTML.
        text: writeText as Handle,
        root: recordMarkParents(handlers.root ?? (defaultHandlers.root as Handle)),
        emphasis: recordWrittenMark(handlers.emphasis ?? (defaultHandlers.emphasis as Handle)),
        strong: recordWrittenMark(handlers.strong ?? (defaultHandlers.strong as Handle)),
        list: writeList(handlers.list ?? (defaultHandlers.list as Handle)),
        html: writeHtml(handlers.html ?? (defaultHandlers.html as Handle)),
        link: writeLink as Handle,
        break: writeBreak(handlers.break ?? (defaultHandlers.break as Handle)),
        [UNLINKED_ADDRESS_NODE]: writeUnlinkedAddress,
        [KEPT_DEFINITION]: writeKeptDefinition,
      },
    };
  });
}

const isEmptyParagraph = (node: ProseNode): boolean =>
  node.type.name === 'paragraph' && node.content.size === 0;

/**
 * The document without its empty paragraphs (nothing typed there yet), except where one is all
 * a block holds (an empty list item). The schema puts one first in a list item that starts with
 * another block; written out, it would detach that block from the item.
 */
export function withoutEmptyParagraphs(node: ProseNode): ProseNode {
  if (node.isTextblock || node.isLeaf) return node;
  const kept: ProseNode[] = [];
  let changed = false;
  node.forEach((child) => {
    if (isEmptyParagraph(child)) {
      changed = true;
      return;
    }
    const next = withoutEmptyParagraphs(child);
    if (next !== child) changed = true;
    kept.push(next);
  });
  if (!changed) return node;
  if (kept.length === 0 && node.type.name !== 'doc') return node;
  return node.copy(Fragment.from(kept));
}

/** Each editor's serializer before the escape pass (the warm-up's input, the benchmark's baseline). */
const beforeEscapePass = new WeakMap<Ctx, (doc: ProseNode) => string>();

/**
 * After the editor is created: every serialization (saves, offsets, copy) skips empty lines, and
 * keeps the blocks the researcher did not touch as they were read (kept-blocks.ts).
 */
export function serializeWithoutEmptyParagraphs(ctx: Ctx): void {
  const serialize = ctx.get(serializerCtx);
  const writtenKept = (kept: ProseNode): string =>
    // Milkdown cannot write a document without blocks: that is the empty description.
    kept.childCount === 0 ? '' : serialize(kept);
  const written = (doc: ProseNode): string =>
    writtenKept(withoutEmptyParagraphs(withTypedTables(doc)));
  beforeEscapePass.set(ctx, written);
  ctx.set(serializerCtx, (doc: ProseNode) => {
    const kept = withoutEmptyParagraphs(withTypedTables(doc));
    return (
      writeKeepingBlocks(kept, blockWriter(kept, writtenKept)) ??
      withoutNeedlessEscapes(writtenKept(kept))
    );
  });
}

/** The writer of parts of `doc`, each read with the definitions the whole document holds. */
function blockWriter(doc: ProseNode, written: (doc: ProseNode) => string): Writer {
  let definitions: string | null = null;
  const definitionsOfDoc = (): string => {
    if (definitions !== null) return definitions;
    const found: ProseNode[] = [];
    doc.descendants((node) => {
      const name = node.type.name;
      if (name === 'footnote_definition' || name === 'link_definition') found.push(node);
      return name !== 'footnote_definition' && node.isBlock && !node.isTextblock;
    });
    definitions = found.length === 0 ? '' : written(doc.copy(Fragment.from(found)));
    return definitions;
  };
  return {
    write: (blocks) =>
      withoutNeedlessEscapes(
        written(doc.copy(Fragment.from(blocks))),
        definedLabels(definitionsOfDoc()),
      ),
    readsAlike: (a, b) => blocksReadAlike(a, b, definitionsOfDoc()),
  };
}

/** The Markdown of `doc` as the serializer writes it, before the escape pass. */
export function markdownBeforeEscapePass(ctx: Ctx, doc: ProseNode): string {
  const written = beforeEscapePass.get(ctx);
  if (!written) throw new Error('serializeWithoutEmptyParagraphs was not called for this editor');
  return written(doc);
}

/**
 * How the description editor reads and writes Markdown, so that what the researcher typed is
 * what the program receives:
 * - typed URLs, `www.` domains and e-mail addresses are written as typed (autolink-output.ts);
 * - images and links without a title (reference-style ones included) parse with an empty title
 *   (Milkdown's schema requires a string and would throw, dropping the rest of the document);
 * - empty paragraphs (the editor's empty lines, the sections still to write) are not written.
 */
import {
  defaultHandlers,
  type Handle,
  type Info,
  type Join,
  type State,
} from 'mdast-util-to-markdown';
import type { List, Nodes, Parents } from 'mdast';
import { remarkStringifyOptionsCtx, serializerCtx } from '@milkdown/kit/core';
import type { Ctx } from '@milkdown/kit/ctx';
import { Fragment, type Node as ProseNode } from '@milkdown/kit/prose/model';
import { $remark } from '@milkdown/kit/utils';
import { recordMarkParents, writeBreak, writeLink, writeText } from './autolink-output';
import { KEPT_DEFINITION, joinAfterKeptDefinition, writeKeptDefinition } from './kept-definitions';
import {
  definedLabels,
  escapeWarmUp,
  warmUpReader,
  withoutNeedlessEscapes,
} from './needless-escapes';
import { writeKeepingBlocks, type Writer } from './kept-blocks';
import { blocksReadAlike } from './block-reading';
import { withTypedTables } from './typed-tables';
import { UNLINKED_ADDRESS_NODE, writeUnlinkedAddress } from './unlinked-urls';
import { recordWrittenMark } from './mark-flanking';

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
function writeList(list: Handle): Handle {
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

const joinHtmlLineInTightItem: Join = (_left, right) => (flagged(right as Nodes) ? 0 : undefined);

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
const joinListsOfTwoKinds: Join = (left, right) => {
  if (left.type !== 'list' || right.type !== 'list') return undefined;
  if (Boolean(left.ordered) === Boolean(right.ordered)) return undefined;
  if (!writtenTight(left) || !writtenTight(right)) return undefined;
  const first = childrenOf(right.children[0])[0];
  if (first?.type !== 'paragraph' || childrenOf(first).length === 0) return undefined;
  return right.ordered && (right.start ?? 1) !== 1 ? undefined : 0;
};

function writeHtml(html: Handle): Handle {
  return (node: Nodes, parent: Parents | undefined, state: State, info: Info): string => {
    const written = html(node, parent, state, info);
    return flagged(node) ? written.trimEnd() : written;
  };
}

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

/**
 * How much text the warm-up writes at once: a run of 1,000 characters written, with the idle
 * period's budget spent before it, made periods of 18 ms; of 300, 12.5 (the longest, median of 5
 * fresh pages), while the warm-up still ends within 3 s of idle time for a 25 KB description.
 */
const WARM_UP_PIECE_CHARS = 300;

/**
 * The document's top-level blocks in runs of about `WARM_UP_PIECE_CHARS` of text (the first
 * `singles` blocks each alone): the warm-up
 * writes one run at a time (the whole document at once was one long frame; one block at a time,
 * hundreds of idle callbacks for the empty lines and short paragraphs of a long report).
 */
export function warmUpPieces(doc: ProseNode, singles = 0): ProseNode[][] {
  const pieces: ProseNode[][] = [];
  let run: ProseNode[] = [];
  let size = 0;
  doc.forEach((block) => {
    if (
      run.length > 0 &&
      (pieces.length < singles || size + block.nodeSize > WARM_UP_PIECE_CHARS)
    ) {
      pieces.push(run);
      run = [];
      size = 0;
    }
    run.push(block);
    size += block.nodeSize;
  });
  if (run.length > 0) pieces.push(run);
  return pieces;
}

/** The warm-up's first idle periods that do one unit each, on a block of its own. */
const COLD_UNITS = 12;

/** What the warm-up first writes and reads: a line with what a report's text holds. */
const WARM_UP_LINE =
  'See *this* and **that** [link](https://x.com) <b> a_b \\ `code` https://x.com a@b.co.';

/** Leaves this much of an idle period to the browser: the parse under way may run a little over. */
const IDLE_MARGIN_MS = 4;
/**
 * At most this long per idle period, however long the browser offers (up to 50 ms): with the unit
 * under way, a slice stays within one frame (16 ms) on a loaded machine too.
 */
const SLICE_TIME_MS = 8;

/**
 * Weighs the escapes of `doc` (the document the editor opened with) while the renderer is idle,
 * a few parses per idle period (within its deadline and `WARM_UP_SLICE_CHARS` of needless-escapes.ts; a block's weighing
 * resumes in the next period), so the first save of a long description does not parse every
 * block at once on the keystroke's thread. Stops when the editor is destroyed.
 */
export function warmUpEscapePass(ctx: Ctx, doc: ProseNode, isDestroyed: () => boolean): void {
  const whenIdle = (run: (hasTime: () => boolean) => void): void => {
    if (typeof requestIdleCallback === 'function') {
      requestIdleCallback(
        (deadline) => {
          const started = performance.now();
          run(
            () =>
              deadline.timeRemaining() > IDLE_MARGIN_MS &&
              performance.now() - started < SLICE_TIME_MS,
          );
        },
        { timeout: 2_000 },
      );
    } else {
      setTimeout(() => run(() => false), 50);
    }
  };
  const written = (blocks: ProseNode[]): string =>
    blocks.length === 0 ? '' : markdownBeforeEscapePass(ctx, doc.copy(Fragment.from(blocks)));
  // Footnotes and link definitions (kept in quotes and list items too): the labels a block may use.
  const definitions: ProseNode[] = [];
  doc.descendants((node) => {
    const name = node.type.name;
    if (name === 'footnote_definition' || name === 'link_definition') definitions.push(node);
    return name !== 'footnote_definition' && node.isBlock && !node.isTextblock;
  });
  const step = escapeWarmUp(
    warmUpPieces(doc, COLD_UNITS).map((blocks) => () => written(blocks)),
    () => written(definitions),
  );
  // In a fresh page the first runs of the writer and the reader compile their code as they go:
  // the first unit (a run of blocks written, then parsed) took 20 to 40 ms. They first run on a
  // word and on one short line, each in an idle period of its own; then the first `COLD_UNITS`
  // periods do one unit each, on one block, so that no period is longer than a frame.
  const { schema } = doc.type;
  const write = (text: string): string => {
    const line = schema.nodes.paragraph?.create(null, schema.text(text));
    return line ? markdownBeforeEscapePass(ctx, doc.type.create(null, line)) : text;
  };
  let sample = WARM_UP_LINE;
  const firsts = [
    // The writer's core on one word, then what a line of a report makes it do (escapes, links).
    () => write('a'),
    () => {
      sample = write(WARM_UP_LINE);
    },
    () => warmUpReader(sample),
  ];
  let periods = 0;
  const next = (hasTime: () => boolean): void => {
    if (isDestroyed()) return;
    const first = firsts.shift();
    if (first) first();
    else if (step(periods++ < COLD_UNITS ? () => false : hasTime)) return;
    whenIdle(next);
  };
  whenIdle(next);
}

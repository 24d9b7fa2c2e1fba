/**
 * A block the researcher did not touch keeps its bytes. The writer restyles whatever it writes
 * (`-` bullets become `*`, `1.`/`1.` is renumbered, an underlined heading gets `#`, `~~~` fences,
 * bare URLs, two trailing spaces, a nested item's indentation, a pasted tool banner): a
 * researcher who pasted a report from their notes and fixed one typo had every block rewritten.
 *
 * Each top-level block the editor reads is remembered with its source (by the node's identity:
 * ProseMirror keeps an untouched block the same object through every edit). When the document is
 * written, such a block is written as it was read, and only new or changed blocks through the
 * writer. A kept block counts only where its source reads exactly as the editor shows the block
 * (`verified`), and every place where kept and rewritten text meet is read once more: should the
 * two read differently from the writer's own output there (two lists joined, a block swallowed),
 * the whole document is written by the writer, as before.
 */
import type { Node as ProseNode } from '@milkdown/kit/prose/model';
import { Plugin, PluginKey } from '@milkdown/kit/prose/state';
import { $remark } from '@milkdown/kit/utils';
import { KEPT_DEFINITION } from './kept-definitions';

interface Span {
  start: number;
  end: number;
}

/** One reading of a Markdown text: its source and its top-level blocks' spans. */
interface Reading {
  source: string;
  spans: Span[];
}

interface Origin {
  reading: Reading;
  index: number;
}

/** The block each top-level node was read from. */
const origins = new WeakMap<ProseNode, Origin>();

interface MdBlock {
  type: string;
  position?: { start: { offset?: number }; end: { offset?: number } };
}

/** The top-level blocks of the last text read (set by `remarkKeptBlocks`, taken by `keepOrigins`). */
let lastRead: { source: string; blocks: MdBlock[] } | null = null;

/** Must be used after every other remark plugin: it records the tree as the editor builds it. */
export const remarkKeptBlocks = $remark('bountyDeskKeptBlocks', () => () => (tree, file) => {
  const children = (tree as unknown as { children?: MdBlock[] }).children ?? [];
  lastRead = { source: String(file.value), blocks: children };
});

/** The editor's node types each Markdown block may become. */
const NODE_TYPES: Record<string, readonly string[]> = {
  paragraph: ['paragraph'],
  heading: ['heading'],
  thematicBreak: ['hr'],
  blockquote: ['blockquote'],
  list: ['bullet_list', 'ordered_list'],
  code: ['code_block'],
  html: ['paragraph', 'html'],
  table: ['table'],
  footnoteDefinition: ['footnote_definition'],
  [KEPT_DEFINITION]: ['link_definition'],
};

/** Blocks the editor reads into nothing (resolved definitions: their kept copy follows them). */
const DROPPED = new Set(['definition']);

const isEmptyParagraph = (node: ProseNode): boolean =>
  node.type.name === 'paragraph' && node.content.size === 0;

/**
 * Remembers the source of each top-level block of `doc`, just read from `source`. Where the
 * editor's blocks do not pair one to one with the Markdown's (a construct read into two nodes),
 * nothing is remembered: that document is written by the writer, as before.
 */
export function keepOrigins(doc: ProseNode, source: string): void {
  const read = lastRead;
  lastRead = null;
  if (read?.source !== source) return;
  const blocks = read.blocks.filter((b) => !DROPPED.has(b.type));
  const nodes: ProseNode[] = [];
  doc.forEach((node) => {
    if (!isEmptyParagraph(node)) nodes.push(node);
  });
  if (nodes.length !== blocks.length) return;
  const spans: Span[] = [];
  for (const [i, block] of blocks.entries()) {
    const start = block.position?.start.offset;
    const end = block.position?.end.offset;
    const node = nodes[i];
    if (start === undefined || end === undefined || !node) return;
    if (!NODE_TYPES[block.type]?.includes(node.type.name)) return;
    if (start < (spans.at(-1)?.end ?? 0)) return;
    spans.push({ start, end });
  }
  const reading: Reading = { source, spans };
  nodes.forEach((node, index) => origins.set(node, { reading, index }));
}

/** Whether `b` is `a` with at most its heading id changed. */
function sameButId(a: ProseNode, b: ProseNode): boolean {
  return (
    a.type === b.type &&
    a.content.eq(b.content) &&
    Object.keys(a.attrs).every((key) => key === 'id' || a.attrs[key] === b.attrs[key])
  );
}

/**
 * The preset gives every heading an id after each load and edit (a new node): not a change of
 * the researcher's, so the heading keeps the source it was read from. Matched in order, so two
 * headings alike keep their own.
 */
export function keptOriginsPlugin(): Plugin {
  return new Plugin({
    key: new PluginKey('bounty-desk-kept-origins'),
    appendTransaction(transactions, oldState, newState) {
      if (!transactions.some((tr) => tr.docChanged)) return null;
      const before: ProseNode[] = [];
      oldState.doc.forEach((node) => {
        if (node.type.name === 'heading' && origins.has(node)) before.push(node);
      });
      let at = 0;
      newState.doc.forEach((node) => {
        if (node.type.name !== 'heading') return;
        if (origins.has(node)) {
          const same = before.indexOf(node);
          if (same >= at) at = same + 1;
          return;
        }
        const found = before.findIndex((b, i) => i >= at && sameButId(b, node));
        const was = before[found];
        if (found < 0 || !was) return;
        const origin = origins.get(was);
        if (origin) origins.set(node, origin);
        at = found + 1;
      });
      return null;
    },
  });
}

/** Where a top-level block was read from in the text it was read from, or null. */
export function sourceSpanOf(node: ProseNode): Span | null {
  const origin = origins.get(node);
  return origin ? (origin.reading.spans[origin.index] ?? null) : null;
}

/** A copy of `doc` whose top-level blocks around `positions` are new nodes: written anew. */
export function withBlocksRewritten(doc: ProseNode, positions: readonly number[]): ProseNode {
  let out = doc;
  for (const pos of positions) {
    const $pos = out.resolve(Math.max(0, Math.min(pos, out.content.size)));
    if ($pos.depth === 0) continue;
    const index = $pos.index(0);
    const block = out.child(index);
    if (!origins.has(block)) continue;
    // A new node (`copy` with the same content would be the same node).
    const fresh = block.type.create(block.attrs, block.content, block.marks);
    out = out.copy(out.content.replaceChild(index, fresh));
  }
  return out;
}

/** What writing a document's part needs from the editor's writer. */
export interface Writer {
  /** The Markdown of these top-level blocks as the writer puts them (escape pass included). */
  write(blocks: readonly ProseNode[]): string;
  /** Whether two texts read the same (the labels their references may use defined). */
  readsAlike(a: string, b: string): boolean;
}

/** Whether each kept block's source reads as the editor shows the block. */
const verified = new WeakMap<ProseNode, boolean>();

function sourceOf(origin: Origin): string {
  const span = origin.reading.spans[origin.index];
  return span ? origin.reading.source.slice(span.start, span.end) : '';
}

function isVerified(node: ProseNode, origin: Origin, writer: Writer): boolean {
  let ok = verified.get(node);
  if (ok === undefined) {
    ok = writer.readsAlike(sourceOf(origin), writer.write([node]));
    verified.set(node, ok);
  }
  return ok;
}

interface Piece {
  nodes: ProseNode[];
  /** Its text, without a final line ending. */
  text: string;
  /** The block it was read from: a kept block (one node). */
  origin: Origin | null;
}

/** Whether `b` followed `a` at once in the text both were read from. */
const followed = (a: Piece, b: Piece): boolean =>
  !!a.origin &&
  !!b.origin &&
  a.origin.reading === b.origin.reading &&
  b.origin.index === a.origin.index + 1;

function separator(a: Piece, b: Piece): string {
  if (!followed(a, b) || !a.origin) return '\n\n';
  const { spans, source } = a.origin.reading;
  const end = spans[a.origin.index]?.end ?? 0;
  const start = spans[a.origin.index + 1]?.start ?? end;
  return source.slice(end, start);
}

const trimmed = (markdown: string): string => markdown.replace(/\n+$/, '');

/**
 * `doc` (its empty lines dropped, as written) with each untouched block as it was read, or null
 * when no block is kept (the writer then writes it all).
 */
export function writeKeepingBlocks(doc: ProseNode, writer: Writer): string | null {
  const pieces: Piece[] = [];
  let kept = 0;
  doc.forEach((node) => {
    const origin = origins.get(node);
    if (origin && isVerified(node, origin, writer)) {
      pieces.push({ nodes: [node], text: sourceOf(origin), origin });
      kept++;
      return;
    }
    const last = pieces.at(-1);
    if (last && !last.origin) last.nodes.push(node);
    else pieces.push({ nodes: [node], text: '', origin: null });
  });
  if (kept === 0) return null;
  for (const piece of pieces) {
    if (!piece.origin) piece.text = trimmed(writer.write(piece.nodes));
  }
  const first = pieces[0];
  const last = pieces.at(-1);
  if (!first || !last) return null;
  // The document as read, untouched: its source, byte for byte.
  const reading = first.origin?.reading;
  if (
    reading &&
    pieces.length === reading.spans.length &&
    pieces.every((p, i) => p.origin?.reading === reading && p.origin.index === i)
  ) {
    return reading.source;
  }
  // Where kept and rewritten text meet, or two kept blocks that did not follow each other: the
  // blocks joined there must read as the writer's own text for them.
  let cluster: Piece[] = [];
  const clusterReadsAlike = (): boolean =>
    cluster.length < 2 ||
    writer.readsAlike(joined(cluster), trimmed(writer.write(cluster.flatMap((p) => p.nodes))));
  for (const piece of pieces) {
    const before = cluster.at(-1);
    if (before && followed(before, piece)) {
      if (!clusterReadsAlike()) return null;
      cluster = [];
    }
    cluster.push(piece);
  }
  if (!clusterReadsAlike()) return null;
  return leadOf(first) + joined(pieces) + tailOf(last);
}

function joined(pieces: readonly Piece[]): string {
  let out = '';
  pieces.forEach((piece, i) => {
    const next = pieces[i + 1];
    out += piece.text + (next ? separator(piece, next) : '');
  });
  return out;
}

/** What stood before the first block when it was read first (blank lines): kept too. */
function leadOf(piece: Piece): string {
  if (!piece.origin || piece.origin.index !== 0) return '';
  return piece.origin.reading.source.slice(0, piece.origin.reading.spans[0]?.start ?? 0);
}

/** What followed the last block when it was read last (its line ending, or none); else one. */
function tailOf(piece: Piece): string {
  const origin = piece.origin;
  if (!origin || origin.index !== origin.reading.spans.length - 1) return '\n';
  return origin.reading.source.slice(origin.reading.spans[origin.index]?.end ?? 0);
}

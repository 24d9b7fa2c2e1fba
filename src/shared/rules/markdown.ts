/**
 * The one Markdown parser of the rules: CommonMark plus GitHub Flavored Markdown (tables, task
 * lists, strikethrough, footnotes, literal autolinks), as mdast with source offsets. Offsets are
 * JavaScript string indices (UTF-16 code units).
 *
 * Every node of a parsed tree has a position. mdast's GFM literal-autolink step runs after
 * parsing and replaces a text node with new text and link nodes that carry none (it finds
 * `https://x.com`, `www.x.com` and `a@b.co` even where the source escaped them: `https\://x.com`).
 * Rules that cut the source by offsets would throw on those, so `parseMarkdown` gives each of them
 * the source range it came from, aligned character by character (escapes and the like skipped).
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { Nodes, Root } from 'mdast';

interface Point {
  line: number;
  column: number;
  offset: number;
}

export function parseMarkdown(markdown: string): Root {
  const tree = fromMarkdown(markdown, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  });
  fillPositions(markdown, tree);
  return tree;
}

/** Start offset of a node (every node of `parseMarkdown` has one; 0 for a node made by hand). */
export function startOffset(node: Nodes): number {
  return node.position?.start.offset ?? 0;
}

/** End offset of a node (its start for a node made by hand). */
export function endOffset(node: Nodes): number {
  return node.position?.end.offset ?? startOffset(node);
}

/** Plain text of a node: text, inline code and image alt, concatenated. */
export function plainText(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if (node.type === 'image' || node.type === 'imageReference') return node.alt ?? '';
  if ('children' in node) return (node.children as Nodes[]).map(plainText).join('');
  return '';
}

/** Removes `<!-- ... -->` comments from an HTML chunk (an unterminated comment runs to the end). */
export function withoutHtmlComments(html: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const open = html.indexOf('<!--', at);
    if (open < 0) return out + html.slice(at);
    out += html.slice(at, open);
    const close = html.indexOf('-->', open + 4);
    if (close < 0) return out;
    at = close + 3;
  }
}

// ---- positions for nodes made after parsing ---------------------------------------------------

function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') starts.push(i + 1);
  return starts;
}

function pointAt(starts: number[], offset: number): Point {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (starts[lo] as number) + 1, offset };
}

function hasOffsets(node: Nodes): boolean {
  return node.position?.start.offset !== undefined && node.position.end.offset !== undefined;
}

/** The text a node stands for, as mdast decoded it (what to find in the source). */
function decodedText(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(decodedText).join('');
  return '';
}

/**
 * Walks `source[from, to)` against `text` and returns, for each index of `text` (and its end),
 * the source offset it was read from. Characters only the source has (an escaping backslash, the
 * rest of a character reference, indentation after a line ending) are skipped. Monotone, bounded.
 */
function align(source: string, from: number, to: number, text: string): number[] {
  const map: number[] = [];
  let i = from;
  for (let j = 0; j < text.length; j++) {
    while (i < to && source[i] !== text[j]) i++;
    map.push(Math.min(i, to));
    if (i < to) i++;
  }
  map.push(Math.min(Math.max(i, map.at(-1) ?? from), to));
  return map;
}

function setRange(node: Nodes, starts: number[], start: number, end: number): void {
  node.position = { start: pointAt(starts, start), end: pointAt(starts, Math.max(start, end)) };
}

function fillPositions(source: string, tree: Root): void {
  const starts = lineStarts(source);
  const visit = (parent: Nodes): void => {
    if (!('children' in parent)) return;
    const children = parent.children as Nodes[];
    let i = 0;
    while (i < children.length) {
      if (hasOffsets(children[i] as Nodes)) {
        visit(children[i] as Nodes);
        i++;
        continue;
      }
      // A run of nodes without positions: together they replaced the source between their
      // positioned neighbours (or the parent's edges).
      let j = i;
      while (j < children.length && !hasOffsets(children[j] as Nodes)) j++;
      const prev = children[i - 1];
      const next = children[j];
      const from = prev ? endOffset(prev) : startOffset(parent);
      const to = Math.max(from, next ? startOffset(next) : endOffset(parent));
      const run = children.slice(i, j);
      const texts = run.map(decodedText);
      const map = align(source, from, to, texts.join(''));
      let at = 0;
      run.forEach((node, k) => {
        const length = (texts[k] as string).length;
        const start = map[at] ?? to;
        const end = k === run.length - 1 ? to : (map[at + length] ?? to);
        setRange(node, starts, start, end);
        fillInside(node, starts, start, end);
        at += length;
      });
      i = j;
    }
  };
  const fillInside = (node: Nodes, lines: number[], start: number, end: number): void => {
    if (!('children' in node)) return;
    for (const child of node.children as Nodes[]) {
      if (!hasOffsets(child)) setRange(child, lines, start, end);
      fillInside(child, lines, start, end);
    }
  };
  if (!hasOffsets(tree)) setRange(tree, starts, 0, source.length);
  visit(tree);
}

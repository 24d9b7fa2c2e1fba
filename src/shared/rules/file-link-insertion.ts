/** Inserting a link to a file into a description so that it reads as its own link. */
import type { Nodes, Root } from 'mdast';
import { fileLinkTarget, findFileLinks } from './file-links';
import { endOffset, parseMarkdown, startOffset } from './markdown';

const MARKDOWN_ESCAPES = new Set(['\\', '`', '*', '_', '[', ']', '<', '>', '&', '~', '|']);

/** Escapes text so that it reads literally as a link label or image alt text. */
export function escapeMarkdownText(text: string): string {
  let out = '';
  for (const ch of text) {
    if (ch === '\r' || ch === '\n' || ch === '\t') out += ' ';
    else out += MARKDOWN_ESCAPES.has(ch) ? `\\${ch}` : ch;
  }
  return out;
}

export interface InsertFileLinkOptions {
  name: string;
  reportId: string;
  fileId: string;
  /** Embed as an image (`![name](…)`) instead of a link. */
  image?: boolean;
}

/** The Markdown of one link (or image embed) to a file. */
export function fileLinkMarkdown(options: InsertFileLinkOptions): string {
  const label = escapeMarkdownText(options.name);
  const target = fileLinkTarget(options.reportId, options.fileId);
  return `${options.image ? '!' : ''}[${label}](${target})`;
}

/**
 * Block nodes whose source takes inline text where a link can go. Not a table's cell: a file
 * attached with the caret in a table (the end of a description that ends with one) went into its
 * last cell; it goes below the table.
 */
const INLINE_HOSTS = new Set(['paragraph']);

/** The nodes whose source contains `at` (ends included), outermost first. */
function enclosing(tree: Root, at: number): Nodes[] {
  const path: Nodes[] = [];
  let node: Nodes = tree;
  for (;;) {
    const children: Nodes[] = 'children' in node ? (node.children as Nodes[]) : [];
    const inside = children.find((c) => startOffset(c) <= at && at <= endOffset(c));
    if (!inside) return path;
    path.push(inside);
    node = inside;
  }
}

function clampOffset(markdown: string, offset: number): number {
  let at = Math.max(
    0,
    Math.min(Number.isFinite(offset) ? Math.trunc(offset) : markdown.length, markdown.length),
  );
  const prev = markdown.charCodeAt(at - 1);
  const next = markdown.charCodeAt(at);
  if (at > 0 && prev >= 0xd800 && prev <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) at += 1;
  return at;
}

/** Line endings needed so that a block starts on a fresh paragraph after `before`. */
function blankLineAfter(before: string): string {
  if (before.trim() === '') return '';
  const trailing = /\n*$/.exec(before)?.[0].length ?? 0;
  return '\n'.repeat(Math.max(0, 2 - trailing));
}

function blankLineBefore(after: string): string {
  if (after.trim() === '') return after === '' ? '\n' : '';
  const leading = /^\n*/.exec(after)?.[0].length ?? 0;
  return '\n'.repeat(Math.max(0, 2 - leading));
}

export interface FileLinkInsertion {
  markdown: string;
  /** Offset just after the inserted link (where the next of several dropped files goes). */
  end: number;
}

/**
 * Inserts a link to a file near `offset` (a string index, clamped to the text and never inside a
 * surrogate pair) so that it reads as its own link, whatever the Markdown around it:
 * - in running text (a paragraph) it goes at the offset, with a space on each side
 *   where a word or another link would touch it ("login.txt har.har", never glued);
 * - inside a heading it goes to a paragraph of its own just below the heading (the section the
 *   heading opens), never into the heading text; at the very start of a heading line (or of any
 *   block) it goes just above it, at the end of the section before;
 * - inside an inline construct (a link, code span, emphasis, autolink) it goes right after it;
 * - inside block syntax that takes no text (a code block, HTML, a definition, a list marker, a
 *   table) or between blocks, it becomes a paragraph of its own after that block.
 */
export function insertFileLinkAt(
  markdown: string,
  offset: number,
  options: InsertFileLinkOptions,
): FileLinkInsertion {
  const placed = placeFileLink(markdown, offset, options);
  if (readsAsLink(placed.markdown, options)) return placed;
  // The Markdown ends inside a construct that never closes (a code fence, a <pre>, a <style>):
  // whatever follows is its text. Close it, then the link goes below.
  const before = closedAtEnd(markdown);
  const lead = blankLineAfter(before);
  const link = fileLinkMarkdown(options);
  const closed = {
    markdown: `${before}${lead}${link}\n`,
    end: before.length + lead.length + link.length,
  };
  return readsAsLink(closed.markdown, options) ? closed : placed;
}

function readsAsLink(markdown: string, options: InsertFileLinkOptions): boolean {
  return (
    findFileLinks(markdown).filter(
      (l) => l.fileId === options.fileId && l.reportId === options.reportId,
    ).length >= 1
  );
}

const RAW_HTML_BLOCK = /^ {0,3}<(pre|script|style|textarea)(?=[\s>]|$)/i;

/**
 * `markdown` with the construct it ends inside (a code fence, a `<pre>`, a `<style>` never closed)
 * closed on a line of its own, so that what is added after it is not its text; else unchanged.
 */
export function closedAtEnd(markdown: string): string {
  const closer = closerOf(markdown);
  return markdown + (closer ? (markdown.endsWith('\n') ? '' : '\n') + closer : '');
}

/** The text that closes the last block of `markdown` when it runs to the end unclosed. */
function closerOf(markdown: string): string | null {
  let node: Nodes = parseMarkdown(markdown);
  while ('children' in node && node.children.length > 0) {
    node = node.children[node.children.length - 1] as Nodes;
  }
  const source = markdown.slice(startOffset(node));
  if (node.type === 'code') {
    const fence = /^(?:[ \t>]*)(`{3,}|~{3,})/.exec(source)?.[1];
    return fence ? `${fence}\n` : null;
  }
  if (node.type === 'html') {
    const tag = RAW_HTML_BLOCK.exec(source)?.[1];
    return tag ? `</${tag.toLowerCase()}>\n` : null;
  }
  return null;
}

function placeFileLink(
  markdown: string,
  offset: number,
  options: InsertFileLinkOptions,
): FileLinkInsertion {
  const link = fileLinkMarkdown(options);
  let at = clampOffset(markdown, offset);
  const path = enclosing(parseMarkdown(markdown), at);
  // Between blocks, after a line's indentation: a link there would be indented code (a tab, or
  // four spaces, before it). It goes at the line's start; the indentation stays after it.
  if (path.length === 0) at = startOfBlankIndent(markdown, at);
  let block: Nodes | null = null;
  for (let i = 0; i < path.length; i++) {
    const node = path[i] as Nodes;
    if (node.type === 'text' || INLINE_HOSTS.has(node.type)) continue;
    if (i > 0 && INLINE_HOSTS.has((path[i - 1] as Nodes).type)) {
      // An inline construct: next to it is fine, inside it would change it.
      if (startOffset(node) < at && at < endOffset(node)) at = endOffset(node);
      break;
    }
    // A block: go into it only when running text inside it holds the offset.
    if (node.type === 'heading' || !path.slice(i + 1).some((n) => INLINE_HOSTS.has(n.type))) {
      block = node;
      break;
    }
  }
  if (block && at <= startOffset(block)) {
    // At the very start of a block (a heading line, a fence): the end of what comes before.
    at = startOffset(block);
    const before = markdown.slice(0, at);
    const lead = blankLineAfter(before);
    return {
      markdown: `${before}${lead}${link}\n\n${markdown.slice(at)}`,
      end: at + lead.length + link.length,
    };
  }
  if (block || (path.length === 0 && atBlankLine(markdown, at))) {
    if (block) at = endOffset(block);
    const before = markdown.slice(0, at);
    const after = markdown.slice(at);
    const lead = blankLineAfter(before);
    const inserted = lead + link + blankLineBefore(after);
    return { markdown: before + inserted + after, end: at + lead.length + link.length };
  }
  const before = markdown.slice(0, at);
  const after = markdown.slice(at);
  const lead = before !== '' && !/\s$/u.test(before) ? ' ' : '';
  const trail = after !== '' && !/^\s/u.test(after) ? ' ' : '';
  return {
    markdown: before + lead + link + trail + after,
    end: at + lead.length + link.length,
  };
}

/** The start of `at`'s line when only spaces and tabs come before `at` on it; else `at`. */
function startOfBlankIndent(markdown: string, at: number): number {
  const lineStart = at === 0 ? 0 : markdown.lastIndexOf('\n', at - 1) + 1;
  return /^[ \t]*$/.test(markdown.slice(lineStart, at)) ? lineStart : at;
}

/** On a line with nothing else: between blocks, not in running text. */
function atBlankLine(markdown: string, at: number): boolean {
  if (markdown.trim() === '') return false;
  const lineStart = markdown.lastIndexOf('\n', at - 1) + 1;
  const lineEnd = markdown.indexOf('\n', at);
  const line = markdown.slice(lineStart, lineEnd < 0 ? markdown.length : lineEnd);
  return line.trim() === '';
}

/** Inserts a link to a file near `offset`: see `insertFileLinkAt`. */
export function insertFileLink(
  markdown: string,
  offset: number,
  options: InsertFileLinkOptions,
): string {
  return insertFileLinkAt(markdown, offset, options).markdown;
}

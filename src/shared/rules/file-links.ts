/**
 * Links from a report's Markdown description to its files.
 *
 * The API: "A file is linked in the description as a Markdown link whose target has the shape
 * `/reports/<report_id>/files/<file_id>`." Choices (client and sandbox share them):
 * - Only the path form counts: the target starts with `/reports/`. An absolute URL
 *   (`https://host/reports/…/files/…`), a relative path without the leading `/`, and therefore
 *   every autolink (`<https://…>`, GFM `www.…`, which always carry a host) are ordinary links. A
 *   host is not the service's to decide, and the path form is what the client writes.
 * - A query or fragment after the path (`…/files/<id>?download`) still points to the file, so it
 *   counts; a trailing `/` or extra segments do not (the API serves no such path).
 * - Segments are percent-decoded; they are not required to be UUIDs, so a link to a file id that
 *   does not exist is still found (and the server can answer `invalid_file_reference`).
 * - Markdown constructs that count: inline links and images, reference definitions, and the
 *   link/image references that use such a definition. Raw HTML (`<a href>`) and text inside code
 *   are not Markdown links.
 * Offsets are JavaScript string indices (UTF-16 code units), `end` exclusive.
 */
import type { Definition, Nodes, Root } from 'mdast';
import { endOffset, parseMarkdown, startOffset } from './markdown';

export type FileLinkKind = 'link' | 'image' | 'definition' | 'linkReference' | 'imageReference';

export interface FileLink {
  reportId: string;
  fileId: string;
  /** Offset of the whole construct in the Markdown string. */
  start: number;
  end: number;
  /** Link text as written (Markdown source of the label), image alt text, or definition label. */
  text: string;
  image: boolean;
  kind: FileLinkKind;
}

export interface FileLinkTarget {
  reportId: string;
  fileId: string;
}

export function fileLinkTarget(reportId: string, fileId: string): string {
  return `/reports/${encodeURIComponent(reportId)}/files/${encodeURIComponent(fileId)}`;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The report and file a link target points to, or null when it is not a file link. */
export function parseFileLinkTarget(url: string): FileLinkTarget | null {
  let path = url;
  const cut = [path.indexOf('?'), path.indexOf('#')].filter((i) => i >= 0);
  if (cut.length > 0) path = path.slice(0, Math.min(...cut));
  const parts = path.split('/');
  if (parts.length !== 5) return null;
  const [empty, reports, reportId, files, fileId] = parts as [
    string,
    string,
    string,
    string,
    string,
  ];
  if (empty !== '' || reports !== 'reports' || files !== 'files') return null;
  if (reportId === '' || fileId === '') return null;
  return { reportId: decodeSegment(reportId), fileId: decodeSegment(fileId) };
}

function firstDefinitions(tree: Root): Map<string, Definition> {
  const defs = new Map<string, Definition>();
  const walk = (node: Nodes): void => {
    // CommonMark: the first definition of a label wins.
    if (node.type === 'definition' && !defs.has(node.identifier)) defs.set(node.identifier, node);
    if ('children' in node) for (const child of node.children as Nodes[]) walk(child);
  };
  walk(tree);
  return defs;
}

/** Source of a parent's children (its label), or '' when it has none. */
function labelSource(markdown: string, node: Nodes): string {
  if (!('children' in node) || node.children.length === 0) return '';
  const children = node.children as Nodes[];
  return markdown.slice(
    startOffset(children[0] as Nodes),
    endOffset(children[children.length - 1] as Nodes),
  );
}

interface Found {
  link: FileLink;
  node: Nodes;
}

function collect(markdown: string): { tree: Root; found: Found[] } {
  const tree = parseMarkdown(markdown);
  const defs = firstDefinitions(tree);
  const found: Found[] = [];
  const add = (node: Nodes, target: FileLinkTarget | null, kind: FileLinkKind, text: string) => {
    if (!target) return;
    found.push({
      node,
      link: {
        ...target,
        start: startOffset(node),
        end: endOffset(node),
        text,
        image: kind === 'image' || kind === 'imageReference',
        kind,
      },
    });
  };
  const refTarget = (identifier: string): FileLinkTarget | null => {
    const def = defs.get(identifier);
    return def ? parseFileLinkTarget(def.url) : null;
  };
  const walk = (node: Nodes): void => {
    switch (node.type) {
      case 'link':
        add(node, parseFileLinkTarget(node.url), 'link', labelSource(markdown, node));
        break;
      case 'image':
        add(node, parseFileLinkTarget(node.url), 'image', node.alt ?? '');
        break;
      case 'definition':
        // Only the definition that references resolve to is a live link; later duplicates are
        // still reported, since they name the file too.
        add(node, parseFileLinkTarget(node.url), 'definition', node.label ?? node.identifier);
        break;
      case 'linkReference':
        add(node, refTarget(node.identifier), 'linkReference', labelSource(markdown, node));
        break;
      case 'imageReference':
        add(node, refTarget(node.identifier), 'imageReference', node.alt ?? '');
        break;
      default:
        break;
    }
    if ('children' in node) for (const child of node.children as Nodes[]) walk(child);
  };
  walk(tree);
  return { tree, found };
}

export function findFileLinks(markdown: string): FileLink[] {
  return collect(markdown).found.map((f) => f.link);
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

function applyEdits(source: string, from: number, to: number, edits: Edit[]): string {
  let out = '';
  let at = from;
  for (const e of [...edits].sort((a, b) => a.start - b.start)) {
    out += source.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + source.slice(at, to);
}

/** Widens a deletion to its whole line (with the line ending) when nothing else is on the line. */
function widenBlankLine(markdown: string, edit: Edit): Edit {
  if (edit.text !== '') return edit;
  const lineStart = markdown.lastIndexOf('\n', edit.start - 1) + 1;
  let lineEnd = markdown.indexOf('\n', edit.end);
  if (lineEnd < 0) lineEnd = markdown.length;
  const before = markdown.slice(lineStart, edit.start);
  const after = markdown.slice(edit.end, lineEnd);
  if (before.trim() !== '' || after.trim() !== '') return edit;
  return { start: lineStart, end: Math.min(lineEnd + 1, markdown.length), text: '' };
}

/**
 * Removes every reference to one file: a link becomes its text (the Markdown of its label), an
 * image embed disappears, a definition disappears (with its line). Everything else is unchanged,
 * byte for byte. Links to the file nested in the text of another removed link are handled too.
 */
export function removeFileLinks(markdown: string, fileId: string): string {
  const { tree, found } = collect(markdown);
  const targets = found.filter((f) => f.link.fileId === fileId);
  if (targets.length === 0) return markdown;
  const byNode = new Map<Nodes, FileLink>(targets.map((t) => [t.node, t.link]));

  const editsWithin = (nodes: Nodes[]): Edit[] => {
    const edits: Edit[] = [];
    for (const node of nodes) {
      const link = byNode.get(node);
      if (link) {
        if (link.image || link.kind === 'definition') {
          edits.push({ start: link.start, end: link.end, text: '' });
        } else {
          const children = 'children' in node ? (node.children as Nodes[]) : [];
          const first = children[0];
          const last = children[children.length - 1];
          const text =
            first && last
              ? applyEdits(markdown, startOffset(first), endOffset(last), editsWithin(children))
              : '';
          edits.push({ start: link.start, end: link.end, text });
        }
      } else if ('children' in node) {
        edits.push(...editsWithin(node.children as Nodes[]));
      }
    }
    return edits;
  };

  const top = editsWithin(tree.children);
  const widened = top.map((e) => widenBlankLine(markdown, e));
  return applyEdits(markdown, 0, markdown.length, mergeOverlaps(widened));
}

function mergeOverlaps(edits: Edit[]): Edit[] {
  const sorted = [...edits].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Edit[] = [];
  for (const e of sorted) {
    const prev = out[out.length - 1];
    if (prev && e.start < prev.end) {
      // Only widened deletions can overlap (two deletions on one line); keep the wider.
      if (e.end > prev.end) out[out.length - 1] = { start: prev.start, end: e.end, text: '' };
      continue;
    }
    out.push(e);
  }
  return out;
}

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

/** Block nodes whose source takes inline text where a link can go. */
const INLINE_HOSTS = new Set(['paragraph', 'tableCell']);

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
 * - in running text (a paragraph, a table cell) it goes at the offset, with a space on each side
 *   where a word or another link would touch it ("login.txt har.har", never glued);
 * - inside a heading it goes to a paragraph of its own just below the heading (the section the
 *   heading opens), never into the heading text; at the very start of a heading line (or of any
 *   block) it goes just above it, at the end of the section before;
 * - inside an inline construct (a link, code span, emphasis, autolink) it goes right after it;
 * - inside block syntax that takes no text (a code block, HTML, a definition, a list marker, a
 *   table's delimiter row) or between blocks, it becomes a paragraph of its own after that block.
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
  const closer = closerOf(markdown);
  const before = markdown + (closer ? (markdown.endsWith('\n') ? '' : '\n') + closer : '');
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

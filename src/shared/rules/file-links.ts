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

/**
 * Inserts a link to a file at `offset` (a string index, clamped to the text and never inside a
 * surrogate pair).
 */
export function insertFileLink(
  markdown: string,
  offset: number,
  options: InsertFileLinkOptions,
): string {
  let at = Math.max(
    0,
    Math.min(Number.isFinite(offset) ? Math.trunc(offset) : markdown.length, markdown.length),
  );
  const prev = markdown.charCodeAt(at - 1);
  const next = markdown.charCodeAt(at);
  if (at > 0 && prev >= 0xd800 && prev <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) at += 1;
  return markdown.slice(0, at) + fileLinkMarkdown(options) + markdown.slice(at);
}

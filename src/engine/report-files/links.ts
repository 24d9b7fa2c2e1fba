/**
 * The links of a report file: on export the description's file links (`/reports/<id>/files/<id>`)
 * become paths relative to the file (`files/<name>`); on import such local paths become the new
 * draft's file links again. Only the link target changes, byte for byte elsewhere, so a report
 * exported and imported reads as it was written.
 */
import type { Nodes } from 'mdast';
import { fileLinkTarget, findFileLinks, parseFileLinkTarget } from '@shared/rules/file-links';
import { endOffset, parseMarkdown, startOffset } from '@shared/rules/markdown';

interface Replacement {
  start: number;
  end: number;
  text: string;
}

function apply(source: string, edits: Replacement[]): string {
  let out = '';
  let at = 0;
  for (const e of [...edits].sort((a, b) => a.start - b.start)) {
    if (e.start < at) continue;
    out += source.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + source.slice(at);
}

/** Where a link's target is written in the source, searched after its label. */
function targetRange(
  markdown: string,
  node: Nodes,
  written: readonly string[],
): { start: number; end: number } | null {
  const start = startOffset(node);
  const end = endOffset(node);
  let from = start;
  if (node.type === 'link' && node.children.length > 0) {
    from = endOffset(node.children[node.children.length - 1] as Nodes);
  }
  const slice = markdown.slice(from, end);
  for (const raw of written) {
    if (raw === '') continue;
    const at = slice.indexOf(raw);
    if (at >= 0) return { start: from + at, end: from + at + raw.length };
  }
  return null;
}

type Linking = Extract<Nodes, { type: 'link' | 'image' | 'definition' }>;

function linkingNodes(markdown: string): Linking[] {
  const out: Linking[] = [];
  const walk = (node: Nodes): void => {
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition') out.push(node);
    if ('children' in node) for (const child of node.children as Nodes[]) walk(child);
  };
  walk(parseMarkdown(markdown));
  return out;
}

/** A relative path as a link target: each segment percent-encoded, so any name parses back. */
export function encodeRelativePath(path: string): string {
  return path
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/[()'*!~]/g, escapeChar))
    .join('/');
}

const escapeChar = (ch: string): string =>
  `%${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(2, '0')}`;

function decodePath(url: string): string {
  const bare = url.split(/[?#]/)[0] ?? '';
  try {
    return decodeURIComponent(bare);
  } catch {
    return bare;
  }
}

/**
 * Export: every file link's target becomes `pathOf(fileId)` (already encoded), keeping a query
 * or fragment. Links to files that `pathOf` does not know stay as written.
 */
export function linksToRelative(
  markdown: string,
  pathOf: (fileId: string) => string | null,
): string {
  if (findFileLinks(markdown).length === 0) return markdown;
  const edits: Replacement[] = [];
  for (const node of linkingNodes(markdown)) {
    const target = parseFileLinkTarget(node.url);
    if (!target) continue;
    const path = pathOf(target.fileId);
    if (path === null) continue;
    const range = targetRange(markdown, node, [
      node.url,
      fileLinkTarget(target.reportId, target.fileId),
    ]);
    if (!range) continue;
    const written = markdown.slice(range.start, range.end);
    const suffix = written.slice(written.search(/[?#]|$/));
    edits.push({ ...range, text: path + suffix });
  }
  return apply(markdown, edits);
}

/** A link of an imported file to a file beside it. */
export interface LocalLink {
  /** The path as the link gives it, decoded and relative to the Markdown file. */
  path: string;
  /** The file's line of the link (1-based, in the description). */
  line: number;
  image: boolean;
}

/** A target that names no scheme, host, absolute path or fragment: a file beside the report. */
function isLocalTarget(url: string): boolean {
  if (url === '' || /^[a-z][a-z0-9+.-]*:/i.test(url)) return false;
  return !/^[/\\#?]/.test(url);
}

/** Import: the description's links to local files, in the order written. */
export function findLocalLinks(markdown: string): LocalLink[] {
  return linkingNodes(markdown)
    .filter((node) => isLocalTarget(node.url))
    .map((node) => ({
      path: decodePath(node.url),
      line: node.position?.start.line ?? 1,
      image: node.type === 'image',
    }));
}

/**
 * Import: every local link whose path `targetOf` maps (to a file link of the new draft) gets that
 * target, keeping a query or fragment.
 */
export function linksToFiles(markdown: string, targetOf: (path: string) => string | null): string {
  const edits: Replacement[] = [];
  for (const node of linkingNodes(markdown)) {
    if (!isLocalTarget(node.url)) continue;
    const target = targetOf(decodePath(node.url));
    if (target === null) continue;
    const range = targetRange(markdown, node, [node.url, encodeRelativePath(decodePath(node.url))]);
    if (!range) continue;
    const written = markdown.slice(range.start, range.end);
    const suffix = written.slice(written.search(/[?#]|$/));
    edits.push({ ...range, text: target + suffix });
  }
  return apply(markdown, edits);
}

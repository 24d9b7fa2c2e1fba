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
import { parseFileLinkTarget, type FileLinkTarget } from './file-link-target';

export { parseFileLinkTarget, type FileLinkTarget } from './file-link-target';

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

export function fileLinkTarget(reportId: string, fileId: string): string {
  return `/reports/${encodeURIComponent(reportId)}/files/${encodeURIComponent(fileId)}`;
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

type LinkNode = Extract<Nodes, { type: FileLinkKind }>;

/** What a link-like node shows: a link's text as written, an image's alt, a definition's label. */
function shownText(markdown: string, node: LinkNode): string {
  if (node.type === 'image' || node.type === 'imageReference') return node.alt ?? '';
  if (node.type === 'definition') return node.label ?? node.identifier;
  return labelSource(markdown, node);
}

export interface FoundFileLink {
  link: FileLink;
  node: Nodes;
}

/** Every file link of `markdown`, with its node of the parsed tree (for edits). */
export function collectFileLinks(markdown: string): { tree: Root; found: FoundFileLink[] } {
  const tree = parseMarkdown(markdown);
  const defs = firstDefinitions(tree);
  const found: FoundFileLink[] = [];
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
      case 'image':
      case 'definition':
        // Only the definition that references resolve to is a live link; later duplicates are
        // still reported, since they name the file too.
        add(node, parseFileLinkTarget(node.url), node.type, shownText(markdown, node));
        break;
      case 'linkReference':
      case 'imageReference':
        add(node, refTarget(node.identifier), node.type, shownText(markdown, node));
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
  return collectFileLinks(markdown).found.map((f) => f.link);
}

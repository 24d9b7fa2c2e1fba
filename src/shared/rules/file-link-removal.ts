/** Removing every link to one file from a description, leaving everything else byte for byte. */
import type { Nodes } from 'mdast';
import { collectFileLinks, type FileLink } from './file-links';
import { endOffset, startOffset } from './markdown';
import { mergeOverlapping } from './spans';

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
  const { tree, found } = collectFileLinks(markdown);
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
  // Only widened deletions can overlap (two deletions on one line): the union is deleted.
  return mergeOverlapping(edits, (kept, next) =>
    next.end > kept.end ? { start: kept.start, end: next.end, text: '' } : kept,
  );
}

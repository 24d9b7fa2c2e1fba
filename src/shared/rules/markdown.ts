/**
 * The one Markdown parser of the rules: CommonMark plus GitHub Flavored Markdown (tables, task
 * lists, strikethrough, footnotes, literal autolinks), as mdast with source offsets. Offsets are
 * JavaScript string indices (UTF-16 code units).
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { Nodes, Root } from 'mdast';

export function parseMarkdown(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

export function startOffset(node: Nodes): number {
  const offset = node.position?.start.offset;
  if (offset === undefined) throw new Error(`mdast node ${node.type} has no start offset`);
  return offset;
}

export function endOffset(node: Nodes): number {
  const offset = node.position?.end.offset;
  if (offset === undefined) throw new Error(`mdast node ${node.type} has no end offset`);
  return offset;
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

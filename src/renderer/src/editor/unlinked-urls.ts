/**
 * A URL, `www.` domain or e-mail address that the Markdown kept from becoming a link
 * (`https\://evil.example`, `www\.x.com`, `a\@b.co`: a defanged address in a report, written
 * elsewhere) stays unlinked. The editor writes what the researcher types next to nothing as a
 * link (autolink-output.ts); an address opened unlinked carries this mark instead, and is written
 * back with the escape that keeps it text. What the researcher types later is never marked.
 */
import type { Handle, Info, State } from 'mdast-util-to-markdown';
import type { Parents } from 'mdast';
import { $markSchema, $remark } from '@milkdown/kit/utils';
import { autolinkSpans } from './autolinks';

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/** The mdast node of such an address (its one child is the text). */
const UNLINKED = 'unlinkedAutolink';

/** Where a text is a link's own text, an address in it is no autolink to keep from being one. */
const LINKS = new Set(['link', 'linkReference']);

/** Splits text nodes around the addresses a GFM reader did not link (they were escaped). */
export function markUnlinkedAddresses(node: MdNode): void {
  if (!node.children || LINKS.has(node.type)) return;
  const children: MdNode[] = [];
  for (const child of node.children) {
    if (child.type !== 'text' || child.value === undefined) {
      markUnlinkedAddresses(child);
      children.push(child);
      continue;
    }
    const value = child.value;
    let at = 0;
    for (const span of autolinkSpans(value)) {
      const text = value.slice(span.start, span.end);
      // In a table cell a pipe ends the cell: such a text is written as text anyway.
      if (text.includes('|')) continue;
      if (span.start > at) children.push({ type: 'text', value: value.slice(at, span.start) });
      children.push({ type: UNLINKED, children: [{ type: 'text', value: text }] });
      at = span.end;
    }
    if (at === 0) children.push(child);
    else if (at < value.length) children.push({ type: 'text', value: value.slice(at) });
  }
  node.children = children;
}

/** Must be used after the GFM preset: what it linked is a link by then, the rest is text. */
export const remarkUnlinkedAddresses = $remark(
  'bountyDeskUnlinkedAddresses',
  () => () => (tree) => {
    markUnlinkedAddresses(tree as unknown as MdNode);
  },
);

export const unlinkedAddressSchema = $markSchema('unlinked_address', () => ({
  // Typing at its end is new text, written as typed.
  inclusive: false,
  parseDOM: [{ tag: 'span[data-unlinked-address]' }],
  toDOM: () => ['span', { 'data-unlinked-address': '' }],
  parseMarkdown: {
    match: (node) => node.type === UNLINKED,
    runner: (state, node, markType) => {
      state.openMark(markType);
      state.next(node.children);
      state.closeMark(markType);
    },
  },
  toMarkdown: {
    match: (mark) => mark.type.name === 'unlinked_address',
    runner: (state, mark) => {
      state.withMark(mark, UNLINKED);
    },
  },
}));

/**
 * The escape GFM's own writer puts in an address to keep it text: before the scheme's ":", the
 * "." after "www", the "@" of an e-mail address.
 */
export function unlinkedForm(text: string): string {
  const scheme = /^https?:/i.exec(text);
  if (scheme) return `${text.slice(0, scheme[0].length - 1)}\\${text.slice(scheme[0].length - 1)}`;
  if (/^www\./i.test(text)) return `${text.slice(0, 3)}\\${text.slice(3)}`;
  const at = text.indexOf('@');
  return at < 0 ? text : `${text.slice(0, at)}\\${text.slice(at)}`;
}

/** Writes the address's text (escaped as any text) with the escape that keeps it unlinked. */
export const writeUnlinkedAddress: Handle = (
  node: { children: unknown[] },
  _parent: Parents | undefined,
  state: State,
  info: Info,
): string => {
  // Its text is not searched for addresses to write bare (`writeText`).
  const exit = state.enter(UNLINKED as Parameters<State['enter']>[0]);
  try {
    return unlinkedForm(state.containerPhrasing(node as Parents, info));
  } finally {
    exit();
  }
};

export const UNLINKED_ADDRESS_NODE = UNLINKED;

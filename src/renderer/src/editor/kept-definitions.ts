/**
 * Link reference definitions (`[1]: https://example.com/shot.png "Shot"`) are kept as typed.
 * Milkdown resolves the references into inline links and drops the definitions (it has no node
 * for them): the researcher's line was gone after a save, and the text after it could read
 * differently without it (`[1]: /x` then `<img src=x …>` on the next line: with the definition
 * the tag is inline HTML in a paragraph; without it, the start of an HTML block that swallows the
 * lines below). Each definition is copied, before Milkdown drops it, into a block of its own that
 * holds its Markdown source and is written back verbatim, followed by a blank line only where the
 * researcher left one.
 */
import type { Handle, Join } from 'mdast-util-to-markdown';
import { toMarkdown } from 'mdast-util-to-markdown';
import type { Definition } from 'mdast';
import { $nodeSchema, $remark } from '@milkdown/kit/utils';

/** The mdast node of a kept definition: its source, and whether the next block follows at once. */
export const KEPT_DEFINITION = 'bountyDeskDefinition';

interface Point {
  line: number;
  offset?: number;
}
interface MdNode {
  type: string;
  value?: string;
  tight?: boolean;
  children?: MdNode[];
  position?: { start: Point; end: Point };
}

/** The definition as typed when it sits on one line, else as the Markdown writer puts it. */
function sourceOf(node: MdNode, source: string): string {
  const { start, end } = node.position ?? {};
  if (start?.offset !== undefined && end?.offset !== undefined && start.line === end.line) {
    return source.slice(start.offset, end.offset);
  }
  return toMarkdown(node as unknown as Definition).trimEnd();
}

/** Adds a kept copy after every definition of the tree (in quotes and list items too). */
export function keepDefinitions(node: MdNode, source: string): void {
  if (!node.children) return;
  const children: MdNode[] = [];
  node.children.forEach((child, i) => {
    keepDefinitions(child, source);
    children.push(child);
    if (child.type !== 'definition') return;
    const next = node.children?.[i + 1];
    const endLine = child.position?.end.line;
    const startLine = next?.position?.start.line;
    children.push({
      type: KEPT_DEFINITION,
      value: sourceOf(child, source),
      // (A setext heading read from the same lines as the definition starts where it starts.)
      tight: endLine !== undefined && startLine !== undefined && startLine <= endLine + 1,
      // Where it was read (kept-blocks.ts keeps an untouched one as it was).
      ...(child.position ? { position: child.position } : {}),
    });
  });
  node.children = children;
}

/** Must be used before the CommonMark preset, whose remark step drops the definitions. */
export const remarkKeptDefinitions = $remark(
  'bountyDeskKeptDefinitions',
  () => () => (tree, file) => {
    keepDefinitions(tree as unknown as MdNode, String(file.value ?? ''));
  },
);

export const keptDefinitionSchema = $nodeSchema('link_definition', () => ({
  group: 'block',
  atom: true,
  selectable: true,
  attrs: {
    value: { default: '', validate: 'string' },
    tight: { default: false, validate: 'boolean' },
  },
  parseDOM: [
    {
      tag: 'div[data-type="link-definition"]',
      getAttrs: (dom) => ({
        value: dom instanceof HTMLElement ? (dom.dataset.value ?? '') : '',
        tight: false,
      }),
    },
  ],
  // Shown as the line it is (a reader sees nothing of it: it only gives references their target).
  toDOM: (node) => [
    'div',
    {
      'data-type': 'link-definition',
      'data-value': node.attrs.value as string,
      class: 'md-link-definition',
      contenteditable: 'false',
    },
    node.attrs.value as string,
  ],
  parseMarkdown: {
    match: (node) => node.type === KEPT_DEFINITION,
    runner: (state, node, type) => {
      state.addNode(type, { value: node.value as string, tight: node.tight === true });
    },
  },
  toMarkdown: {
    match: (node) => node.type.name === 'link_definition',
    runner: (state, node) => {
      state.addNode(KEPT_DEFINITION, undefined, node.attrs.value as string, {
        tight: node.attrs.tight as boolean,
      });
    },
  },
}));

/** The definition's source, as typed. */
export const writeKeptDefinition: Handle = (node: MdNode) => node.value ?? '';

/**
 * A first line that could be read as the definition's title (`"…"`, `'…'`, `(…)`) is kept apart
 * by a blank line; otherwise the next block follows at once where it did when typed.
 */
export const joinAfterKeptDefinition: Join = (left, right) => {
  const kept = left as unknown as MdNode;
  if (kept.type !== KEPT_DEFINITION || !kept.tight) return undefined;
  const first = (right as unknown as MdNode).children?.[0];
  if (right.type === 'paragraph' && first?.type === 'text' && /^["'(]/.test(first.value ?? '')) {
    return undefined;
  }
  return 0;
};

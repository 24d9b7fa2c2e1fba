/**
 * Emphasis inside emphasis of the same kind (`*a *b* c*`, `**a **b** c**`, `~~a ~~b~~ c~~`):
 * ProseMirror holds one mark of a kind on a text, and Milkdown's parser, closing the inner one,
 * took the mark off the rest of the outer one too (`*a *b* c*` was saved as `*a b* c`: "c" lost
 * its emphasis). Read as the reader shows it (emphasis in emphasis looks the same), the inner one
 * is unwrapped into the outer before the document is built.
 */
import { $remark } from '@milkdown/kit/utils';

interface MdNode {
  type: string;
  children?: MdNode[];
}

const MARKS = new Set(['emphasis', 'strong', 'delete']);

/** The tree with every mark node inside one of its own kind replaced by its children. */
export function flattenNestedMarks(node: MdNode, open: ReadonlySet<string> = new Set()): void {
  if (!node.children) return;
  const inside = MARKS.has(node.type) ? new Set([...open, node.type]) : open;
  const children: MdNode[] = [];
  for (const child of node.children) {
    flattenNestedMarks(child, inside);
    if (inside.has(child.type)) children.push(...(child.children ?? []));
    else children.push(child);
  }
  node.children = children;
}

export const remarkFlattenNestedMarks = $remark(
  'bountyDeskFlattenNestedMarks',
  () => () => (tree) => {
    flattenNestedMarks(tree as unknown as MdNode);
  },
);

/**
 * Milkdown's image and link schemas require a string `title`, but Markdown without a title
 * parses to `title: null`; ProseMirror then throws and the image vanishes from the draft. This
 * remark step gives such nodes an empty title (which serializes back to no title at all).
 */
import { $remark } from '@milkdown/kit/utils';

interface MdNode {
  type: string;
  title?: string | null;
  children?: MdNode[];
}

export function fillNullTitles(node: MdNode): void {
  if ((node.type === 'image' || node.type === 'link') && node.title == null) node.title = '';
  for (const child of node.children ?? []) fillNullTitles(child);
}

export const remarkNullTitles = $remark('bountyDeskNullTitles', () => () => (tree) => {
  fillNullTitles(tree as unknown as MdNode);
});

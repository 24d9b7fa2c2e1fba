/**
 * Two links to the same address side by side (`[poc.txt](/f)[poc.txt](/f)`, a file linked twice)
 * are two links: ProseMirror joins texts with equal marks, which saved them as one
 * (`[poc.txtpoc.txt](/f)`). The link mark gets a `part` (0 or 1, alternating between such
 * neighbours) that keeps them apart; it is never shown or written.
 */
import { linkSchema } from '@milkdown/kit/preset/commonmark';
import { $remark } from '@milkdown/kit/utils';

interface MdNode {
  type: string;
  url?: string;
  title?: string | null;
  data?: Record<string, unknown>;
  children?: MdNode[];
}

const PART = 'bountyDeskLinkPart';

/** Marks each link that follows a link to the same address and title with the other part. */
export function alternateAdjacentLinks(node: MdNode): void {
  const children = node.children ?? [];
  children.forEach((child, i) => {
    alternateAdjacentLinks(child);
    const previous = children[i - 1];
    if (
      child.type === 'link' &&
      previous?.type === 'link' &&
      previous.url === child.url &&
      (previous.title ?? null) === (child.title ?? null)
    ) {
      child.data = { ...child.data, [PART]: previous.data?.[PART] === 1 ? 0 : 1 };
    }
  });
}

export const remarkAdjacentLinks = $remark('bountyDeskAdjacentLinks', () => () => (tree) => {
  alternateAdjacentLinks(tree as unknown as MdNode);
});

/** Milkdown's link mark with the `part` attribute. */
export const linkWithParts = linkSchema.extendSchema((base) => (ctx) => {
  const spec = base(ctx);
  return {
    ...spec,
    attrs: { ...spec.attrs, part: { default: 0 } },
    // Text typed at a link's end (the period closing the sentence) is not part of the link: a
    // link ends where its address ends.
    inclusive: false,
    toDOM: (mark) => {
      const { part: _part, ...attrs } = mark.attrs;
      return spec.toDOM?.(mark.type.create(attrs), true) ?? ['a', attrs];
    },
    toMarkdown: {
      match: spec.toMarkdown.match,
      runner: (state, mark) => {
        // The part as the node's data, which the writer ignores: Milkdown's serializer joins
        // neighbouring links whose other fields are equal.
        state.withMark(mark, 'link', undefined, {
          title: mark.attrs.title as string | null,
          url: mark.attrs.href as string,
          data: { [PART]: mark.attrs.part as number },
        });
      },
    },
    parseMarkdown: {
      match: spec.parseMarkdown.match,
      runner: (state, node, markType) => {
        const data = (node as MdNode).data;
        state.openMark(markType, {
          href: (node as MdNode).url,
          title: (node as MdNode).title,
          part: data?.[PART] ?? 0,
        });
        state.next(node.children);
        state.closeMark(markType);
      },
    },
  };
});

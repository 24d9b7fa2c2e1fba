/**
 * Puts a new document in place of the editor's by changing only what differs, so that the caret
 * and the undo history of the rest stay where they were.
 */
import type { Node as ProseNode } from '@milkdown/kit/prose/model';
import type { Transform } from '@milkdown/kit/prose/transform';

/**
 * Adds to `tr` (a transform of `doc`) the steps that make `doc` read as `next`. Blocks that differ
 * only in their attributes keep their content (their attributes are set): a list the researcher
 * typed is not marked up as the same list parsed from Markdown (a typed item is "spread"), and
 * replacing it as a whole moved a caret inside it past the change, into the heading after it (walk
 * 17: the keys typed after a redaction landed there). Where the blocks themselves differ, the
 * range from the first difference to the last is replaced, as ProseMirror finds them.
 */
export function patchDocument(tr: Transform, doc: ProseNode, next: ProseNode): void {
  patchContent(tr, doc, next, 0);
}

/** `node`'s content made `next`'s, its content starting at `from` in `tr.doc`. */
function patchContent(tr: Transform, node: ProseNode, next: ProseNode, from: number): void {
  if (node.content.eq(next.content)) return;
  if (!node.isTextblock && node.childCount === next.childCount) {
    // From the last block to the first: a step only moves what comes after it.
    const starts: number[] = [];
    node.forEach((_child, offset) => starts.push(from + offset));
    for (let i = node.childCount - 1; i >= 0; i--) {
      const child = node.child(i);
      const other = next.child(i);
      const at = starts[i] ?? from;
      if (child.eq(other)) continue;
      if (child.type !== other.type || child.isLeaf) {
        tr.replaceWith(at, at + child.nodeSize, other);
        continue;
      }
      if (!child.sameMarkup(other)) tr.setNodeMarkup(at, undefined, other.attrs, other.marks);
      patchContent(tr, child, other, at + 1);
    }
    return;
  }
  const start = node.content.findDiffStart(next.content);
  if (start === null) return;
  const end = node.content.findDiffEnd(next.content);
  let endOld = end?.a ?? node.content.size;
  let endNew = end?.b ?? next.content.size;
  // Repeated text around the change can make the ends overlap the start: move them past it.
  const overlap = start - Math.min(endOld, endNew);
  if (overlap > 0) {
    endOld += overlap;
    endNew += overlap;
  }
  tr.replace(from + start, from + endOld, next.slice(start, endNew));
}

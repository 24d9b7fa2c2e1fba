/**
 * Puts a new document in place of the editor's by changing only what differs, so that the caret
 * and the undo history of the rest stay where they were.
 */
import { Fragment, type Node as ProseNode } from '@milkdown/kit/prose/model';
import type { Transform } from '@milkdown/kit/prose/transform';

/**
 * Adds to `tr` (a transform of `doc`) the steps that make `doc` read as `next`. Blocks typed in
 * the editor are not all marked up as the same blocks parsed from Markdown (a typed list item is
 * "spread"), and their number can differ (walk 18: a report typed by keyboard, with a request and
 * a table). Replacing every block from the first difference to the last then moved a caret inside
 * them to the end of that range, into a heading (walk 17: the keys typed after a redaction landed
 * there). So the blocks are paired first: those of the same kind and text in both (in order), then
 * the blocks between two pairs one by one where their number and kinds agree. A pair keeps its
 * node (its attributes set, its content patched the same way); only blocks left unpaired are
 * replaced.
 */
export function patchDocument(tr: Transform, doc: ProseNode, next: ProseNode): void {
  patchContent(tr, doc, next, 0);
}

/** `node`'s content made `next`'s, its content starting at `from` in `tr.doc`. */
function patchContent(tr: Transform, node: ProseNode, next: ProseNode, from: number): void {
  if (node.content.eq(next.content)) return;
  if (node.isTextblock) {
    patchText(tr, node, next, from);
    return;
  }
  const starts: number[] = [];
  node.forEach((_child, offset) => starts.push(from + offset));
  const at = (index: number): number => starts[index] ?? from + node.content.size;
  // From the last pair to the first: a step only moves what comes after it.
  const pairs = pairedBlocks(node, next);
  let oldEnd = node.childCount;
  let newEnd = next.childCount;
  for (let k = pairs.length; k >= 0; k--) {
    const [i, j] = k > 0 ? (pairs[k - 1] as [number, number]) : [-1, -1];
    const oldStart = i + 1;
    const newStart = j + 1;
    const count = oldEnd - oldStart;
    let alike = count === newEnd - newStart;
    for (let t = 0; alike && t < count; t++)
      alike = node.child(oldStart + t).type === next.child(newStart + t).type;
    if (alike) {
      for (let t = count - 1; t >= 0; t--)
        patchBlock(tr, node.child(oldStart + t), next.child(newStart + t), at(oldStart + t));
    } else {
      const blocks: ProseNode[] = [];
      for (let t = newStart; t < newEnd; t++) blocks.push(next.child(t));
      tr.replaceWith(at(oldStart), at(oldEnd), Fragment.from(blocks));
    }
    if (k > 0) patchBlock(tr, node.child(i), next.child(j), at(i));
    oldEnd = i;
    newEnd = j;
  }
}

/** `block` (at `at` in `tr.doc`) made `other`, keeping the node where both are of one kind. */
function patchBlock(tr: Transform, block: ProseNode, other: ProseNode, at: number): void {
  if (block.eq(other)) return;
  if (block.type !== other.type || block.isLeaf) {
    tr.replaceWith(at, at + block.nodeSize, other);
    return;
  }
  if (!block.sameMarkup(other)) tr.setNodeMarkup(at, undefined, other.attrs, other.marks);
  patchContent(tr, block, other, at + 1);
}

/** Inside a text block: the range from the first difference to the last, as ProseMirror finds them. */
function patchText(tr: Transform, node: ProseNode, next: ProseNode, from: number): void {
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

/** The most cells the pairing's table may have (4 MB). */
const MAX_CELLS = 1_000_000;

/** What pairs two blocks: their kind and their text. */
const keyOf = (block: ProseNode): string => `${block.type.name}\u0000${block.textContent}`;

/**
 * The children of `node` and `next` paired by kind and text, in order: the longest such run of
 * pairs (a longest common subsequence, over the children between a common start and end).
 */
export function pairedBlocks(node: ProseNode, next: ProseNode): [number, number][] {
  const a: string[] = [];
  const b: string[] = [];
  node.forEach((child) => a.push(keyOf(child)));
  next.forEach((child) => b.push(keyOf(child)));
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const pairs: [number, number][] = [];
  for (let t = 0; t < head; t++) pairs.push([t, t]);
  let n = a.length - head - tail;
  let m = b.length - head - tail;
  // Two documents that share little besides their start and end (another report loaded): the
  // middle is replaced, without a table of millions of cells.
  if (n * m > MAX_CELLS) n = m = 0;
  // lengths[x * (m + 1) + y]: the longest run of pairs of a[head + x..] and b[head + y..].
  const lengths = new Uint32Array((n + 1) * (m + 1));
  for (let x = n - 1; x >= 0; x--)
    for (let y = m - 1; y >= 0; y--)
      lengths[x * (m + 1) + y] =
        a[head + x] === b[head + y]
          ? (lengths[(x + 1) * (m + 1) + y + 1] ?? 0) + 1
          : Math.max(lengths[(x + 1) * (m + 1) + y] ?? 0, lengths[x * (m + 1) + y + 1] ?? 0);
  for (let x = 0, y = 0; x < n && y < m;) {
    if (a[head + x] === b[head + y]) {
      pairs.push([head + x, head + y]);
      x++;
      y++;
    } else if ((lengths[(x + 1) * (m + 1) + y] ?? 0) >= (lengths[x * (m + 1) + y + 1] ?? 0)) x++;
    else y++;
  }
  for (let t = tail; t > 0; t--) pairs.push([a.length - t, b.length - t]);
  return pairs;
}

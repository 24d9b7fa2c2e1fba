/**
 * Scrolling a range of the editor to the middle of the pane that holds it: the page's DOM, kept
 * apart from show-text.ts, which the unit tests read without one.
 */
import type { EditorView } from '@milkdown/kit/prose/view';

/** The nearest ancestor of `node` that scrolls its content vertically. */
function scroller(node: HTMLElement): HTMLElement | null {
  for (let el = node.parentElement; el; el = el.parentElement) {
    const { overflowY } = getComputedStyle(el);
    if ((overflowY === 'auto' || overflowY === 'scroll') && el.scrollHeight > el.clientHeight)
      return el;
  }
  return null;
}

/**
 * Scrolls the pane so the range stands in its middle (its start at the top when it is taller):
 * scrolled only "into view", a token wrapped over three lines showed its last line at the pane's
 * edge, its start and the header naming it above it (walk 19).
 */
export function centreInPane(view: EditorView, from: number, to: number): void {
  const pane = scroller(view.dom);
  if (!pane) return;
  const top = view.coordsAtPos(from).top;
  const bottom = view.coordsAtPos(to).bottom;
  const box = pane.getBoundingClientRect();
  const margin = 48;
  const shift =
    bottom - top > box.height - 2 * margin
      ? top - box.top - margin
      : (top + bottom) / 2 - (box.top + box.bottom) / 2;
  pane.scrollTop += shift;
}

import { Plugin, PluginKey, type Transaction } from '@milkdown/kit/prose/state';
import type { Node as ProseNode } from '@milkdown/kit/prose/model';
import type { NodeViewConstructor } from '@milkdown/kit/prose/view';
import { showEvidenceImage } from '../lib/evidence-images';
import { otherReportImageText } from '../lib/foreign-links';
import { classifyLink, isDangerousEditorHref } from '../lib/safe-url';

/**
 * ProseMirror plugin that keeps hostile Markdown inert inside the Milkdown editor:
 * - the researcher's own text is kept as written (a report may quote a `javascript:` payload on
 *   purpose); Milkdown already renders unsafe link targets as empty hrefs, images never load
 *   (see `imagePlaceholderView`), and allow-listing happens when Markdown is rendered;
 * - what comes from outside, pasted or dropped content, loses link marks with a dangerous scheme
 *   and images with such a source become their alt text;
 * - a click on a link never navigates; Ctrl/Cmd+click opens an allowed external link through
 *   the app (main checks it again).
 */
export function linkGuardPlugin(openExternal: (href: string) => void): Plugin {
  // Set while a paste or drop event is being handled: its transactions carry outside content.
  let untrusted = false;
  const markUntrusted = (): false => {
    untrusted = true;
    setTimeout(() => {
      untrusted = false;
    }, 0);
    return false;
  };
  return new Plugin({
    key: new PluginKey('bounty-desk-link-guard'),
    appendTransaction(transactions, _old, state) {
      if (!untrusted || !transactions.some((t) => t.docChanged)) return null;
      const ranges = changedRanges(transactions);
      const linkType = state.schema.marks.link;
      const tr = state.tr;
      const images: { pos: number; node: ProseNode }[] = [];
      for (const [from, to] of ranges) {
        state.doc.nodesBetween(from, Math.min(to, state.doc.content.size), (node, pos) => {
          if (node.type.name === 'image' && isDangerousEditorHref(node.attrs.src as string)) {
            images.push({ pos, node });
          }
          if (linkType && node.isText) {
            for (const mark of node.marks) {
              if (mark.type === linkType && isDangerousEditorHref(mark.attrs.href as string)) {
                tr.removeMark(pos, pos + node.nodeSize, mark);
              }
            }
          }
        });
      }
      // Replace from the end so earlier positions stay valid.
      const seen = new Set<number>();
      for (const { pos, node } of images.sort((a, b) => b.pos - a.pos)) {
        if (seen.has(pos)) continue;
        seen.add(pos);
        tr.replaceWith(
          pos,
          pos + node.nodeSize,
          state.schema.text(String(node.attrs.alt ?? '') || 'image'),
        );
      }
      return tr.docChanged ? tr : null;
    },
    props: {
      handleDOMEvents: {
        paste: markUntrusted,
        drop: markUntrusted,
        click(_view, event) {
          const anchor = (event.target as Element | null)?.closest?.('a');
          if (!anchor) return false;
          event.preventDefault();
          if (event.ctrlKey || event.metaKey) {
            const link = classifyLink(anchor.getAttribute('href'));
            if (link.kind === 'external') openExternal(link.href);
          }
          return false;
        },
        auxclick(_view, event) {
          if ((event.target as Element | null)?.closest?.('a')) event.preventDefault();
          return false;
        },
      },
    },
  });
}

/** The ranges of the final document that the transactions inserted or changed. */
function changedRanges(transactions: readonly Transaction[]): [number, number][] {
  let ranges: [number, number][] = [];
  for (const tr of transactions) {
    for (const map of tr.mapping.maps) {
      ranges = ranges.map(([a, b]) => [map.map(a, -1), map.map(b, 1)]);
      map.forEach((_oldStart, _oldEnd, newStart, newEnd) => {
        ranges.push([newStart, newEnd]);
      });
    }
  }
  return ranges;
}

/**
 * Images render as a placeholder: nothing is fetched, the Markdown keeps its target. A file of
 * `reportId` (the report being written) with a local raster copy shows as the image itself; a
 * file of another report (a paste from another draft) says so: the server's copy leaves it out.
 * Without a report (the editor alone, in its tests) every image is a placeholder.
 */
export function imagePlaceholderView(report: () => string | undefined): NodeViewConstructor {
  return (node) => {
    const reportId = report();
    const src = String(node.attrs.src ?? '');
    const alt = String(node.attrs.alt ?? '');
    const name = alt.trim() || 'image';
    const link = classifyLink(src);
    const foreign =
      reportId !== undefined && link.kind === 'file' && link.target.reportId !== reportId;
    const dom = document.createElement('span');
    dom.className = foreign ? 'editor-image other-report-file' : 'editor-image';
    // The same words as the Markdown view (render-markdown.ts) shows for the image.
    dom.textContent = foreign ? otherReportImageText(name) : `[image: ${name}]`;
    dom.contentEditable = 'false';
    dom.dataset.src = src;
    if (!foreign && reportId !== undefined) showEvidenceImage(dom, src, alt, reportId);
    // The placeholder is ours: ProseMirror must not re-read it as content (it would drop the image).
    return { dom, ignoreMutation: () => true, stopEvent: () => false };
  };
}

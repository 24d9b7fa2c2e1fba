/**
 * ProseMirror plugins that keep hostile Markdown inert inside the Milkdown editor:
 * - link targets with a dangerous scheme (typed, pasted or loaded) lose their link mark, and
 *   images with such a source become their alt text;
 * - a click on a link never navigates; Ctrl/Cmd+click opens an allowed external link through
 *   the app (main checks it again);
 * - images are never loaded: they show as a text placeholder.
 */
import { Plugin, PluginKey } from '@milkdown/kit/prose/state';
import type { Node as ProseNode } from '@milkdown/kit/prose/model';
import type { NodeViewConstructor } from '@milkdown/kit/prose/view';
import { classifyLink, isDangerousEditorHref } from '../../../lib/safe-url';

export function linkGuardPlugin(openExternal: (href: string) => void): Plugin {
  return new Plugin({
    key: new PluginKey('bounty-desk-link-guard'),
    appendTransaction(transactions, _old, state) {
      if (!transactions.some((t) => t.docChanged)) return null;
      const linkType = state.schema.marks.link;
      const tr = state.tr;
      let changed = false;
      const images: { pos: number; node: ProseNode }[] = [];
      state.doc.descendants((node, pos) => {
        if (node.type.name === 'image' && isDangerousEditorHref(node.attrs.src as string)) {
          images.push({ pos, node });
        }
        if (linkType && node.isText) {
          for (const mark of node.marks) {
            if (mark.type === linkType && isDangerousEditorHref(mark.attrs.href as string)) {
              tr.removeMark(pos, pos + node.nodeSize, mark);
              changed = true;
            }
          }
        }
      });
      // Replace from the end so earlier positions stay valid.
      for (const { pos, node } of images.reverse()) {
        const alt = String(node.attrs.alt ?? '') || 'image';
        tr.replaceWith(pos, pos + node.nodeSize, state.schema.text(alt));
        changed = true;
      }
      return changed ? tr : null;
    },
    props: {
      handleDOMEvents: {
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

/** Images render as a placeholder: nothing is fetched, the Markdown keeps its target. */
export const imagePlaceholderView: NodeViewConstructor = (node) => {
  const dom = document.createElement('span');
  dom.className = 'editor-image';
  dom.textContent = `[image: ${String(node.attrs.alt ?? '') || String(node.attrs.src ?? '')}]`;
  dom.contentEditable = 'false';
  return { dom };
};

/**
 * A key pressed while the editor's selection is stale. The browser moves the caret itself for
 * End, Home and the arrows, and ProseMirror learns of it from the `selectionchange` event, which
 * Chromium queues behind input: keys typed ahead while the renderer is busy (a save of a long
 * description) reach the editor before it: words selected and formatted, then End and Enter, and
 * the Enter replaced the words (ProseMirror still held them selected); Shift+Home then Ctrl+K, and
 * the link went on the caret instead of the words. Before any key is handled, the editor takes the
 * browser's selection.
 */
import { Plugin, PluginKey, TextSelection } from '@milkdown/kit/prose/state';
import type { EditorView } from '@milkdown/kit/prose/view';

/** The browser's selection in the editor as document positions, or null when it is elsewhere. */
function domSelection(view: EditorView): { anchor: number; head: number } | null {
  const root = view.root as Document | ShadowRoot;
  const selection = 'getSelection' in root ? root.getSelection() : document.getSelection();
  const { anchorNode, focusNode } = selection ?? {};
  if (!selection || !anchorNode || !focusNode) return null;
  if (!view.dom.contains(anchorNode) || !view.dom.contains(focusNode)) return null;
  try {
    return {
      anchor: view.posAtDOM(anchorNode, selection.anchorOffset),
      head: view.posAtDOM(focusNode, selection.focusOffset),
    };
  } catch {
    return null;
  }
}

/** Takes the browser's text selection into the editor where the editor has not seen it yet. */
export function syncStaleSelection(view: EditorView): void {
  const { selection, doc } = view.state;
  if (!(selection instanceof TextSelection) || view.composing || !view.hasFocus()) return;
  const dom = domSelection(view);
  if (!dom || (dom.anchor === selection.anchor && dom.head === selection.head)) return;
  const inText = (pos: number): boolean =>
    pos >= 0 && pos <= doc.content.size && doc.resolve(pos).parent.inlineContent;
  if (!inText(dom.anchor) || !inText(dom.head)) return;
  view.dispatch(view.state.tr.setSelection(TextSelection.create(doc, dom.anchor, dom.head)));
}

export function selectionSyncPlugin(): Plugin {
  return new Plugin({
    key: new PluginKey('bounty-desk-selection-sync'),
    props: {
      handleDOMEvents: {
        // Before ProseMirror's own key handling and every keymap.
        keydown(view) {
          syncStaleSelection(view);
          return false;
        },
      },
    },
  });
}

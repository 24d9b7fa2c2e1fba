/**
 * Leaving a code block without knowing Ctrl+Enter: at its end, ArrowDown moves below it (a new
 * line is made when it is the last block), and Enter on an empty last line leaves it (that line
 * is dropped), as in the platforms' editors.
 */
import type { EditorState, Transaction } from '@milkdown/kit/prose/state';
import { Plugin, PluginKey, TextSelection } from '@milkdown/kit/prose/state';
import type { EditorView } from '@milkdown/kit/prose/view';

/** The caret at the very end of a code block: its position after the block, or null. */
function endOfCodeBlock(state: EditorState): { after: number; text: string } | null {
  const { selection } = state;
  if (!selection.empty) return null;
  const { $from } = selection;
  if ($from.parent.type.name !== 'code_block') return null;
  if ($from.parentOffset !== $from.parent.content.size) return null;
  return { after: $from.after(), text: $from.parent.textContent };
}

/** A new paragraph at `pos` with the caret in it. */
function paragraphAt(state: EditorState, tr: Transaction, pos: number): Transaction | null {
  const paragraph = state.schema.nodes.paragraph;
  if (!paragraph) return null;
  tr.insert(pos, paragraph.create());
  return tr.setSelection(TextSelection.create(tr.doc, pos + 1)).scrollIntoView();
}

function arrowDown(view: EditorView): boolean {
  const end = endOfCodeBlock(view.state);
  if (!end) return false;
  // Only the last block of its container has nowhere to go; elsewhere the caret moves as usual.
  if (view.state.doc.resolve(end.after).nodeAfter) return false;
  const tr = paragraphAt(view.state, view.state.tr, end.after);
  if (!tr) return false;
  view.dispatch(tr);
  return true;
}

function enter(view: EditorView): boolean {
  const end = endOfCodeBlock(view.state);
  if (!end?.text.endsWith('\n')) return false;
  const { state } = view;
  const tr = state.tr.delete(state.selection.from - 1, state.selection.from);
  const next = paragraphAt(state, tr, tr.mapping.map(end.after));
  if (!next) return false;
  view.dispatch(next);
  return true;
}

export function codeBlockExitPlugin(): Plugin {
  return new Plugin({
    key: new PluginKey('bounty-desk-code-block-exit'),
    props: {
      handleKeyDown(view, event) {
        if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return false;
        if (event.key === 'ArrowDown') return arrowDown(view);
        if (event.key === 'Enter') return enter(view);
        return false;
      },
    },
  });
}

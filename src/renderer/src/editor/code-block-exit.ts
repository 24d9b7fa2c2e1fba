/**
 * A code block holds what is typed or pasted in it, blank lines included (an HTTP request's
 * headers, the blank line, its body), and is left by the platforms' usual gestures, never by one
 * blank line:
 * - Enter at the end after two empty lines (the third Enter) leaves it, those lines dropped;
 * - ArrowDown at its end moves below it (a new line is made when it is the last block);
 * - Escape anywhere in it moves below it, like the third Enter: to a new line, never into the
 *   next heading;
 * - Shift+Enter is a new line in it (a hard break has no place in code).
 * Ctrl+Enter (Milkdown's own exit) and the toolbar's buttons still work.
 * The block holding the caret says so below its last line (`caret-inside`, editor.css): a walk
 * pressed Enter twice, as after a paragraph, and typed its prose and a table into the request.
 */
import type { EditorState, Transaction } from '@milkdown/kit/prose/state';
import { Plugin, PluginKey, TextSelection } from '@milkdown/kit/prose/state';
import { Decoration, DecorationSet, type EditorView } from '@milkdown/kit/prose/view';

/** The code block the caret is in: its position after the block and its text, or null. */
function inCodeBlock(state: EditorState): { after: number; text: string; atEnd: boolean } | null {
  const { selection } = state;
  if (!selection.empty) return null;
  const { $from } = selection;
  if (!$from.parent.type.spec.code) return null;
  return {
    after: $from.after(),
    text: $from.parent.textContent,
    atEnd: $from.parentOffset === $from.parent.content.size,
  };
}

/**
 * The caret on the line after `pos`: the block there when it is a text block (ArrowDown), else a
 * new line. `fresh` (the third Enter, Escape) asks for an empty paragraph unless one is there: the
 * next block may be a heading, and text typed at its start would land in it.
 */
function lineAfter(
  state: EditorState,
  tr: Transaction,
  pos: number,
  fresh = false,
): Transaction | null {
  const next = tr.doc.resolve(pos).nodeAfter;
  const paragraph = state.schema.nodes.paragraph;
  const usable = fresh ? next?.type === paragraph && next?.content.size === 0 : next?.isTextblock;
  if (usable) {
    return tr.setSelection(TextSelection.create(tr.doc, pos + 1)).scrollIntoView();
  }
  if (!paragraph) return null;
  tr.insert(pos, paragraph.create());
  return tr.setSelection(TextSelection.create(tr.doc, pos + 1)).scrollIntoView();
}

function arrowDown(view: EditorView): boolean {
  const block = inCodeBlock(view.state);
  if (!block?.atEnd) return false;
  // Only the last block of its container has nowhere to go; elsewhere the caret moves as usual.
  if (view.state.doc.resolve(block.after).nodeAfter) return false;
  const tr = lineAfter(view.state, view.state.tr, block.after);
  if (!tr) return false;
  view.dispatch(tr);
  return true;
}

function escape(view: EditorView): boolean {
  const block = inCodeBlock(view.state);
  if (!block) return false;
  const tr = lineAfter(view.state, view.state.tr, block.after, true);
  if (!tr) return false;
  view.dispatch(tr);
  return true;
}

/** The two empty lines that the third Enter turns into "leave the block". */
const TWO_EMPTY_LINES = '\n\n';

function enter(view: EditorView): boolean {
  const block = inCodeBlock(view.state);
  if (!block?.atEnd || !block.text.endsWith(TWO_EMPTY_LINES)) return false;
  const { state } = view;
  const at = state.selection.from;
  const tr = state.tr.delete(at - TWO_EMPTY_LINES.length, at);
  const next = lineAfter(state, tr, tr.mapping.map(block.after), true);
  if (!next) return false;
  view.dispatch(next);
  return true;
}

function newLine(view: EditorView): boolean {
  if (!view.state.selection.$from.parent.type.spec.code) return false;
  view.dispatch(view.state.tr.insertText('\n').scrollIntoView());
  return true;
}

export function codeBlockExitPlugin(): Plugin {
  return new Plugin({
    key: new PluginKey('bounty-desk-code-block-exit'),
    props: {
      decorations(state) {
        const { $from } = state.selection;
        if (!$from.parent.type.spec.code) return null;
        const start = $from.before();
        return DecorationSet.create(state.doc, [
          Decoration.node(start, start + $from.parent.nodeSize, { class: 'caret-inside' }),
        ]);
      },
      handleKeyDown(view, event) {
        if (event.ctrlKey || event.metaKey || event.altKey) return false;
        if (event.key === 'Enter') return event.shiftKey ? newLine(view) : enter(view);
        if (event.shiftKey) return false;
        if (event.key === 'ArrowDown') return arrowDown(view);
        if (event.key === 'Escape') return escape(view);
        return false;
      },
    },
  });
}

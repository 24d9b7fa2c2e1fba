/**
 * Inline code toggled with nothing selected, as bold and italic are: Ctrl/Cmd+E (or the `</>`
 * button) switches code on at the caret, and what is typed next is code until it is switched off
 * again; with the caret inside code, it switches code off for what is typed next.
 *
 * A stored mark would not do: Milkdown's inline code mark is non-inclusive (typing at the end of
 * code is not code, so a closing backtick ends it), so only the first character typed kept it.
 * This plugin holds the choice (`code` or `plain`) for the caret and puts typed text in or out of
 * the mark itself. The choice lasts while the caret only moves with what is typed or deleted at it;
 * a click, an arrow key, a selection or Enter ends it.
 */
import type { MarkType, Mark } from '@milkdown/kit/prose/model';
import { Plugin, PluginKey, type EditorState } from '@milkdown/kit/prose/state';
import type { EditorView } from '@milkdown/kit/prose/view';

type Choice = 'code' | 'plain' | null;

const key = new PluginKey<Choice>('bounty-desk-inline-code-typing');

const INLINE_CODE = 'inlineCode';

function codeType(state: EditorState): MarkType | undefined {
  return state.schema.marks[INLINE_CODE];
}

/** The marks text typed at the caret would get without this plugin. */
function marksAtCaret(state: EditorState): readonly Mark[] {
  return state.storedMarks ?? state.selection.$from.marks();
}

/** Whether text typed at the caret now is inline code. */
export function typingCode(state: EditorState): boolean {
  const choice = key.getState(state) ?? null;
  if (choice !== null) return choice === 'code';
  const code = codeType(state);
  return !!code && marksAtCaret(state).some((m) => m.type === code);
}

/**
 * With nothing selected: switches inline code for what is typed next (on where typing would be
 * plain, off inside code). False when the selection is not empty or the schema has no inline code.
 */
export function toggleTypingCode(view: EditorView): boolean {
  const { state } = view;
  if (!state.selection.empty || !codeType(state)) return false;
  if (state.selection.$from.parent.type.spec.code) return false;
  const next: Choice = typingCode(state) ? 'plain' : 'code';
  view.dispatch(state.tr.setMeta(key, next));
  return true;
}

export function inlineCodeTypingPlugin(): Plugin<Choice> {
  return new Plugin<Choice>({
    key,
    state: {
      init: () => null,
      apply(tr, choice, oldState, newState) {
        const asked = tr.getMeta(key) as Choice | undefined;
        if (asked !== undefined) return asked;
        if (choice === null) return null;
        // Kept while the caret is where the edit put it (typing, Backspace) in the same block; a
        // move ends it, and so does Enter: a code span never runs from one paragraph into the next.
        const { selection } = newState;
        const followed =
          selection.empty &&
          selection.from === tr.mapping.map(oldState.selection.from) &&
          selection.$from.start() === tr.mapping.map(oldState.selection.$from.start());
        return followed ? choice : null;
      },
    },
    props: {
      handleTextInput(view, from, to, text) {
        const choice = key.getState(view.state) ?? null;
        const code = codeType(view.state);
        if (choice === null || !code) return false;
        if (view.state.selection.$from.parent.type.spec.code) return false;
        const atCaret = marksAtCaret(view.state);
        // Plain where typing is plain anyway: the usual path, so the input rules still run (a
        // "1. " typed on the next line makes a list, not the text "1\.").
        if (choice === 'plain' && !code.isInSet(atCaret)) return false;
        let marks = code.removeFromSet(atCaret);
        if (choice === 'code') marks = code.create().addToSet(marks);
        const tr = view.state.tr.replaceWith(from, to, view.state.schema.text(text, marks));
        view.dispatch(tr.scrollIntoView());
        return true;
      },
    },
  });
}

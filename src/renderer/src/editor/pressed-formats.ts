/**
 * Which of the toolbar's toggles are on where the selection is, read with the same rules the
 * buttons act by, so a pressed button is one whose click takes the format off again.
 */
import { Plugin, PluginKey, type EditorState } from '@milkdown/kit/prose/state';
import type { MarkType } from '@milkdown/kit/prose/model';
import { FORMAT_BUTTONS, type FormatAction } from './format-buttons';
import { inHeading, outOfQuote, TOOLBAR_HEADING_LEVEL } from './block-formats';
import { listAround } from './list-formats';
import { typingCode } from './inline-code-typing';

/**
 * Whether a mark toggle would take `type` off: where it is at the caret (or held for what is typed
 * next), or anywhere in a selection (ProseMirror's toggle removes it then).
 */
function markOn(state: EditorState, type: MarkType | undefined): boolean {
  if (!type) return false;
  const { empty, from, to, $from } = state.selection;
  if (empty) return !!type.isInSet(state.storedMarks ?? $from.marks());
  return state.doc.rangeHasMark(from, to, type);
}

function isOn(state: EditorState, action: FormatAction): boolean {
  const { marks } = state.schema;
  switch (action) {
    case 'bold':
      return markOn(state, marks['strong']);
    case 'italic':
      return markOn(state, marks['emphasis']);
    case 'code':
      if (state.selection.$from.parent.type.spec.code) return false;
      return state.selection.empty ? typingCode(state) : markOn(state, marks['inlineCode']);
    case 'heading':
      return inHeading(state, TOOLBAR_HEADING_LEVEL);
    case 'bullet-list':
      return listAround(state)?.list.type.name === 'bullet_list';
    case 'numbered-list':
      return listAround(state)?.list.type.name === 'ordered_list';
    case 'quote':
      return outOfQuote(state) !== null;
    default:
      return false;
  }
}

/** The toggles that are on for the selection of `state`, in the toolbar's order. */
export function pressedFormats(state: EditorState): FormatAction[] {
  return FORMAT_BUTTONS.filter((b) => b.toggle && isOn(state, b.action)).map((b) => b.action);
}

/** Tells `onChange` the pressed toggles as the editor opens and whenever they change. */
export function pressedFormatsPlugin(onChange: (pressed: FormatAction[]) => void): Plugin {
  let last: string | null = null;
  const report = (state: EditorState): void => {
    const pressed = pressedFormats(state);
    const key = pressed.join(' ');
    if (key === last) return;
    last = key;
    onChange(pressed);
  };
  return new Plugin({
    key: new PluginKey('bounty-desk-pressed-formats'),
    view: (view) => {
      // Made anew on each load of a spare editor, for a new screen: that screen knows nothing yet.
      last = null;
      report(view.state);
      return { update: (updated) => report(updated.state) };
    },
  });
}

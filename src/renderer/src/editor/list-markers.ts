/**
 * Typing a list marker at the start of an item that already has one ("2. " in the second item of
 * a numbered list, "- " in a bullet item) is the habit of writing lists by hand: the item keeps
 * its number and the marker is not added as text (which was sent as "2. 2\.").
 */
import { InputRule } from '@milkdown/kit/prose/inputrules';
import { $inputRule } from '@milkdown/kit/utils';

export const swallowRepeatedListMarker = $inputRule(
  () =>
    new InputRule(/^\s*(?:\d{1,9}[.)]|[-*+])\s$/, (state, _match, start, end) => {
      const $start = state.doc.resolve(start);
      if ($start.parent.type.name !== 'paragraph' || $start.parentOffset !== 0) return null;
      if ($start.depth < 2 || $start.node($start.depth - 1).type.name !== 'list_item') return null;
      // Only the first paragraph of the item: its marker is the one shown.
      if ($start.index($start.depth - 1) !== 0) return null;
      return state.tr.delete(start, end);
    }),
);

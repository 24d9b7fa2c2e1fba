/**
 * The template's sections in the editor. Each template heading carries a hint in the empty line
 * below it (a decoration, never part of the document, so never sent), and there always is such a
 * line under a heading with nothing below it yet: a click, ArrowDown, a drop or a paste then lands
 * in the section, never in the heading text ("Security impact[file.csv]").
 */
import {
  Plugin,
  PluginKey,
  TextSelection,
  type EditorState,
  type Transaction,
} from '@milkdown/kit/prose/state';
import { Decoration, DecorationSet } from '@milkdown/kit/prose/view';
import type { Node as ProseNode } from '@milkdown/kit/prose/model';
import { templateHeadingOf, type TemplateHeading } from '@shared/rules/description';

export const SECTION_HINTS: Record<TemplateHeading, string> = {
  'Steps to reproduce': 'The steps a triager can follow: URLs, requests, accounts, settings.',
  'Expected behavior': 'What should happen.',
  'Actual behavior': 'What happens instead.',
  'Security impact': 'What an attacker gains, and whom it affects.',
};

/** Positions after top-level headings that have no block of their own below them. */
function headingsWithoutSection(doc: ProseNode): number[] {
  const out: number[] = [];
  let pos = 0;
  doc.forEach((child, _offset, index) => {
    const end = pos + child.nodeSize;
    if (child.type.name === 'heading') {
      const next = index + 1 < doc.childCount ? doc.child(index + 1) : null;
      if (!next || next.type.name === 'heading') out.push(end);
    }
    pos = end;
  });
  return out;
}

function hints(state: EditorState): DecorationSet {
  const decorations: Decoration[] = [];
  let pos = 0;
  let previous: ProseNode | null = null;
  state.doc.forEach((child) => {
    if (
      previous?.type.name === 'heading' &&
      child.type.name === 'paragraph' &&
      child.content.size === 0
    ) {
      const heading = templateHeadingOf(previous.textContent);
      if (heading) {
        decorations.push(
          Decoration.node(pos, pos + child.nodeSize, {
            class: 'section-hint',
            'data-hint': SECTION_HINTS[heading],
          }),
        );
      }
    }
    previous = child;
    pos += child.nodeSize;
  });
  return DecorationSet.create(state.doc, decorations);
}

export function sectionsPlugin(): Plugin {
  return new Plugin({
    key: new PluginKey('bounty-desk-sections'),
    appendTransaction(_transactions, _old, state) {
      const missing = headingsWithoutSection(state.doc);
      const paragraph = state.schema.nodes.paragraph;
      if (missing.length === 0 || !paragraph) return null;
      const tr = state.tr;
      for (const pos of missing.reverse()) tr.insert(pos, paragraph.create());
      // Not a change of the researcher's: no undo step, no save of its own.
      return tr.setMeta('addToHistory', false).setMeta('bounty-desk-structure', true);
    },
    props: {
      decorations: hints,
    },
  });
}

/**
 * Where a file dropped at `pos` goes when `pos` is in a heading: the empty line below it, else
 * the boundary just after the heading (the link becomes a paragraph of its own there). Null when
 * `pos` is not in a heading.
 */
export function sectionPositionFor(doc: ProseNode, pos: number): number | null {
  const $pos = doc.resolve(Math.max(0, Math.min(pos, doc.content.size)));
  if ($pos.parent.type.name !== 'heading') return null;
  const after = $pos.after();
  const next = doc.resolve(after).nodeAfter;
  return next?.type.name === 'paragraph' && next.content.size === 0 ? after + 1 : after;
}

/**
 * Before a paste with the caret in a template heading: the caret moves to the section below it
 * (its empty line, or a new one right under the heading). A heading of the researcher's own
 * takes the paste where the caret is.
 */
export function caretIntoSection(state: EditorState): Transaction | null {
  const { selection } = state;
  if (!selection.empty) return null;
  const $pos = selection.$from;
  if ($pos.parent.type.name !== 'heading' || !templateHeadingOf($pos.parent.textContent)) {
    return null;
  }
  const after = $pos.after();
  const next = state.doc.resolve(after).nodeAfter;
  const tr = state.tr;
  if (!(next?.type.name === 'paragraph' && next.content.size === 0)) {
    const paragraph = state.schema.nodes.paragraph;
    if (!paragraph) return null;
    tr.insert(after, paragraph.create());
  }
  return tr.setSelection(TextSelection.create(tr.doc, after + 1));
}

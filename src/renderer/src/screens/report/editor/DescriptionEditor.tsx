import { useEffect, useRef, type DragEvent, type RefObject } from 'react';
import {
  Editor,
  defaultValueCtx,
  editorViewCtx,
  editorViewOptionsCtx,
  nodeViewCtx,
  rootCtx,
  serializerCtx,
} from '@milkdown/kit/core';
import { commonmark, remarkPreserveEmptyLinePlugin } from '@milkdown/kit/preset/commonmark';
import { gfm } from '@milkdown/kit/preset/gfm';
import { history } from '@milkdown/kit/plugin/history';
import { clipboard } from '@milkdown/kit/plugin/clipboard';
import { $prose, replaceAll } from '@milkdown/kit/utils';
import { Plugin, PluginKey, Selection } from '@milkdown/kit/prose/state';
import type { NodeViewConstructor } from '@milkdown/kit/prose/view';
import { makeMarker, offsetFromMarked, snapOutOfWord } from '../../../lib/editor-offset';
import { imagePlaceholderView, linkGuardPlugin } from './link-guard';
import { remarkNullTitles } from './remark-null-titles';

/**
 * Milkdown keeps an empty line as a literal `<br />` in the Markdown. In a report that is noise for
 * the triager and, worse, made an empty template section look written: empty lines stay empty.
 */
const emptyLineTags: readonly unknown[] = remarkPreserveEmptyLinePlugin;
const commonmarkWithoutEmptyLineTags = commonmark.filter(
  (plugin) => !emptyLineTags.includes(plugin),
);

/** What the draft editor asks of the description editor. */
export interface DescriptionHandle {
  /** The Markdown of the document now. */
  markdown(): string | null;
  /** The Markdown offset of the cursor, with the Markdown it refers to. */
  offsetAtCursor(): { offset: number; markdown: string } | null;
  /** Replaces the whole document (after the engine changed the description). */
  replace(markdown: string): void;
}

interface DescriptionEditorProps {
  initialValue: string;
  readOnly: boolean;
  handleRef: RefObject<DescriptionHandle | null>;
  /** The document changed; read it with `handleRef.current.markdown()`. */
  onDirty(): void;
  /** Files dropped at a Markdown offset (of `markdown`, the document at the drop). */
  onDropFiles(files: File[], at: { offset: number; markdown: string } | null): void;
  openExternal(href: string): void;
  describedBy?: string;
  invalid?: boolean;
}

function hasFiles(e: DragEvent): boolean {
  const types = e.dataTransfer?.types;
  return !!types && Array.from(types).includes('Files');
}

/** The Milkdown (ProseMirror) Markdown editor of a draft's description. */
export function DescriptionEditor(props: DescriptionEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Editor | null>(null);
  const propsRef = useRef(props);
  useEffect(() => {
    propsRef.current = props;
  });

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    let destroyed = false;
    const changeWatcher = new Plugin({
      key: new PluginKey('bounty-desk-dirty'),
      view: () => ({
        update(view, prev) {
          if (!view.state.doc.eq(prev.doc)) propsRef.current.onDirty();
        },
      }),
    });
    const created = Editor.make()
      .config((ctx) => {
        ctx.set(rootCtx, host);
        ctx.set(defaultValueCtx, propsRef.current.initialValue);
        ctx.update(editorViewOptionsCtx, (prev) => ({
          ...prev,
          editable: () => !propsRef.current.readOnly,
          // A function, so ProseMirror re-reads it on every update (errors come and go).
          attributes: (): Record<string, string> => ({
            'aria-label': 'Description',
            'aria-multiline': 'true',
            class: 'description-editor',
            spellcheck: 'true',
            ...(propsRef.current.describedBy
              ? { 'aria-describedby': propsRef.current.describedBy }
              : {}),
            ...(propsRef.current.invalid ? { 'aria-invalid': 'true' } : {}),
            ...(propsRef.current.readOnly ? { 'aria-readonly': 'true' } : {}),
          }),
        }));
        ctx.update(nodeViewCtx, (views) => [
          ...views,
          ['image', imagePlaceholderView] satisfies [string, NodeViewConstructor],
        ]);
      })
      .use(remarkNullTitles)
      .use(commonmarkWithoutEmptyLineTags)
      .use(gfm)
      .use(history)
      .use(clipboard)
      .use($prose(() => linkGuardPlugin((href) => propsRef.current.openExternal(href))))
      .use($prose(() => changeWatcher))
      .create();
    void created.then((editor) => {
      if (destroyed) void editor.destroy();
      else editorRef.current = editor;
    });
    return () => {
      destroyed = true;
      const editor = editorRef.current;
      editorRef.current = null;
      if (editor) void editor.destroy();
    };
  }, []);

  function offsetAt(pos: number | null, snap = false): { offset: number; markdown: string } | null {
    const editor = editorRef.current;
    if (!editor) return null;
    return editor.action((ctx) => {
      const view = ctx.get(editorViewCtx);
      const serialize = ctx.get(serializerCtx);
      const markdown = serialize(view.state.doc);
      const at = pos ?? view.state.selection.head;
      const marker = makeMarker();
      try {
        const marked = serialize(view.state.tr.insertText(marker, at).doc);
        const offset = offsetFromMarked(marked, marker, markdown);
        return { offset: snap ? snapOutOfWord(markdown, offset) : offset, markdown };
      } catch {
        return { offset: markdown.length, markdown };
      }
    });
  }

  useEffect(() => {
    props.handleRef.current = {
      markdown: () =>
        editorRef.current?.action((ctx) =>
          ctx.get(serializerCtx)(ctx.get(editorViewCtx).state.doc),
        ) ?? null,
      offsetAtCursor: () => offsetAt(null),
      replace: (markdown) => editorRef.current?.action(replaceAll(markdown)),
    };
  });

  function onDropCapture(e: DragEvent<HTMLDivElement>): void {
    if (!hasFiles(e)) return;
    // Files never reach ProseMirror (which would insert their text) or the window (navigation).
    e.preventDefault();
    e.stopPropagation();
    if (propsRef.current.readOnly) return;
    const files = Array.from(e.dataTransfer.files);
    if (files.length === 0) return;
    let pos: number | null = null;
    const editor = editorRef.current;
    if (editor) {
      pos = editor.action((ctx) => {
        const view = ctx.get(editorViewCtx);
        const end = Selection.atEnd(view.state.doc).from;
        // Below the last line means "at the end", not "on the last line".
        if (e.clientY > view.coordsAtPos(end).bottom) return end;
        // The caret the browser would place at the point is the most faithful drop point.
        const caret = document.caretRangeFromPoint?.(e.clientX, e.clientY);
        if (caret && view.dom.contains(caret.startContainer)) {
          try {
            return view.posAtDOM(caret.startContainer, caret.startOffset);
          } catch {
            // Not a position ProseMirror maps (a widget): fall back to coordinates.
          }
        }
        return view.posAtCoords({ left: e.clientX, top: e.clientY })?.pos ?? null;
      });
    }
    propsRef.current.onDropFiles(files, offsetAt(pos, true));
  }

  return (
    <div
      ref={hostRef}
      className={`description-host${props.invalid ? ' invalid' : ''}`}
      onDragOverCapture={(e) => {
        if (hasFiles(e)) {
          e.preventDefault();
          e.dataTransfer.dropEffect = props.readOnly ? 'none' : 'copy';
        }
      }}
      onDragEnterCapture={(e) => {
        if (hasFiles(e)) e.preventDefault();
      }}
      onDropCapture={onDropCapture}
    />
  );
}

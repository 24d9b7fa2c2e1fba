import { useEffect, useRef, useState, type DragEvent, type RefObject } from 'react';
import { editorViewCtx, type Editor } from '@milkdown/kit/core';
import { Selection } from '@milkdown/kit/prose/state';
import {
  caretInCodeBlock,
  createDescriptionEditor,
  markdownOf,
  markdownOffsetAt,
  replaceDescription,
  showDescriptionText,
  selectedMarkdown,
  type DescriptionBinding,
} from './milkdown-setup';
import { prepareSpareEditor, takeSpareEditor } from './spare-editor';
import { sectionPositionFor } from './sections';
import { EditorToolbar } from './EditorToolbar';
import { runFormat, selectionOf, type Range } from './formatting';
import type { FormatAction } from './format-buttons';

/** What the draft editor asks of the description editor. */
export interface DescriptionHandle {
  /** The Markdown of the document now. */
  markdown(): string | null;
  /** The Markdown offset of the cursor, with the Markdown it refers to. */
  offsetAtCursor(): { offset: number; markdown: string } | null;
  /** The Markdown of the selected part, or null when nothing is selected. */
  selection(): string | null;
  /** Whether the caret is in a code block (a paste there is kept as text, line for line). */
  caretInCode(): boolean;
  /** Replaces the whole document (after the engine changed the description). */
  replace(markdown: string): void;
  /**
   * Selects the text at a line and column of the Markdown, `length` long and of the SHA-256
   * `fingerprint`, with the focus: false when the document does not hold it there.
   */
  show(place: {
    line: number;
    column: number;
    length: number;
    fingerprint: string;
  }): Promise<boolean>;
}

interface DescriptionEditorProps {
  /** The report being written: only its own files show as pictures. */
  reportId: string;
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

/** The document position a drop at a point of the page means (never inside a heading). */
function dropPosition(editor: Editor, e: DragEvent): number | null {
  return editor.action((ctx) => {
    const view = ctx.get(editorViewCtx);
    const end = Selection.atEnd(view.state.doc).from;
    let pos: number | null = null;
    // Below the last line means "at the end", not "on the last line".
    if (e.clientY > view.coordsAtPos(end).bottom) pos = end;
    // The caret the browser would place at the point is the most faithful drop point.
    const caret = pos === null ? document.caretRangeFromPoint?.(e.clientX, e.clientY) : null;
    if (caret && view.dom.contains(caret.startContainer)) {
      try {
        pos = view.posAtDOM(caret.startContainer, caret.startOffset);
      } catch {
        // Not a position ProseMirror maps (a widget): fall back to coordinates.
      }
    }
    pos ??= view.posAtCoords({ left: e.clientX, top: e.clientY })?.pos ?? null;
    return pos === null ? null : (sectionPositionFor(view.state.doc, pos) ?? pos);
  });
}

/** The Milkdown (ProseMirror) Markdown editor of a draft's description. */
export function DescriptionEditor(props: DescriptionEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Editor | null>(null);
  const propsRef = useRef(props);
  useEffect(() => {
    propsRef.current = props;
  });
  const [linkOpen, setLinkOpenState] = useState(false);
  const [pressed, setPressed] = useState<readonly FormatAction[]>([]);
  // The selection the link goes on: the address field takes the focus from the editor.
  const linkRange = useRef<Range | null>(null);
  const setLinkOpen = (open: boolean): void => {
    if (open && editorRef.current) linkRange.current = selectionOf(editorRef.current);
    setLinkOpenState(open);
  };
  const setLinkOpenRef = useRef(setLinkOpen);
  useEffect(() => {
    setLinkOpenRef.current = setLinkOpen;
  });
  const focusEditor = (): void => {
    editorRef.current?.action((ctx) => ctx.get(editorViewCtx).focus());
  };

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    let destroyed = false;
    const binding: DescriptionBinding = {
      get reportId() {
        return propsRef.current.reportId;
      },
      editable: () => !propsRef.current.readOnly,
      attributes: () => {
        const p = propsRef.current;
        return {
          'aria-label': 'Description',
          'aria-multiline': 'true',
          class: 'description-editor',
          id: 'description-editor',
          spellcheck: 'true',
          ...(p.describedBy ? { 'aria-describedby': p.describedBy } : {}),
          ...(p.invalid ? { 'aria-invalid': 'true' } : {}),
          ...(p.readOnly ? { 'aria-readonly': 'true' } : {}),
        };
      },
      openExternal: (href) => propsRef.current.openExternal(href),
      onChange: () => propsRef.current.onDirty(),
      askForLink: () => {
        if (!propsRef.current.readOnly) setLinkOpenRef.current(true);
      },
      onPressedFormats: setPressed,
    };
    const initialValue = propsRef.current.initialValue;
    // The editor made ahead (the list's idle time, or while the last draft was written) only
    // loads the text; else one is built now.
    const spare = takeSpareEditor();
    if (spare) {
      // Loaded outside the page: the load resets the view's scroll, which in the page would
      // lay out the whole screen in the middle of the open.
      spare.open(initialValue, binding);
      host.append(spare.root);
      editorRef.current = spare.editor;
    } else {
      const root = document.createElement('div');
      root.className = 'description-root';
      host.append(root);
      void createDescriptionEditor({ ...binding, root, initialValue }).then((editor) => {
        if (destroyed) void editor.destroy();
        else editorRef.current = editor;
      });
    }
    // The next draft opened takes the one made now.
    void prepareSpareEditor();
    return () => {
      destroyed = true;
      const editor = editorRef.current;
      editorRef.current = null;
      if (editor) void editor.destroy();
    };
  }, []);

  // ProseMirror reads the lock and the attributes (aria-invalid, the described-by) on its next
  // update only: without one, a draft locked by its submit took the next keystroke before the
  // lock, and an error shown stayed unsaid to a screen reader until the next edit.
  const { readOnly, invalid, describedBy } = props;
  const mounted = useRef(false);
  useEffect(() => {
    // Not on the open: the editor was made (or loaded) with them a moment ago.
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    editorRef.current?.action((ctx) => ctx.get(editorViewCtx).setProps({}));
  }, [readOnly, invalid, describedBy]);

  const { handleRef } = props;
  useEffect(() => {
    handleRef.current = {
      markdown: () => (editorRef.current ? markdownOf(editorRef.current) : null),
      offsetAtCursor: () => (editorRef.current ? markdownOffsetAt(editorRef.current, null) : null),
      selection: () => (editorRef.current ? selectedMarkdown(editorRef.current) : null),
      caretInCode: () => (editorRef.current ? caretInCodeBlock(editorRef.current) : false),
      replace: (markdown) => {
        if (editorRef.current) replaceDescription(editorRef.current, markdown);
      },
      show: (place) =>
        editorRef.current ? showDescriptionText(editorRef.current, place) : Promise.resolve(false),
    };
  }, [handleRef]);

  function onDropCapture(e: DragEvent<HTMLDivElement>): void {
    if (!hasFiles(e)) return;
    // Files never reach ProseMirror (which would insert their text) or the window (navigation).
    e.preventDefault();
    e.stopPropagation();
    if (propsRef.current.readOnly) return;
    const files = Array.from(e.dataTransfer.files);
    if (files.length === 0) return;
    const editor = editorRef.current;
    const at = editor ? markdownOffsetAt(editor, dropPosition(editor, e), true) : null;
    propsRef.current.onDropFiles(files, at);
  }

  return (
    <>
      <EditorToolbar
        disabled={props.readOnly}
        pressed={pressed}
        linkOpen={linkOpen}
        setLinkOpen={setLinkOpen}
        onReturn={focusEditor}
        onFormat={(action, href) => {
          if (!editorRef.current) return;
          const range = action === 'link' ? (linkRange.current ?? undefined) : undefined;
          runFormat(editorRef.current, action, href, range);
        }}
      />
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
    </>
  );
}

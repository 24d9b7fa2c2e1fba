/**
 * The description editor, exactly as the app sets it up (`milkdown-setup.ts`), in a bare page,
 * with the app's Markdown renderer beside it: the round-trip property tests drive it in Chromium.
 * Built by `build.ts` with Vite for the browser, as the renderer is.
 */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { editorViewCtx, type Editor } from '@milkdown/kit/core';
import { replaceAll } from '@milkdown/kit/utils';
import { EditorState, Selection, TextSelection } from '@milkdown/kit/prose/state';
import type { EditorView } from '@milkdown/kit/prose/view';
import { Fragment, type Node as ProseNode } from '@milkdown/kit/prose/model';
import { sourceSpanOf } from '../../../src/renderer/src/editor/kept-blocks';
import {
  createDescriptionEditor,
  markdownOf,
} from '../../../src/renderer/src/editor/milkdown-setup';
import { markdownBeforeEscapePass } from '../../../src/renderer/src/editor/markdown-io';
import { withoutNeedlessEscapes } from '../../../src/renderer/src/editor/needless-escapes';
import type { FirstSave } from './first-save';
import type { KeptRoundTrip } from '../support/kept-outside';
import { renderMarkdown } from '../../../src/renderer/src/components/markdown/render-markdown';

export interface RoundTrip {
  /** The Markdown the editor writes after loading `markdown`. */
  first: string;
  /** ... and after loading `first`. */
  second: string;
  /** The text the editor shows for `first`. */
  shown: string;
  /** The text the app's Markdown renderer shows for `first` (what the program's reader sees). */
  rendered: string;
  error?: string;
}

let editor: Editor | null = null;
const editorHost = document.createElement('div');
const renderHost = document.createElement('div');
document.body.append(editorHost, renderHost);
const renderRoot = createRoot(renderHost);

async function ready(): Promise<Editor> {
  editor ??= await createDescriptionEditor({
    root: editorHost,
    initialValue: '',
    editable: () => true,
    attributes: () => ({ 'aria-label': 'Description' }),
    openExternal: () => undefined,
    onChange: () => undefined,
  });
  return editor;
}

/**
 * Opens `markdown` and writes every block anew (each a new node, as if edited): the writer's own
 * output, which is what any typed or changed block is saved as. `keptRoundTrip` tests the save
 * of an opened text whose blocks stay as read.
 */
function load(e: Editor, markdown: string): string {
  e.action(replaceAll(markdown, true));
  e.action((ctx) => {
    const view = ctx.get(editorViewCtx);
    const { doc } = view.state;
    const fresh: ProseNode[] = [];
    // (`copy` with the same content is the same node.)
    doc.forEach((block) => fresh.push(block.type.create(block.attrs, block.content, block.marks)));
    // A new state, as the load itself makes: no transaction (the table plugin would reshape
    // tables whose rows differ in length, as it does on an edit).
    view.updateState(
      EditorState.create({ doc: doc.copy(Fragment.from(fresh)), plugins: view.state.plugins }),
    );
  });
  return markdownOf(e);
}

/**
 * Opens `markdown` as the app opens a draft, saves it, then changes one word (the `pick`-th
 * word of three letters or more, outside code, counted over the document) and saves again.
 */
async function keptRoundTrip(markdown: string, pick: number): Promise<KeptRoundTrip> {
  const e = await ready();
  try {
    e.action(replaceAll(markdown, true));
    const saved = markdownOf(e);
    const words: { pos: number; word: string; block: number }[] = [];
    e.action((ctx) => {
      const { doc } = ctx.get(editorViewCtx).state;
      doc.forEach((block, offset, index) => {
        block.descendants((node, pos) => {
          if (!node.isText || node.marks.some((m) => m.type.spec.code)) return;
          for (const m of (node.text ?? '').matchAll(/\b[A-Za-z]{3,}\b/g)) {
            words.push({
              pos: offset + 1 + pos + (m.index ?? 0) + m[0].length,
              word: m[0],
              block: index,
            });
          }
        });
      });
    });
    const target = words.length === 0 ? null : words[pick % words.length];
    if (!target) return { saved, edited: null, span: null, word: '' };
    const span = e.action((ctx) =>
      sourceSpanOf(ctx.get(editorViewCtx).state.doc.child(target.block)),
    );
    e.action((ctx) => {
      const view = ctx.get(editorViewCtx);
      view.dispatch(view.state.tr.insertText('s', target.pos));
    });
    return { saved, edited: markdownOf(e), span, word: target.word };
  } catch (error) {
    return { saved: '', edited: null, span: null, word: '', error: String(error) };
  }
}

async function keptRoundTrips(list: string[], seed: number): Promise<KeptRoundTrip[]> {
  const out: KeptRoundTrip[] = [];
  for (const [i, md] of list.entries()) out.push(await keptRoundTrip(md, seed + i * 7919));
  return out;
}

/**
 * Visible text: each block on its own line, runs of whitespace as one space. Link reference
 * definitions, which the editor keeps as the lines they are (a reader sees nothing of them, only
 * the links they resolve), are left out.
 */
function visibleText(root: HTMLElement): string {
  const definitions = [...root.querySelectorAll<HTMLElement>('[data-type="link-definition"]')];
  for (const d of definitions) d.style.display = 'none';
  try {
    return root.innerText.replace(/\s+/g, ' ').trim();
  } finally {
    for (const d of definitions) d.style.display = '';
  }
}

async function roundTrip(markdown: string): Promise<RoundTrip> {
  const e = await ready();
  try {
    const first = load(e, markdown);
    const shown = visibleText(e.action((ctx) => ctx.get(editorViewCtx)).dom);
    flushSync(() => renderRoot.render(createElement('div', null, renderMarkdown(first))));
    const rendered = visibleText(renderHost);
    const second = load(e, first);
    return { first, second, shown, rendered };
  } catch (error) {
    return { first: '', second: '', shown: '', rendered: '', error: String(error) };
  }
}

/** Presses a key in the editor as the keyboard delivers it (keymaps first). */
function press(view: EditorView, key: string, init: KeyboardEventInit = {}): void {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
  view.dom.dispatchEvent(event);
}

/**
 * Types `text` into an empty document as the researcher would (text input, not a paste); a
 * newline is the Enter key, a tab the Tab key.
 */
async function typed(text: string): Promise<string> {
  const e = await ready();
  load(e, '');
  e.action((ctx) => {
    const view = ctx.get(editorViewCtx);
    const start = TextSelection.atStart(view.state.doc);
    view.dispatch(view.state.tr.setSelection(start));
    for (const ch of text) {
      if (ch === '\n' || ch === '\t') {
        press(view, ch === '\n' ? 'Enter' : 'Tab');
        continue;
      }
      const { from, to } = view.state.selection;
      // Input rules see typed characters the way the keyboard delivers them.
      const handled = view.someProp('handleTextInput', (f) =>
        f(view, from, to, ch, () => view.state.tr.insertText(ch, from, to)),
      );
      if (!handled) view.dispatch(view.state.tr.insertText(ch, from, to));
    }
  });
  return markdownOf(e);
}

async function roundTrips(list: string[]): Promise<RoundTrip[]> {
  const out: RoundTrip[] = [];
  for (const md of list) out.push(await roundTrip(md));
  return out;
}

async function typedAll(list: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const text of list) out.push(await typed(text));
  return out;
}

/** Pastes each clipboard content into an empty document, as the browser delivers a paste. */
async function pastedAll(list: { html?: string; text?: string }[]): Promise<string[]> {
  const e = await ready();
  const out: string[] = [];
  for (const item of list) {
    load(e, '');
    const view = e.action((ctx) => ctx.get(editorViewCtx));
    view.focus();
    const transfer = new DataTransfer();
    if (item.html !== undefined) transfer.setData('text/html', item.html);
    if (item.text !== undefined) transfer.setData('text/plain', item.text);
    view.dom.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
    out.push(markdownOf(e));
  }
  return out;
}

/**
 * Keys typed ahead of the `selectionchange` event: the editor's selection is set to `from`..`to`
 * of the first paragraph's text (as after Shift+Home), then the browser's selection is moved
 * (`collapse`: to that text's end, as End does; `select`: over it, as Shift+Home does) and `key`
 * is pressed in the same task, before the editor hears of the move.
 */
async function keyAfterBrowserSelection(
  markdown: string,
  state: 'range' | 'caret',
  browser: 'collapse' | 'select',
  key: string,
  init: KeyboardEventInit = {},
): Promise<string> {
  const e = await ready();
  load(e, markdown);
  e.action((ctx) => {
    const view = ctx.get(editorViewCtx);
    view.focus();
    const { from } = TextSelection.atStart(view.state.doc);
    const to = view.state.doc.resolve(from).end();
    const { doc } = view.state;
    view.dispatch(
      view.state.tr.setSelection(
        state === 'range' ? TextSelection.create(doc, to, from) : TextSelection.create(doc, to),
      ),
    );
    const start = view.domAtPos(from);
    const end = view.domAtPos(to);
    const selection = document.getSelection();
    if (browser === 'collapse') selection?.collapse(end.node, end.offset);
    else selection?.setBaseAndExtent(end.node, end.offset, start.node, start.offset);
    press(view, key, init);
  });
  return markdownOf(e);
}

/**
 * Opens `markdown` in a new editor as the app does, waits `idleMs` (the editor's idle work runs
 * then), types one character at the end and times the save the app's autosave makes
 * (`markdownOf`): the serializer, then the escape pass on what it wrote.
 */
async function firstSave(markdown: string, idleMs: number): Promise<FirstSave> {
  const host = document.createElement('div');
  document.body.append(host);
  // Each idle callback timed (the warm-up's slices): the browser's own, measured around.
  const slices: { start: number; end: number }[] = [];
  const idle = globalThis.requestIdleCallback.bind(globalThis);
  globalThis.requestIdleCallback = (run, options) =>
    idle((deadline) => {
      const start = performance.now();
      try {
        run(deadline);
      } finally {
        slices.push({ start, end: performance.now() });
      }
    }, options);
  const e = await createDescriptionEditor({
    root: host,
    initialValue: markdown,
    editable: () => true,
    attributes: () => ({ 'aria-label': 'Description' }),
    openExternal: () => undefined,
    onChange: () => undefined,
  });
  let longestFrameMs = 0;
  // Each frame as [the one before's time, its own]: the first one lays out and paints the new
  // editor (the open's work); the idle periods' frames are those an idle callback ran in.
  const frames: { from: number; to: number }[] = [];
  if (idleMs > 0) {
    let last = performance.now();
    let watching = true;
    // Timed when each callback runs: a frame's own timestamp is when it began, which a long task
    // before it can put before the watch started.
    const frame = (): void => {
      const now = performance.now();
      frames.push({ from: last, to: now });
      longestFrameMs = Math.max(longestFrameMs, now - last);
      last = now;
      if (watching) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    watching = false;
  }
  const inPeriod = slices.map((slice) =>
    Math.max(
      0,
      ...frames.filter((f) => f.from < slice.end && f.to > slice.start).map((f) => f.to - f.from),
    ),
  );
  return e.action((ctx) => {
    const view = ctx.get(editorViewCtx);
    // One character typed at the end: the block the autosave finds changed.
    view.dispatch(view.state.tr.insertText('.', Selection.atEnd(view.state.doc).from));
    const start = performance.now();
    const written = markdownBeforeEscapePass(ctx, view.state.doc);
    const serialized = performance.now();
    const saved = withoutNeedlessEscapes(written);
    const passed = performance.now();
    withoutNeedlessEscapes(written);
    const againMs = performance.now() - passed;
    return {
      serializerMs: serialized - start,
      passMs: passed - serialized,
      againMs,
      longestFrameMs,
      firstFrameMs: frames[0] ? frames[0].to - frames[0].from : 0,
      longestIdleFrameMs: Math.max(0, ...inPeriod),
      idleFramesOver50: inPeriod.filter((ms) => ms > 50).length,
      longestSliceMs: Math.max(0, ...slices.map((slice) => slice.end - slice.start)),
      slices: slices.length,
      escapes: written.match(/\\[!-/:-@[-`{-~]/g)?.length ?? 0,
      chars: saved.length,
    };
  });
}

Object.assign(globalThis, {
  editorHarness: {
    roundTrips,
    keptRoundTrips,
    typedAll,
    pastedAll,
    firstSave,
    keyAfterBrowserSelection,
  },
});

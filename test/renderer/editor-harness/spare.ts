/**
 * The spare description editor (`spare-editor.ts`) beside a newly built one, in a bare page:
 * `spare-editor.test.ts` checks that a draft opened in a spare is the draft a new editor opens,
 * and that a paced build waits for its pace between Milkdown's phases; and the list's idle
 * prefetch (`idle-prefetch.ts`), which waits as the spare does for a quiet researcher.
 * Built by `build.ts` with Vite for the browser, as the renderer is.
 */
import { editorViewCtx, type Editor } from '@milkdown/kit/core';
import { undoDepth } from '@milkdown/kit/prose/history';
import {
  createDescriptionEditor,
  markdownOf,
  type DescriptionBinding,
} from '../../../src/renderer/src/editor/milkdown-setup';
import { prepareSpareEditor, takeSpareEditor } from '../../../src/renderer/src/editor/spare-editor';
import { prefetchWhenIdle } from '../../../src/renderer/src/lib/idle-prefetch';
import type { OpenCase, Opened } from './spare-opens';

function bindingFor(c: OpenCase, counter: { changes: number }): DescriptionBinding {
  return {
    reportId: c.reportId,
    editable: () => c.editable,
    attributes: () => ({ 'aria-label': `Description of ${c.reportId}` }),
    openExternal: () => undefined,
    onChange: () => {
      counter.changes++;
    },
  };
}

function read(e: Editor, counter: { changes: number }): Opened {
  const view = e.action((ctx) => ctx.get(editorViewCtx));
  return {
    markdown: markdownOf(e),
    shown: view.dom.innerText,
    undoDepth: undoDepth(view.state),
    changes: counter.changes,
    label: view.dom.getAttribute('aria-label'),
    editable: view.dom.getAttribute('contenteditable'),
  };
}

const failed = (error: unknown): Opened => ({
  markdown: '',
  shown: '',
  undoDepth: -1,
  changes: -1,
  label: null,
  editable: null,
  error: String(error),
});

async function inNewEditor(c: OpenCase): Promise<Opened> {
  const root = document.createElement('div');
  document.body.append(root);
  const counter = { changes: 0 };
  try {
    const e = await createDescriptionEditor({
      ...bindingFor(c, counter),
      root,
      initialValue: c.markdown,
    });
    const opened = read(e, counter);
    await e.destroy();
    return opened;
  } catch (error) {
    return failed(error);
  } finally {
    root.remove();
  }
}

/** As the draft's screen does: the spare made ahead, taken, opened, then put in the page. */
async function inSpare(c: OpenCase): Promise<Opened> {
  const counter = { changes: 0 };
  try {
    if (!(await prepareSpareEditor())) throw new Error('the spare editor could not be made');
    const spare = takeSpareEditor();
    if (!spare) throw new Error('no spare editor to take once it was made');
    spare.open(c.markdown, bindingFor(c, counter));
    document.body.append(spare.root);
    const opened = read(spare.editor, counter);
    await spare.editor.destroy();
    spare.root.remove();
    return opened;
  } catch (error) {
    return failed(error);
  }
}

async function opens(cases: OpenCase[]): Promise<{ fresh: Opened; spare: Opened }[]> {
  const out: { fresh: Opened; spare: Opened }[] = [];
  for (const c of cases) out.push({ fresh: await inNewEditor(c), spare: await inSpare(c) });
  return out;
}

/**
 * Builds an editor whose pace is held by hand: how many steps it waited for, and whether it was
 * ready before the last one ran (everything that can run without the pace runs between steps).
 */
async function pacedBuild(): Promise<{
  steps: number;
  readyBeforeLastStep: boolean;
  ready: boolean;
}> {
  const root = document.createElement('div');
  document.body.append(root);
  const queue: (() => void)[] = [];
  let ready = false;
  const making = createDescriptionEditor(
    {
      root,
      initialValue: '## Steps to reproduce\n\n1. `curl -H "Authorization: Bearer x"`',
      editable: () => true,
      attributes: () => ({}),
      openExternal: () => undefined,
      onChange: () => undefined,
    },
    (next) => queue.push(next),
  ).then((e) => {
    ready = true;
    return e;
  });
  let steps = 0;
  let readyBeforeLastStep = false;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    const next = queue.shift();
    if (!next) break;
    if (ready) readyBeforeLastStep = true;
    steps++;
    next();
  }
  if (ready) await (await making).destroy();
  root.remove();
  return { steps, readyBeforeLastStep, ready };
}

/**
 * Asks for a spare with keys being pressed, one every 100 ms for 2 s: when it was ready, after
 * the last key (a spare is begun only once the researcher is quiet).
 */
async function preparedWhileTyping(): Promise<{ made: boolean; readyAfterLastKeyMs: number }> {
  let lastKey = 0;
  const press = (): void => {
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    lastKey = performance.now();
  };
  press();
  const typing = setInterval(press, 100);
  const making = prepareSpareEditor();
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  clearInterval(typing);
  const made = await making;
  const readyAfterLastKeyMs = performance.now() - lastKey;
  await takeSpareEditor()?.editor.destroy();
  return { made, readyAfterLastKeyMs };
}

/**
 * Three loaders given to the idle prefetch while the page scrolls, a scroll event every 100 ms for
 * 2 s: when each began, after the last scroll (negative: during the scroll).
 */
async function prefetchedWhileScrolling(): Promise<{ startedAfterLastScrollMs: number[] }> {
  let lastScroll = 0;
  const scroll = (): void => {
    // A scroll does not bubble: the page's watch listens at the window, capturing.
    document.body.dispatchEvent(new Event('scroll'));
    lastScroll = performance.now();
  };
  scroll();
  const scrolling = setInterval(scroll, 100);
  const started: number[] = [];
  const loaded = new Promise<void>((resolve) => {
    const loader = (i: number) => async (): Promise<void> => {
      started.push(performance.now());
      if (i === 2) resolve();
    };
    prefetchWhenIdle([loader(0), loader(1), loader(2)]);
  });
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  clearInterval(scrolling);
  await loaded;
  return { startedAfterLastScrollMs: started.map((at) => at - lastScroll) };
}

Object.assign(globalThis, {
  spareHarness: { opens, pacedBuild, preparedWhileTyping, prefetchedWhileScrolling },
});

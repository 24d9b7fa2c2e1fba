/**
 * One description editor made ahead, while the page is idle, for the next draft opened: the open
 * then loads its text into it instead of building Milkdown's set-up, schema, parser, plugins and
 * view on the click (half of an open's time). It is made a phase per idle period (a whole one is
 * a task of 30 to 100 ms), in a root of its own that the draft's screen then takes in.
 */
import type { Editor } from '@milkdown/kit/core';
import { replaceAll } from '@milkdown/kit/utils';
import {
  createDescriptionEditor,
  loadDescription,
  type DescriptionBinding,
  type DescriptionEditorOptions,
} from './milkdown-setup';
import { SPARE_EDITOR_READY } from './spare-ready-mark';
import { whenIdle, whenQuiet } from '../lib/quiet';

export interface SpareEditor {
  editor: Editor;
  /** The element the editor is in, not yet in the page. */
  root: HTMLElement;
  /** Loads `markdown` and answers to `binding` from now on (its document changes, its links). */
  open(markdown: string, binding: DescriptionBinding): void;
}

/**
 * What the spare reads while it waits: a line of each kind of block a report holds, so the
 * parser's and the view's code for them has run (and compiled) in the idle periods, not on the
 * first open.
 */
const FIRST_BLOCKS = [
  '## Steps to reproduce',
  '1. Send *this* and **that** with `curl` to [the API](https://api.example.com/v1) on *.example.com',
  '```http\nGET /api/users/1 HTTP/1.1\nAuthorization: Bearer x\n```',
  '> quoted',
  '| Field | Value |\n| --- | --- |\n| id | 1 |',
  '- [ ] C:\\Users\\me\\poc.txt',
];
const FIRST_TEXT = FIRST_BLOCKS.join('\n\n');

/**
 * The page's first spare loads its text again this many times, one load per idle period, while
 * it waits: the load's code (the parser, the new state, the view's drawing) then runs compiled
 * and optimized on the first open, not interpreted. Measured on the bench's drafts (1.5 KB): the
 * open's load took 23 ms (median) with none, 13 ms with 8, 9 ms with 16 (each load 4 to 23 ms).
 */
const WARM_UP_LOADS = 16;
/**
 * The loads, in order: each kind of block alone first, then the whole text. The spare is made
 * empty: its state and view phases, and then each first load of a kind, each run that kind's
 * code for the first time (its compile included) in an idle period of its own. Made with the
 * whole text at once, one phase parsed and drew every kind cold, a task of 40-70 ms (a trace of
 * the list's first idle seconds).
 */
const LOADS = [...FIRST_BLOCKS, ...Array.from({ length: WARM_UP_LOADS }, () => FIRST_TEXT)];

let ready: SpareEditor | null = null;
let making = false;
let warmedUp = false;

/** Milkdown's phases follow one per idle period (its own timers give up after 3 s). */
const IDLE_TIMEOUT_MS = 1_000;
const idle = (run: () => void): void => whenIdle(run, IDLE_TIMEOUT_MS);
/** Begun, and the first one warmed up, only once the researcher is quiet (lib/quiet.ts). */
const quiet = (): Promise<void> =>
  new Promise((resolve) => {
    whenQuiet(resolve);
  });

/**
 * Starts making the spare, once the page is idle and the researcher quiet, unless there is one (or one under way).
 * Resolves true once it is ready, or false when it could not be made: the next open then builds
 * its editor as before.
 */
export async function prepareSpareEditor(): Promise<boolean> {
  if (ready || making) return ready !== null;
  making = true;
  await quiet();
  const root = document.createElement('div');
  root.className = 'description-root';
  let bound: DescriptionBinding | null = null;
  // Until a screen takes it, the spare is locked and tells nobody of anything.
  const options: DescriptionEditorOptions = {
    root,
    initialValue: '',
    get reportId() {
      return bound?.reportId;
    },
    editable: () => bound?.editable() ?? false,
    attributes: () => bound?.attributes() ?? {},
    openExternal: (href) => bound?.openExternal(href),
    onChange: () => bound?.onChange(),
    askForLink: () => bound?.askForLink?.(),
    onPressedFormats: (pressed) => bound?.onPressedFormats?.(pressed),
  };
  try {
    const editor = await createDescriptionEditor(options, idle);
    const spare: SpareEditor = {
      editor,
      root,
      open(markdown, screen) {
        // Bound first, as a new editor is: the load's new state reads the screen's attributes
        // and lock, and the transaction that settles the document tells the screen as it would.
        // (The load itself is no change: it makes the plugins' views anew, with no update.)
        bound = screen;
        loadDescription(editor, markdown);
      },
    };
    ready = spare;
    performance.mark(SPARE_EDITOR_READY);
    if (!warmedUp) {
      warmedUp = true;
      void warmUp(spare);
    }
    return true;
  } catch {
    // Milkdown gave up on a phase (a page too busy to be idle for seconds): left to the open.
    return false;
  } finally {
    making = false;
  }
}

async function warmUp(spare: SpareEditor): Promise<void> {
  for (const text of LOADS) {
    await quiet();
    // Taken in the meantime: the draft in it is the researcher's now.
    if (ready !== spare) return;
    spare.editor.action(replaceAll(text, true));
  }
}

/** The spare, taken: the next one is made only when asked for (`prepareSpareEditor`). */
export function takeSpareEditor(): SpareEditor | null {
  const spare = ready;
  ready = null;
  return spare;
}

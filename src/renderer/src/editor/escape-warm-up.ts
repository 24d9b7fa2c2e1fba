/**
 * The escape pass warmed up while the renderer is idle, so the first save of a long description
 * does not parse every block at once on the keystroke's thread.
 */
import type { Ctx } from '@milkdown/kit/ctx';
import { Fragment, type Node as ProseNode } from '@milkdown/kit/prose/model';
import { markdownBeforeEscapePass } from './markdown-io';
import { escapeWarmUp, warmUpReader } from './needless-escapes';

/**
 * How much text the warm-up writes at once: a run of 1,000 characters written, with the idle
 * period's budget spent before it, made periods of 18 ms; of 300, 12.5 (the longest, median of 5
 * fresh pages), while the warm-up still ends within 3 s of idle time for a 25 KB description.
 */
const WARM_UP_PIECE_CHARS = 300;

/**
 * The document's top-level blocks in runs of about `WARM_UP_PIECE_CHARS` of text (the first
 * `singles` blocks each alone): the warm-up
 * writes one run at a time (the whole document at once was one long frame; one block at a time,
 * hundreds of idle callbacks for the empty lines and short paragraphs of a long report).
 */
export function warmUpPieces(doc: ProseNode, singles = 0): ProseNode[][] {
  const pieces: ProseNode[][] = [];
  let run: ProseNode[] = [];
  let size = 0;
  doc.forEach((block) => {
    if (
      run.length > 0 &&
      (pieces.length < singles || size + block.nodeSize > WARM_UP_PIECE_CHARS)
    ) {
      pieces.push(run);
      run = [];
      size = 0;
    }
    run.push(block);
    size += block.nodeSize;
  });
  if (run.length > 0) pieces.push(run);
  return pieces;
}

/** The warm-up's first idle periods that do one unit each, on a block of its own. */
const COLD_UNITS = 12;

/** What the warm-up first writes and reads: a line with what a report's text holds. */
const WARM_UP_LINE =
  'See *this* and **that** [link](https://x.com) <b> a_b \\ `code` https://x.com a@b.co.';

/** Leaves this much of an idle period to the browser: the parse under way may run a little over. */
const IDLE_MARGIN_MS = 4;
/**
 * At most this long per idle period, however long the browser offers (up to 50 ms): with the unit
 * under way, a slice stays within one frame (16 ms) on a loaded machine too.
 */
const SLICE_TIME_MS = 8;

/**
 * Weighs the escapes of `doc` (the document the editor opened with) while the renderer is idle,
 * a few parses per idle period (within its deadline and `WARM_UP_SLICE_CHARS` of needless-escapes.ts; a block's weighing
 * resumes in the next period), so the first save of a long description does not parse every
 * block at once on the keystroke's thread. Stops once `stopped` says so (the editor destroyed, or
 * another document loaded).
 */
export function warmUpEscapePass(ctx: Ctx, doc: ProseNode, stopped: () => boolean): void {
  const whenIdle = (run: (hasTime: () => boolean) => void): void => {
    if (typeof requestIdleCallback === 'function') {
      requestIdleCallback(
        (deadline) => {
          const started = performance.now();
          run(
            () =>
              deadline.timeRemaining() > IDLE_MARGIN_MS &&
              performance.now() - started < SLICE_TIME_MS,
          );
        },
        { timeout: 2_000 },
      );
    } else {
      setTimeout(() => run(() => false), 50);
    }
  };
  const written = (blocks: ProseNode[]): string =>
    blocks.length === 0 ? '' : markdownBeforeEscapePass(ctx, doc.copy(Fragment.from(blocks)));
  // Footnotes and link definitions (kept in quotes and list items too): the labels a block may use.
  const definitions: ProseNode[] = [];
  doc.descendants((node) => {
    const name = node.type.name;
    if (name === 'footnote_definition' || name === 'link_definition') definitions.push(node);
    return name !== 'footnote_definition' && node.isBlock && !node.isTextblock;
  });
  const step = escapeWarmUp(
    warmUpPieces(doc, COLD_UNITS).map((blocks) => () => written(blocks)),
    () => written(definitions),
  );
  // In a fresh page the first runs of the writer and the reader compile their code as they go:
  // the first unit (a run of blocks written, then parsed) took 20 to 40 ms. They first run on a
  // word and on one short line, each in an idle period of its own; then the first `COLD_UNITS`
  // periods do one unit each, on one block, so that no period is longer than a frame.
  const { schema } = doc.type;
  const write = (text: string): string => {
    const line = schema.nodes.paragraph?.create(null, schema.text(text));
    return line ? markdownBeforeEscapePass(ctx, doc.type.create(null, line)) : text;
  };
  let sample = WARM_UP_LINE;
  const firsts = [
    // The writer's core on one word, then what a line of a report makes it do (escapes, links).
    () => write('a'),
    () => {
      sample = write(WARM_UP_LINE);
    },
    () => warmUpReader(sample),
  ];
  let periods = 0;
  const next = (hasTime: () => boolean): void => {
    if (stopped()) return;
    const first = firsts.shift();
    if (first) first();
    else if (step(periods++ < COLD_UNITS ? () => false : hasTime)) return;
    whenIdle(next);
  };
  whenIdle(next);
}

/**
 * The Markdown writer escapes every character that could mean something somewhere
 * (`[REDACTED:aws-access-key]` → `\[REDACTED:…]`, `<img src=x …>` → `\<img …`), so a payload the
 * researcher typed reached the program with backslashes a triager then copied. This drops each
 * escape whose removal leaves the document read the same, so what was typed is stored as typed
 * wherever Markdown reads both alike, and escapes stay where they change the reading.
 *
 * "Read the same" is the mdast of CommonMark + GFM (the parser of the editor, the app's renderer
 * and the rules), with one allowance: inline raw HTML counts as the text it is made of, as the
 * app's renderer and the editor show it as that text (a typed `<img …>` stays visible text).
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

interface Node {
  type: string;
  value?: string;
  children?: Node[];
  [key: string]: unknown;
}

/** Parses at most this many variants per write: a long description with many escapes keeps some. */
const MAX_PARSES = 24;

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;

function read(markdown: string): Node {
  return fromMarkdown(markdown, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  }) as unknown as Node;
}

/** A tag (not a comment, declaration or processing instruction, which readers hide). */
const isTag = (html: string): boolean => /^<\/?[A-Za-z]/.test(html);

/** The tree as a reader sees it: no positions, inline tags as text, adjacent texts joined. */
function normalized(node: Node, inline: boolean): unknown {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'position' || key === 'children') continue;
    out[key] = value;
  }
  if (node.children) {
    const phrasing =
      inline || node.type === 'paragraph' || node.type === 'heading' || node.type === 'tableCell';
    const children: unknown[] = [];
    for (const child of node.children) {
      const asText =
        phrasing && child.type === 'html' && isTag(child.value ?? '')
          ? { type: 'text', value: child.value }
          : child;
      const last = children.at(-1) as { type?: string; value?: string } | undefined;
      if (asText.type === 'text' && last?.type === 'text') {
        last.value = `${last.value ?? ''}${asText.value ?? ''}`;
      } else {
        children.push(asText === child ? normalized(child, phrasing) : { ...asText });
      }
    }
    out.children = children;
  }
  return out;
}

function reading(markdown: string): string {
  return JSON.stringify(normalized(read(markdown), false));
}

/**
 * Reads one short line, as the escape pass reads blocks: in a fresh page the reader's first run
 * compiles its code, which is the idle warm-up's first unit of its own (`warmUpEscapePass`).
 */
export function warmUpReader(markdown: string): void {
  reading(markdown);
}

/**
 * Offsets of the backslashes that escape an ASCII punctuation character. Not those of a run of
 * escaped backslashes (`\\\\`, a typed `\\`): dropping some of them reads the same (`\\\`) but
 * is neither what was typed nor its plain escaping; the run stays escaped whole.
 */
function escapeOffsets(markdown: string): number[] {
  const found: number[] = [];
  for (let i = 0; i < markdown.length - 1; i++) {
    if (markdown[i] !== '\\') continue;
    const escaped = markdown[i + 1] ?? '';
    const inRun =
      escaped === '\\' &&
      (markdown.startsWith('\\\\', i + 2) || (i >= 2 && markdown.slice(i - 2, i) === '\\\\'));
    if (ASCII_PUNCTUATION.test(escaped) && !inRun) found.push(i);
    // `\\` is one escape: the second backslash never escapes what follows it.
    i++;
  }
  return found;
}

function without(markdown: string, offsets: ReadonlySet<number>): string {
  let out = '';
  for (let i = 0; i < markdown.length; i++) if (!offsets.has(i)) out += markdown[i];
  return out;
}

/**
 * One block's escapes dropped where its reading stays (`context`: the definitions it may use), one
 * parse per step: each `next()` parses once and yields the characters it parsed, so the idle
 * warm-up can stop between any two parses and resume in the next idle period (a block with many
 * escapes takes up to `MAX_PARSES` parses, too long for one frame). The result is the return value.
 */
function* weighing(block: string, context: string): Generator<number, string, void> {
  const offsets = escapeOffsets(block);
  if (offsets.length === 0) return block;
  const whole = block + context;
  const target = reading(whole);
  yield whole.length;
  const dropped = new Set<number>();
  // All at once first (the usual case), then halves of what changed the reading, depth first.
  const groups: number[][] = [offsets];
  for (let parses = 0; parses < MAX_PARSES; parses++) {
    const group = groups.pop();
    if (!group) break;
    const variant = without(block, new Set([...dropped, ...group])) + context;
    const same = reading(variant) === target;
    yield variant.length;
    if (same) {
      for (const offset of group) dropped.add(offset);
    } else if (group.length > 1) {
      const half = group.length >> 1;
      groups.push(group.slice(half), group.slice(0, half));
    }
  }
  return dropped.size === 0 ? block : without(block, dropped);
}

/** A weighing run to its end at once (a save needs the result now). */
function dropInBlock(block: string, context: string): string {
  const steps = weighing(block, context);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

interface Span {
  start: number;
  end: number;
}

/** HTML blocks that run on over blank lines: their text is literal, so only a full parse splits. */
const LONG_HTML_BLOCK = /^ {0,3}<(?:script|pre|style|textarea|!|\?)/im;

/** How each HTML block that may run over blank lines ends (CommonMark's kinds 1 to 5). */
const HTML_BLOCK_ENDS: readonly [RegExp, RegExp][] = [
  [/^ {0,3}<(?:script|pre|style|textarea)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Za-z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
];

/**
 * Whether every such HTML block ends on the line it starts (`<script>alert(1)</script>`, a pasted
 * payload): then no block runs over a blank line, and the quick split holds.
 */
function htmlBlocksEndOnTheirLine(markdown: string): boolean {
  for (const line of markdown.split('\n')) {
    for (const [start, end] of HTML_BLOCK_ENDS) {
      const opened = start.exec(line);
      if (opened && !end.test(line.slice(opened[0].length))) return false;
    }
  }
  return true;
}

/**
 * The blocks of `markdown`: runs of lines between blank lines, a fenced code block always whole.
 * Null where only a full parse can tell (an HTML block that may run over blank lines).
 */
function quickBlocks(markdown: string): Span[] | null {
  if (LONG_HTML_BLOCK.test(markdown) && !htmlBlocksEndOnTheirLine(markdown)) return null;
  const spans: Span[] = [];
  let fence: string | null = null;
  let start = -1;
  let at = 0;
  for (const line of markdown.split('\n')) {
    const end = at + line.length;
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (opener && opener[1]?.[0] === fence[0] && (opener[1]?.length ?? 0) >= fence.length) {
        if (line.trim() === opener[1]) fence = null;
      }
    } else if (opener) {
      fence = opener[1] ?? null;
    }
    if (line.trim() === '' && !fence) {
      if (start >= 0) spans.push({ start, end: at - 1 });
      start = -1;
    } else if (start < 0) {
      start = at;
    }
    at = end + 1;
  }
  if (start >= 0) spans.push({ start, end: markdown.length });
  return spans;
}

function parsedBlocks(markdown: string): Span[] {
  const blocks = (read(markdown).children ?? []) as {
    position?: { start: { offset?: number }; end: { offset?: number } };
  }[];
  return blocks.map((b) => ({
    start: b.position?.start.offset ?? 0,
    end: b.position?.end.offset ?? 0,
  }));
}

const DEFINITION = /^ {0,3}\[[^\]]+\]:/;

/** Results per block and context: a save re-reads only the blocks that changed since the last. */
const memo = new Map<string, string>();
const MEMO_LIMIT = 2_000;

/** A block with escapes to weigh, and the definitions it is read with. */
interface Pending {
  text: string;
  context: string;
}

interface Plan {
  spans: Span[];
  texts: string[];
  labels: string[];
}

function planOf(markdown: string, labels = definedLabels(markdown)): Plan {
  const spans = (quickBlocks(markdown) ?? parsedBlocks(markdown)).filter((b) => b.end > b.start);
  const texts = spans.map((b) => markdown.slice(b.start, b.end));
  return { spans, texts, labels };
}

/** A line that may begin a definition (`[1]: …`, `[^1]: …`), in a quote or list item too. */
const DEFINITION_LINE =
  /^(?:[ \t]*(?:>|[-*+]|\d{1,9}[.)]))*[ \t]*\[((?:[^\\\]\n]|\\.){1,999})\]:/gm;

/**
 * The labels the document's definitions (links, footnotes) give: whether an escape dropped makes
 * a reference depends only on them. A line taken for a definition that is none only keeps an
 * escape that could have gone.
 */
export function definedLabels(markdown: string): string[] {
  return [...markdown.matchAll(DEFINITION_LINE)].map((m) => m[1] ?? '');
}

/** Labels compared as references match them: case and runs of whitespace aside. */
const folded = (text: string): string =>
  text.replace(/\\/g, '').toUpperCase().toLowerCase().replace(/\s+/g, ' ');

/**
 * The definitions `text` is read with: one stand-in for each defined label that its text could
 * refer to, so a parse is of the block and a line or two, not of every definition of the document
 * (and the result is remembered for the block whatever else the document defines).
 */
function contextFor(text: string, labels: readonly string[]): string {
  const own = folded(text);
  const used = [...new Set(labels)].filter((label) => own.includes(folded(label)));
  return used.length === 0 ? '' : `\n\n${used.map((label) => `[${label}]: #`).join('\n')}\n`;
}

/** Whether a block's escapes are weighed at all (definitions are kept as written). */
const weighed = (text: string): boolean => !DEFINITION.test(text) && escapeOffsets(text).length > 0;

const keyOf = ({ text, context }: Pending): string => `${context}\u0000${text}`;

function remember(key: string, result: string): void {
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, result);
}

function resultOf(block: Pending): string {
  const key = keyOf(block);
  let result = memo.get(key);
  if (result === undefined) {
    result = dropInBlock(block.text, block.context);
    remember(key, result);
  }
  return result;
}

/**
 * `markdown` with every escape dropped that does not change how it is read. Block by block (each
 * top-level block read alone, with the document's link definitions after it), so a long
 * description costs parses of its changed blocks with escapes, not of the whole text each time.
 * `definedElsewhere`: the labels the rest of the document defines, when `markdown` is a part of it.
 */
export function withoutNeedlessEscapes(
  markdown: string,
  definedElsewhere: readonly string[] = [],
): string {
  if (escapeOffsets(markdown).length === 0) return markdown;
  const { spans, texts, labels } = planOf(markdown, [
    ...definedLabels(markdown),
    ...definedElsewhere,
  ]);
  let out = '';
  let at = 0;
  spans.forEach((span, i) => {
    if (span.start < at) return;
    const text = texts[i] ?? '';
    out += markdown.slice(at, span.start);
    out += weighed(text) ? resultOf({ text, context: contextFor(text, labels) }) : text;
    at = span.end;
  });
  return out + markdown.slice(at);
}

/**
 * The most work one warm-up step does, in characters written or parsed, however much idle time
 * it is given: a step may run over this by one unit at most (a piece written, or one parse of a
 * block being weighed: the units it cannot split).
 */
export const WARM_UP_SLICE_CHARS = 1_000;

/** A block being weighed by the warm-up: its weighing resumes where the last step left it. */
interface Weighing {
  key: string;
  steps: Generator<number, string, void>;
}

/**
 * The work `withoutNeedlessEscapes` would do on a document, in steps: `pieces` write the
 * document's parts (runs of its top-level blocks) when called, so that writing is spread over the
 * steps too; `definitions` writes its definitions (footnotes, links), whose labels the blocks are read with.
 * Each call writes pieces and weighs their blocks, one parse at a time, while `hasTime()` says so
 * and at most `WARM_UP_SLICE_CHARS` of work (at least one unit), and answers whether all is done;
 * a block's weighing left half done goes on in the next call. Run while the renderer is idle
 * after a long description opens, its first save then finds every block's result ready instead
 * of parsing them all at once.
 */
export function escapeWarmUp(
  pieces: readonly (() => string)[],
  definitions: () => string = () => '',
): (hasTime: () => boolean) => boolean {
  let next = 0;
  const pending: Pending[] = [];
  let current: Weighing | null = null;
  let labels: string[] | null = null;
  const unfinished = (): boolean => current !== null || pending.length > 0 || next < pieces.length;
  return (hasTime) => {
    let work = 0;
    if (labels === null) {
      const written = definitions();
      work += written.length;
      labels = definedLabels(written);
    }
    do {
      if (current && memo.has(current.key)) current = null; // a save weighed it meanwhile
      if (!current) {
        const block = pending.shift();
        if (block) {
          const key = keyOf(block);
          if (memo.has(key)) continue;
          current = { key, steps: weighing(block.text, block.context) };
        }
      }
      if (current) {
        const step = current.steps.next();
        if (step.done) {
          remember(current.key, step.value);
          current = null;
        } else {
          work += step.value;
        }
        continue;
      }
      const piece = pieces[next++];
      if (!piece) break;
      const markdown = piece();
      work += markdown.length;
      if (escapeOffsets(markdown).length === 0) continue;
      const { texts } = planOf(markdown);
      for (const text of texts) {
        const candidate = { text, context: contextFor(text, labels) };
        if (weighed(text) && !memo.has(keyOf(candidate))) pending.push(candidate);
      }
      // (A step that only closed a weighing has done no unit yet: it goes on.)
    } while (unfinished() && work < WARM_UP_SLICE_CHARS && (work === 0 || hasTime()));
    return !unfinished();
  };
}

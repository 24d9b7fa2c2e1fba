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

const reading = (markdown: string): string => JSON.stringify(normalized(read(markdown), false));

/** Offsets of the backslashes that escape an ASCII punctuation character. */
function escapeOffsets(markdown: string): number[] {
  const found: number[] = [];
  for (let i = 0; i < markdown.length - 1; i++) {
    if (markdown[i] !== '\\') continue;
    if (ASCII_PUNCTUATION.test(markdown[i + 1] ?? '')) found.push(i);
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

/** `markdown` with every escape dropped that does not change how it is read. */
export function withoutNeedlessEscapes(markdown: string): string {
  const offsets = escapeOffsets(markdown);
  if (offsets.length === 0) return markdown;
  const target = reading(markdown);
  const dropped = new Set<number>();
  let parses = 0;
  // All at once first (the usual case), then halves of what changed the reading.
  const attempt = (group: number[]): void => {
    if (group.length === 0 || parses >= MAX_PARSES) return;
    parses++;
    const next = new Set([...dropped, ...group]);
    if (reading(without(markdown, next)) === target) {
      for (const offset of group) dropped.add(offset);
      return;
    }
    if (group.length === 1) return;
    const half = group.length >> 1;
    attempt(group.slice(0, half));
    attempt(group.slice(half));
  };
  attempt(offsets);
  return dropped.size === 0 ? markdown : without(markdown, dropped);
}

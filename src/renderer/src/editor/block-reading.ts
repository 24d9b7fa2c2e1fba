/**
 * Whether a block as it was read and the same block as the writer puts it read alike, as the
 * editor holds text: each piece of text with a flat set of marks (emphasis, strong, strikethrough,
 * link, code). `**_NOTE:_**` and `_**NOTE:**_` are the same words in bold italics; `[x][5]` with
 * its definition and `[x](url)` are the same link. Everything else (blocks, their kinds, lists'
 * numbering and looseness, code and its language, raw HTML as its text) must be equal.
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

interface Node {
  type: string;
  value?: string;
  url?: string;
  title?: string | null;
  alt?: string | null;
  identifier?: string;
  children?: Node[];
  [key: string]: unknown;
}

interface Definition {
  url: string;
  title: string;
}

const MARKS = new Set(['emphasis', 'strong', 'delete']);
const PHRASING_HOSTS = new Set(['paragraph', 'heading', 'tableCell']);
/** Fields that say how a construct was written, not what it reads as. */
const FORM = new Set(['position', 'children', 'referenceType', 'label', 'identifier']);

interface Run {
  kind: string;
  value: string;
  marks: string[];
}

function runsOf(
  nodes: readonly Node[],
  marks: readonly string[],
  defs: Map<string, Definition>,
  out: Run[],
): void {
  for (const node of nodes) {
    if (MARKS.has(node.type)) {
      runsOf(node.children ?? [], [...marks, node.type], defs, out);
      continue;
    }
    if (node.type === 'link' || node.type === 'linkReference') {
      const def = node.type === 'link' ? null : defs.get(node.identifier ?? '');
      if (node.type === 'linkReference' && !def) {
        // An undefined reference reads as its brackets and text.
        out.push({ kind: 'text', value: '[', marks: [...marks].sort() });
        runsOf(node.children ?? [], marks, defs, out);
        out.push({ kind: 'text', value: ']', marks: [...marks].sort() });
        continue;
      }
      const link = `link:${def ? def.url : (node.url ?? '')} ${def ? def.title : (node.title ?? '')}`;
      runsOf(node.children ?? [], [...marks, link], defs, out);
      continue;
    }
    let kind = node.type;
    let value = node.value ?? '';
    if (node.type === 'image' || node.type === 'imageReference') {
      const def = node.type === 'image' ? null : defs.get(node.identifier ?? '');
      kind = 'image';
      value = `${def ? def.url : (node.url ?? '')} ${def ? def.title : (node.title ?? '')} ${node.alt ?? ''}`;
    } else if (node.type === 'html') {
      kind = 'text'; // shown as the text it is made of
    }
    const sorted = [...marks].sort();
    const last = out.at(-1);
    if (kind === 'text' && last?.kind === 'text' && last.marks.join() === sorted.join()) {
      last.value += value;
    } else {
      out.push({ kind, value, marks: sorted });
    }
  }
}

function normalized(node: Node, defs: Map<string, Definition>): unknown {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) if (!FORM.has(key)) out[key] = value;
  if (!node.children) return out;
  if (PHRASING_HOSTS.has(node.type)) {
    const runs: Run[] = [];
    runsOf(node.children, [], defs, runs);
    out.children = runs;
  } else {
    out.children = node.children
      .filter((child) => child.type !== 'definition')
      .map((child) => normalized(child, defs));
  }
  return out;
}

function definitionsOf(node: Node, defs: Map<string, Definition>): void {
  for (const child of node.children ?? []) {
    if (child.type === 'definition' && !defs.has(child.identifier ?? '')) {
      defs.set(child.identifier ?? '', { url: child.url ?? '', title: child.title ?? '' });
    }
    definitionsOf(child, defs);
  }
}

/** How `markdown` reads, its references resolved with `definitions` (a text of definitions). */
export function blockReading(markdown: string, definitions: string): string {
  const tree = fromMarkdown(`${markdown}\n\n${definitions}`, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  }) as unknown as Node;
  const defs = new Map<string, Definition>();
  definitionsOf(tree, defs);
  return JSON.stringify(normalized(tree, defs));
}

/** Whether two texts read alike, their references resolved with `definitions`. */
export function blocksReadAlike(a: string, b: string, definitions: string): boolean {
  return a === b || blockReading(a, definitions) === blockReading(b, definitions);
}

/**
 * The researcher's own templates. A template is Markdown with placeholders
 * (`{{asset}}`, `{{program}}`…). Used for a new report, its placeholders are filled and its
 * sections go under the program's template headings, which stay the frame: the template fills the
 * sections whose heading matches, in the frame's order; what it says before its first such
 * heading leads the description.
 */
import escapeRegExp from 'escape-string-regexp';
import type { Heading, Nodes, RootContent } from 'mdast';
import { descriptionTemplate, TEMPLATE_HEADINGS, templateHeadingOf } from '@shared/rules';
import { endOffset, parseMarkdown, plainText, startOffset } from '@shared/rules/markdown';

/** The placeholders a template may hold, and what each becomes. */
export const PLACEHOLDERS = {
  asset: 'the report’s asset',
  program: 'the program’s name',
  program_id: 'the program’s id',
  title: 'the report’s title',
  date: 'today’s date (YYYY-MM-DD)',
} as const;

export type PlaceholderName = keyof typeof PLACEHOLDERS;

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** Each known `{{name}}` replaced by its value; unknown ones stay as written. */
export function fillPlaceholders(
  body: string,
  values: Partial<Record<PlaceholderName, string>>,
): string {
  return body.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(values, name) ? (values[name as PlaceholderName] ?? whole) : whole,
  );
}

/**
 * A draft's description as a template: its own asset, title and program name become their
 * placeholders where they stand whole (`*.example.com` or `api.example.com` is another host than
 * `example.com`), outside code (a request or a payload is evidence, kept as it was sent). Values
 * of fewer than 4 characters are left: they would match inside words.
 */
export function withPlaceholders(
  body: string,
  values: Partial<Record<PlaceholderName, string>>,
): string {
  const pairs = Object.entries(values)
    .map(([name, value]) => [name, value?.trim() ?? ''] as const)
    .filter(([, value]) => value.length >= 4)
    // The longest first: a title holding the asset becomes {{title}}, not a part of it.
    .sort((a, b) => b[1].length - a[1].length);
  if (pairs.length === 0) return body;
  const named = new Map(pairs.map(([name, value]) => [value, name]));
  const whole = new RegExp(
    `(?<![\\p{L}\\p{N}_.-])(?:${pairs.map(([, v]) => escapeRegExp(v)).join('|')})(?![\\p{L}\\p{N}_-]|\\.[\\p{L}\\p{N}])`,
    'gu',
  );
  const fill = (text: string): string =>
    text.replace(whole, (value) => `{{${named.get(value) ?? ''}}}`);
  let out = '';
  let at = 0;
  for (const [start, end] of codeRanges(body)) {
    out += fill(body.slice(at, start)) + body.slice(start, end);
    at = end;
  }
  return out + fill(body.slice(at));
}

/** Where the Markdown's code is (blocks and spans), in order, as [start, end) offsets. */
function codeRanges(markdown: string): [number, number][] {
  const ranges: [number, number][] = [];
  const visit = (node: Nodes): void => {
    if (node.type === 'code' || node.type === 'inlineCode') {
      ranges.push([startOffset(node), endOffset(node)]);
      return;
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(parseMarkdown(markdown));
  return ranges;
}

/**
 * The program's frame (its template headings, in order) filled with the template's sections. A
 * section runs from its heading to the next template heading, so the template's own
 * sub-headings stay inside it; a heading given twice adds to its section.
 */
export function applyTemplate(body: string, frame: string = descriptionTemplate()): string {
  const tree = parseMarkdown(body);
  const marks: { heading: string; start: number; contentStart: number }[] = [];
  for (const node of tree.children as RootContent[]) {
    if (node.type !== 'heading') continue;
    const heading = templateHeadingOf(plainText(node as Heading));
    if (heading) marks.push({ heading, start: startOffset(node), contentStart: endOffset(node) });
  }
  const preamble = part(body.slice(0, marks[0]?.start ?? body.length));
  const sections = new Map<string, string[]>();
  marks.forEach((mark, i) => {
    const text = part(body.slice(mark.contentStart, marks[i + 1]?.start ?? body.length));
    if (text) sections.set(mark.heading, [...(sections.get(mark.heading) ?? []), text]);
  });
  const frameHeadings = frameHeadingsOf(frame);
  const filled = frameHeadings
    .map(({ line, heading }) => {
      const text = sections.get(heading)?.join('\n\n');
      return text ? `${line}\n\n${text}\n\n` : `${line}\n\n`;
    })
    .join('');
  return preamble ? `${preamble}\n\n${filled}` : filled;
}

/**
 * A piece of the template as it goes under a frame heading: blank lines around it dropped, but not
 * the first line's indentation (`.trim()` made an indented code block holding a fence a fenced block),
 * and a fence left open closed, or it would swallow every frame heading after it.
 */
function part(text: string): string {
  const kept = text.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd();
  const open = openFenceAtEnd(kept);
  return open ? `${kept}\n${open}` : kept;
}

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** The fence (``` or ~~~ run) a text ends inside, if it opens one it never closes. */
function openFenceAtEnd(text: string): string | undefined {
  let open: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const m = FENCE_LINE.exec(line);
    const run = m?.[1];
    if (m === null || run === undefined) continue;
    const rest = m[2] ?? '';
    if (open === undefined) {
      // A backtick fence's info string holds no backtick (CommonMark 4.5).
      if (!(run.startsWith('`') && rest.includes('`'))) open = run;
    } else if (run[0] === open[0] && run.length >= open.length && rest.trim() === '') {
      open = undefined;
    }
  }
  return open;
}

/** The frame's template headings as written (`## Steps to reproduce`). */
function frameHeadingsOf(frame: string): { line: string; heading: string }[] {
  const tree = parseMarkdown(frame);
  const found: { line: string; heading: string }[] = [];
  for (const node of tree.children as RootContent[]) {
    if (node.type !== 'heading') continue;
    const heading = templateHeadingOf(plainText(node as Heading));
    if (heading) found.push({ line: frame.slice(startOffset(node), endOffset(node)), heading });
  }
  return found.length > 0 ? found : TEMPLATE_HEADINGS.map((h) => ({ line: `## ${h}`, heading: h }));
}

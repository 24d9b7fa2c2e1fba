/**
 * A report as a Markdown file: YAML front matter between two `---` lines, then the description
 * exactly as written (the command-line submitters of the field read and write this shape).
 *
 * The front matter ends at the first line that is exactly `---` after the opening one. The YAML
 * the `yaml` library writes never holds such a line (a string with `---` in it is quoted or
 * indented), so a description may hold `---` lines of its own (thematic breaks, front-matter-like
 * blocks) and still reads back byte for byte.
 */
import { isMap, isScalar, LineCounter, parseDocument, stringify, type Pair } from 'yaml';

/** What the front matter holds, in the order it is written. */
export interface ReportFrontMatter {
  report_id?: string;
  program: string;
  program_name?: string;
  title: string;
  asset: string;
  cvss_vector: string;
  cvss_score?: number | null;
  status?: string;
  created_at?: string | null;
  updated_at?: string | null;
  submitted_at?: string | null;
}

/** One problem of a file, at its line (1-based, in the file as the user sees it). */
export interface FileProblem {
  line: number;
  field: string;
  message: string;
}

const OPEN = /^---[ \t]*\r?$/;

/** The file's text: front matter, then the description unchanged. */
export function formatReportFile(meta: ReportFrontMatter, description: string): string {
  const ordered: Record<string, unknown> = {};
  for (const key of FIELD_ORDER) {
    const value = meta[key];
    if (value !== undefined) ordered[key] = value;
  }
  return `---\n${stringify(ordered, { lineWidth: 0 })}---\n${description}`;
}

const FIELD_ORDER: readonly (keyof ReportFrontMatter)[] = [
  'report_id',
  'program',
  'program_name',
  'title',
  'asset',
  'cvss_vector',
  'cvss_score',
  'status',
  'created_at',
  'updated_at',
  'submitted_at',
];

/** Fields a draft is made from: `program` and `title` must be there, the others may be absent. */
const REQUIRED = ['program', 'title'] as const;
const TEXT_FIELDS = ['program', 'title', 'asset', 'cvss_vector'] as const;

export type ParsedReportFile =
  | {
      ok: true;
      meta: Pick<ReportFrontMatter, (typeof TEXT_FIELDS)[number]>;
      /** The line of each field's value, for later messages (the program's, say). */
      lines: Partial<Record<string, number>>;
      description: string;
      /** Lines before the description's first line (its line 1 is the file's `offset + 1`). */
      descriptionOffset: number;
    }
  | { ok: false; problems: FileProblem[] };

/**
 * Reads a report file. Never throws: every problem comes back with the line it is on, the broken
 * YAML, the missing fields and the fields of the wrong type all at once.
 */
export function parseReportFile(text: string): ParsedReportFile {
  const read = parseFrontMatterFile(text, TEXT_FIELDS, REQUIRED, ['program']);
  if (!read.ok) return read;
  return {
    ok: true,
    meta: read.values as Pick<ReportFrontMatter, (typeof TEXT_FIELDS)[number]>,
    lines: read.lines,
    description: read.body,
    descriptionOffset: read.bodyOffset,
  };
}

export type ParsedFrontMatterFile =
  | {
      ok: true;
      values: Record<string, string>;
      lines: Partial<Record<string, number>>;
      body: string;
      bodyOffset: number;
    }
  | { ok: false; problems: FileProblem[] };

/**
 * Any file of front matter and a Markdown body (reports, templates): the text `fields` read
 * ('' when absent and not `required`; `nonEmpty` ones must hold more than spaces).
 */
export function parseFrontMatterFile(
  text: string,
  fields: readonly string[],
  required: readonly string[],
  nonEmpty: readonly string[],
): ParsedFrontMatterFile {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = body.split('\n');
  if (!OPEN.test(lines[0] ?? '')) {
    return {
      ok: false,
      problems: [
        {
          line: 1,
          field: 'front matter',
          message:
            'the file does not start with front matter (a "---" line, the fields, then "---")',
        },
      ],
    };
  }
  const close = lines.findIndex((line, i) => i > 0 && OPEN.test(line));
  if (close < 0) {
    return {
      ok: false,
      problems: [
        {
          line: 1,
          field: 'front matter',
          message: 'the front matter is not closed: no "---" line after it',
        },
      ],
    };
  }
  // A file saved with CRLF line ends: the YAML reads its lines without the CR.
  const yamlText = lines
    .slice(1, close)
    .map((line) => line.replace(/\r$/, ''))
    .join('\n');
  const rest = lines.slice(close + 1).join('\n');
  const counter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter: counter, uniqueKeys: true });
  const lineAt = (offset: number): number => counter.linePos(offset).line + 1;
  const problems: FileProblem[] = doc.errors.map((error) => {
    // An unclosed `[` or quote is found where the parser gave up, often the next field: name
    // the field it started in. The parser's own "at line N" counts from the YAML, not the file.
    const pair = pairAround(doc.contents, error.pos[0]);
    const text = (error.message.split('\n')[0] ?? error.code).replace(
      / at line \d+, column \d+:?$/,
      '',
    );
    return {
      line: lineAt(pair ? pair.start : error.pos[0]),
      field: pair?.key ?? 'front matter',
      message: `the YAML cannot be read: ${text}`,
    };
  });
  if (problems.length > 0) return { ok: false, problems };
  const contents = doc.contents;
  if (!isMap(contents)) {
    return {
      ok: false,
      problems: [
        {
          line: 2,
          field: 'front matter',
          message: `the front matter must be fields ("${fields[0] ?? 'name'}: …"), one a line`,
        },
      ],
    };
  }
  const pairs = new Map<string, Pair>();
  for (const pair of contents.items) {
    if (isScalar(pair.key)) pairs.set(String(pair.key.value), pair);
  }
  const meta: Record<string, string> = {};
  const valueLines: Record<string, number> = {};
  for (const field of fields) {
    const pair = pairs.get(field);
    if (!pair) {
      if (required.includes(field)) {
        problems.push({ line: close + 1, field, message: `the field "${field}" is missing` });
      } else meta[field] = '';
      continue;
    }
    const node = pair.value as { range?: [number, number, number] } | null;
    const keyNode = pair.key as { range?: [number, number, number] } | null;
    const line = lineAt(node?.range?.[0] ?? keyNode?.range?.[0] ?? 0);
    valueLines[field] = line;
    const value: unknown = isScalar(pair.value) ? pair.value.value : pair.value;
    if (value === null || value === undefined) {
      if (nonEmpty.includes(field)) {
        problems.push({ line, field, message: `"${field}" is empty` });
      } else meta[field] = '';
    } else if (typeof value !== 'string') {
      problems.push({
        line,
        field,
        message: `"${field}" must be text (put it in quotes), not ${describe(value)}`,
      });
    } else if (nonEmpty.includes(field) && value.trim() === '') {
      problems.push({ line, field, message: `"${field}" is empty` });
    } else meta[field] = value;
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, values: meta, lines: valueLines, body: rest, bodyOffset: close + 1 };
}

/** The field whose text holds `offset`: its name and where it starts. */
function pairAround(contents: unknown, offset: number): { key: string; start: number } | null {
  if (!isMap(contents)) return null;
  for (const pair of contents.items) {
    const key = pair.key as { range?: [number, number, number]; value?: unknown } | null;
    const value = pair.value as { range?: [number, number, number] } | null;
    const start = key?.range?.[0];
    const end = value?.range?.[2] ?? key?.range?.[2];
    if (start !== undefined && end !== undefined && start <= offset && offset <= end) {
      return { key: String(key?.value ?? 'front matter'), start };
    }
  }
  return null;
}

function describe(value: unknown): string {
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return `the value ${String(value)}`;
  if (value instanceof Date) return 'a date';
  return 'a list or a map';
}

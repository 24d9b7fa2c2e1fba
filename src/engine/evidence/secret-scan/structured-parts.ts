/**
 * A structured file (a HAR, a Burp export) scanned part by part: each header, cookie, field or
 * body is one part the rules read, and redaction writes the new value back into its place.
 */
import { fingerprintOf, previewOf, redact, scanText, type SecretFinding } from './scan';
import { isPlaceholder } from './placeholders';
import { CHUNK, pickFindings, scanLargeText } from './chunked-text';
import type { FileFinding, FileFormat, FileScan, FileScanOptions } from './file-scan-types';

/** One scanned part of a structured file: its text, where it is, and how to put it back. */
export interface Part {
  where: string;
  /** What the rules read: `Name: value`, `name=value` or a body. */
  text: string;
  /** Where the value starts in `text` (after `Name: `): only the value is redacted. */
  valueStart: number;
  /** The whole value is a credential (a session cookie, a `password` field). */
  whole?: { kind: string; label: string };
  write: (value: string) => void;
}

function wholeFinding(part: Part, kind: string, label: string): SecretFinding {
  const value = part.text.slice(part.valueStart);
  return {
    kind,
    label,
    ruleId: 'bounty-desk/structured-field',
    start: part.valueStart,
    end: part.text.length,
    line: 1,
    column: part.valueStart + 1,
    fingerprint: fingerprintOf(value),
    preview: previewOf(value),
  };
}

/**
 * A value named a credential (a session cookie, a `password` field, an auth header) is one even
 * when no rule knows its shape; a generic finding inside such a part takes the part's kind.
 */
function settle(part: Part, found: SecretFinding[]): SecretFinding[] {
  const inValue = found.filter((f) => f.start >= part.valueStart);
  const value = part.text.slice(part.valueStart);
  if (!part.whole) return inValue;
  if (inValue.length === 0) {
    return value.length >= 3 && !isPlaceholder(value)
      ? [wholeFinding(part, part.whole.kind, part.whole.label)]
      : [];
  }
  const { kind, label } = part.whole;
  return inValue.map((f) => (f.ruleId === 'bounty-desk/secret-field' ? { ...f, kind, label } : f));
}

const SEPARATOR = '\n\n';

/** Where a finding of the joined text falls in its part, in the part's own terms. */
function local(f: SecretFinding, partStart: number, text: string): SecretFinding {
  const start = f.start - partStart;
  const before = text.slice(0, start);
  const line = before.split('\n').length;
  return {
    ...f,
    start,
    end: f.end - partStart,
    line,
    column: start - (before.lastIndexOf('\n') + 1) + 1,
  };
}

/**
 * The rules read many small parts joined in one text (one pass instead of thousands), split by
 * blank lines no rule reads across; a large body gets its own chunked pass.
 */
async function scanAllParts(parts: Part[], options: FileScanOptions): Promise<SecretFinding[][]> {
  const out: SecretFinding[][] = parts.map(() => []);
  let batch: number[] = [];
  let size = 0;
  let done = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const starts: number[] = [];
    let text = '';
    for (const i of batch) {
      starts.push(text.length);
      text += (parts[i] as Part).text + SEPARATOR;
    }
    const found = await scanText(text, options);
    for (const f of found) {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((starts[mid] ?? 0) <= f.start) lo = mid;
        else hi = mid - 1;
      }
      const index = batch[lo] as number;
      const part = parts[index] as Part;
      const partStart = starts[lo] ?? 0;
      if (f.end > partStart + part.text.length) continue; // across a separator: not a value
      out[index]?.push(local(f, partStart, part.text));
    }
    done += batch.length;
    options.onProgress?.(done, parts.length);
    batch = [];
    size = 0;
  };
  for (const [i, part] of parts.entries()) {
    if (part.text.length > CHUNK) {
      out[i] = await scanLargeText(part.text, { ...options, onProgress: undefined });
      done += 1;
      continue;
    }
    batch.push(i);
    size += part.text.length + SEPARATOR.length;
    if (size >= CHUNK) await flush();
  }
  await flush();
  return out.map((found, i) => settle(parts[i] as Part, found));
}

/** Values shorter than this are not searched again elsewhere: too likely to be ordinary text. */
const ECHO_MIN = 12;

/**
 * A credential found in one part is one wherever else the same file repeats it: a session cookie
 * a phpinfo() page or an error body echoes, a token a redirect URL carries. Each repeat is a
 * finding with the same fingerprint, so redacting the value redacts every copy.
 */
export function echoes(
  texts: readonly string[],
  perPart: SecretFinding[][],
  whereOf: (i: number) => string,
): SecretFinding[][] {
  const found = new Map<string, { f: SecretFinding; where: string }>();
  perPart.forEach((list, i) => {
    for (const f of list) {
      const value = (texts[i] ?? '').slice(f.start, f.end);
      if (value.length >= ECHO_MIN && !found.has(value)) found.set(value, { f, where: whereOf(i) });
    }
  });
  if (found.size === 0) return perPart;
  return perPart.map((list, i) => {
    const text = texts[i] ?? '';
    const extra: SecretFinding[] = [];
    const taken = (a: number, b: number): boolean =>
      [...list, ...extra].some((f) => a < f.end && f.start < b);
    for (const [value, { f, where }] of found) {
      for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + value.length)) {
        if (taken(at, at + value.length)) continue;
        const before = text.slice(0, at);
        extra.push({
          ...f,
          ruleId: 'bounty-desk/same-value',
          label: `${f.label} (the value found in ${where}, repeated)`,
          start: at,
          end: at + value.length,
          line: before.split('\n').length,
          column: at - (before.lastIndexOf('\n') + 1) + 1,
        });
      }
    }
    return extra.length ? [...list, ...extra].sort((a, b) => a.start - b.start) : list;
  });
}

export async function scanParts(
  format: FileFormat,
  parts: Part[],
  finish: () => Buffer,
  options: FileScanOptions,
): Promise<FileScan> {
  const scanned = await scanAllParts(parts, options);
  const perPart = echoes(
    parts.map((p) => p.text),
    scanned,
    (i) => parts[i]?.where ?? '',
  );
  const findings: FileFinding[] = perPart.flatMap((list, i) => {
    const part = parts[i] as Part;
    const multiLine = part.text.includes('\n');
    return list.map((f) => ({
      ...f,
      where: multiLine ? `${part.where}, line ${f.line}` : part.where,
    }));
  });
  return {
    format,
    findings,
    redact: (fingerprints) => {
      for (const [i, part] of parts.entries()) {
        const hits = pickFindings(perPart[i] ?? [], fingerprints);
        if (hits.length === 0) continue;
        part.write(redact(part.text, hits).slice(part.valueStart));
      }
      return Promise.resolve(finish());
    },
  };
}

/**
 * The credential scan of a whole evidence file: what the file holds decides how it is read, not
 * its name. A HAR is walked part by part (headers, cookies, query string, form params, bodies,
 * base64 response content, websocket messages); a Burp Suite XML export has each request and
 * response decoded from base64 and scanned as HTTP; any other text is scanned in chunks, however
 * large. Binary files are not text and are named as not scanned.
 *
 * Redaction keeps the file what it was: a redacted HAR is still a HAR (its JSON rebuilt from the
 * walked object), a redacted Burp export still parses (each message re-encoded as it was).
 */
import { randomUUID } from 'node:crypto';
import { open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  fingerprintOf,
  previewOf,
  redact,
  scanText,
  type ScanOptions,
  type SecretFinding,
} from './scan';
import {
  isCredentialHeader,
  isNotCredentialHeader,
  isSecretField,
  NOT_SESSION_COOKIE,
} from './rules';
import { redactionMark } from './mark';
import { isPlaceholder } from './placeholders';
import { redactTextFile, scanTextFile } from './stream-scan';

export type FileFormat = 'har' | 'burp' | 'text' | 'binary';

export interface FileFinding extends SecretFinding {
  /** Where in the file: "line 12", "entry 3, request cookie “SID”", "item 2, request, line 9". */
  where: string;
}

export interface FileScan {
  format: FileFormat;
  findings: FileFinding[];
  /** The file with every finding whose fingerprint is given replaced by `[REDACTED:<kind>]`. */
  redact(fingerprints: ReadonlySet<string>): Promise<Buffer>;
  /** The same, written to `outPath` piece by piece: a file read in a streaming pass. */
  redactToFile?(fingerprints: ReadonlySet<string>, outPath: string): Promise<void>;
}

/** A scan of one reading of the file: `redact` may be applied once (it edits that reading). */
type Reading = FileScan;

export interface FileScanOptions extends ScanOptions {
  /** Called after each part is scanned: bytes (or parts) done, of total. */
  onProgress?: (done: number, total: number) => void;
}

// ---- text or not ----------------------------------------------------------------------------

const SNIFF_BYTES = 64 * 1024;

/**
 * Text, by content: no NUL byte in the first 64 KiB and valid UTF-8 there (a sequence cut at the
 * sample's end is fine), or a UTF-16 byte order mark. `.pem`, `.env`, `.yaml`, `.req` all pass;
 * a PNG, a ZIP or a PDF's binary streams do not.
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    return true;
  const sample = bytes.subarray(0, SNIFF_BYTES);
  if (sample.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

export function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2));
    swapped.swap16();
    return swapped.toString('utf16le');
  }
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}

// ---- plain text, in chunks ------------------------------------------------------------------

/** 512 KiB of text per rules pass: bounded work per step, progress between steps. */
const CHUNK = 512 * 1024;
/** A private key block is kept whole even across a chunk's end (up to this much more). */
const BLOCK_SLACK = 64 * 1024;

/** Chunk boundaries: at a line break, never inside a `-----BEGIN … -----END` block. */
export function chunkBounds(text: string, size = CHUNK): [number, number][] {
  const bounds: [number, number][] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      const nl = text.indexOf('\n', end);
      end = nl === -1 ? text.length : nl + 1;
      const begin = text.lastIndexOf('-----BEGIN', end);
      if (begin >= start && text.lastIndexOf('-----END', end) < begin) {
        const close = text.indexOf('-----END', end);
        if (close !== -1 && close - end < BLOCK_SLACK) {
          const nl2 = text.indexOf('\n', close);
          end = nl2 === -1 ? text.length : nl2 + 1;
        }
      }
    }
    bounds.push([start, end]);
    start = end;
  }
  return bounds;
}

async function scanLargeText(text: string, options: FileScanOptions): Promise<SecretFinding[]> {
  const out: SecretFinding[] = [];
  let line = 1;
  let lineAt = 0;
  const bounds = chunkBounds(text);
  for (const [start, end] of bounds) {
    for (let i = text.indexOf('\n', lineAt); i !== -1 && i < start; i = text.indexOf('\n', i + 1))
      line += 1;
    lineAt = start;
    for (const f of await scanText(text.slice(start, end), options)) {
      out.push({ ...f, start: f.start + start, end: f.end + start, line: f.line + line - 1 });
    }
    options.onProgress?.(end, text.length);
  }
  return out;
}

function pick(findings: readonly SecretFinding[], fingerprints: ReadonlySet<string>) {
  return findings.filter((f) => fingerprints.has(f.fingerprint));
}

async function scanPlain(text: string, options: FileScanOptions): Promise<FileScan> {
  const findings = await scanLargeText(text, options);
  return {
    format: 'text',
    findings: findings.map((f) => ({ ...f, where: `line ${f.line}` })),
    redact: (fingerprints) =>
      Promise.resolve(Buffer.from(redact(text, pick(findings, fingerprints)), 'utf8')),
  };
}

// ---- parts of structured files --------------------------------------------------------------

/** One scanned part of a structured file: its text, where it is, and how to put it back. */
interface Part {
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

async function scanParts(
  format: FileFormat,
  parts: Part[],
  finish: () => Buffer,
  options: FileScanOptions,
): Promise<FileScan> {
  const perPart = await scanAllParts(parts, options);
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
        const hits = pick(perPart[i] ?? [], fingerprints);
        if (hits.length === 0) continue;
        part.write(redact(part.text, hits).slice(part.valueStart));
      }
      return Promise.resolve(finish());
    },
  };
}

// ---- HAR ------------------------------------------------------------------------------------

interface Pair {
  name?: unknown;
  value?: unknown;
}
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `text` of a HAR body or content, decoded when it is base64 and text inside. */
function bodyPart(owner: Obj, where: string): Part | null {
  const text = owner.text;
  if (typeof text !== 'string' || text === '') return null;
  if (owner.encoding === 'base64') {
    const bytes = Buffer.from(text, 'base64');
    if (!looksLikeText(bytes)) return null;
    return {
      where,
      text: bytes.toString('utf8'),
      valueStart: 0,
      write: (v) => {
        owner.text = Buffer.from(v, 'utf8').toString('base64');
      },
    };
  }
  return {
    where,
    text,
    valueStart: 0,
    write: (v) => {
      owner.text = v;
    },
  };
}

function pairParts(list: unknown, where: string, kind: 'header' | 'cookie' | 'field'): Part[] {
  if (!Array.isArray(list)) return [];
  const parts: Part[] = [];
  for (const item of list as Pair[]) {
    if (!isObj(item) || typeof item.name !== 'string' || typeof item.value !== 'string') continue;
    const pair = item as { name: string; value: string };
    const name = pair.name;
    if (kind === 'header' && isNotCredentialHeader(name)) continue;
    const sep = kind === 'header' ? ': ' : '=';
    const prefix = `${name}${sep}`;
    let whole: Part['whole'];
    if (kind === 'cookie' && !NOT_SESSION_COOKIE.test(name) && pair.value.length >= 8)
      whole = { kind: 'cookie', label: `Cookie “${name}”` };
    if (kind === 'field' && isSecretField(name))
      whole = { kind: 'token', label: `Secret in field “${name}”` };
    if (kind === 'header' && isCredentialHeader(name) && !/^(set-)?cookie$/i.test(name))
      whole = { kind: 'authorization-header', label: `${name} header` };
    const label = kind === 'field' ? 'field' : kind;
    parts.push({
      where: `${where} ${label} “${name}”`,
      text: `${prefix}${pair.value}`,
      valueStart: prefix.length,
      whole,
      write: (v) => {
        pair.value = v;
      },
    });
  }
  return parts;
}

function harParts(har: Obj): Part[] {
  const log = isObj(har.log) ? har.log : {};
  const entries = Array.isArray(log.entries) ? (log.entries as unknown[]) : [];
  const parts: Part[] = [];
  entries.forEach((entry, i) => {
    if (!isObj(entry)) return;
    const at = `entry ${i + 1}`;
    const req = isObj(entry.request) ? entry.request : null;
    if (req) {
      if (typeof req.url === 'string') {
        parts.push({
          where: `${at}, request URL`,
          text: req.url,
          valueStart: 0,
          write: (v) => {
            req.url = v;
          },
        });
      }
      parts.push(...pairParts(req.headers, `${at}, request`, 'header'));
      parts.push(...pairParts(req.cookies, `${at}, request`, 'cookie'));
      parts.push(...pairParts(req.queryString, `${at}, query`, 'field'));
      const post = isObj(req.postData) ? req.postData : null;
      if (post) {
        parts.push(...pairParts(post.params, `${at}, form`, 'field'));
        const body = bodyPart(post, `${at}, request body`);
        if (body) parts.push(body);
      }
    }
    const res = isObj(entry.response) ? entry.response : null;
    if (res) {
      parts.push(...pairParts(res.headers, `${at}, response`, 'header'));
      parts.push(...pairParts(res.cookies, `${at}, response`, 'cookie'));
      if (typeof res.redirectURL === 'string' && res.redirectURL !== '') {
        parts.push({
          where: `${at}, redirect URL`,
          text: res.redirectURL,
          valueStart: 0,
          write: (v) => {
            res.redirectURL = v;
          },
        });
      }
      const content = isObj(res.content) ? res.content : null;
      if (content) {
        const body = bodyPart(content, `${at}, response body`);
        if (body) parts.push(body);
      }
    }
    const messages = Array.isArray(entry._webSocketMessages) ? entry._webSocketMessages : [];
    (messages as unknown[]).forEach((message, j) => {
      if (!isObj(message) || typeof message.data !== 'string') return;
      parts.push({
        where: `${at}, websocket message ${j + 1}`,
        text: message.data,
        valueStart: 0,
        write: (v) => {
          message.data = v;
        },
      });
    });
  });
  return parts;
}

/** A parsed HAR (`log.entries` is a list), or null. */
export function parseHarObject(text: string): Obj | null {
  const start = text.trimStart()[0];
  if (start !== '{') return null;
  try {
    const value: unknown = JSON.parse(text);
    if (isObj(value) && isObj(value.log) && Array.isArray(value.log.entries)) return value;
  } catch {
    return null;
  }
  return null;
}

// ---- Burp Suite XML -------------------------------------------------------------------------

/** `<request base64="true"><![CDATA[…]]></request>`, and the same for responses. */
const BURP_MESSAGE = /<(request|response)\b([^>]*)>(?:<!\[CDATA\[([\s\S]*?)\]\]>|([^<]*))<\/\1>/g;
const BURP_ITEM = /<(?:item|issue)>/g;

export function isBurpExport(text: string): boolean {
  const head = text.slice(0, 8192);
  return (
    /<(?:items|issues)\b[^>]*burpVersion/.test(head) || /<!DOCTYPE (?:items|issues)/.test(head)
  );
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

function burpParts(xml: string, edits: Edit[]): { parts: Part[]; masked: string } {
  const itemStarts = [...xml.matchAll(BURP_ITEM)].map((m) => m.index);
  const parts: Part[] = [];
  let masked = '';
  let last = 0;
  for (const m of xml.matchAll(BURP_MESSAGE)) {
    const [whole, tag = '', attrs = ''] = m;
    const cdata = m[3] !== undefined;
    const content = m[3] ?? m[4] ?? '';
    const contentStart = m.index + whole.indexOf(content, tag.length + attrs.length + 2);
    const item = itemStarts.filter((s) => s < m.index).length;
    const base64 = /base64\s*=\s*"true"/.test(attrs);
    const bytes = base64 ? Buffer.from(content.replace(/\s+/g, ''), 'base64') : null;
    const text = bytes ? bytes.toString(looksLikeText(bytes) ? 'utf8' : 'latin1') : content;
    const encoding: BufferEncoding = bytes && !looksLikeText(bytes) ? 'latin1' : 'utf8';
    masked += xml.slice(last, contentStart) + ' '.repeat(content.length);
    last = contentStart + content.length;
    if (text.trim() === '') continue;
    parts.push({
      where: `item ${Math.max(1, item)}, ${tag}`,
      text,
      valueStart: 0,
      write: (v) => {
        const raw = base64 ? Buffer.from(v, encoding).toString('base64') : v;
        edits.push({
          start: contentStart,
          end: contentStart + content.length,
          text: cdata ? raw.replace(/]]>/g, ']]]]><![CDATA[>') : raw,
        });
      },
    });
  }
  masked += xml.slice(last);
  return { parts, masked };
}

async function scanBurp(xml: string, options: FileScanOptions): Promise<FileScan> {
  const edits: Edit[] = [];
  const { parts, masked } = burpParts(xml, edits);
  // The XML around the messages (URLs, paths, issue text), with the messages blanked out so
  // that offsets still point into the original.
  const around = await scanLargeText(masked, options);
  const structured = await scanParts(
    'burp',
    parts,
    () => {
      const sorted = [...edits].sort((a, b) => b.start - a.start);
      let out = xml;
      for (const e of sorted) out = out.slice(0, e.start) + e.text + out.slice(e.end);
      return Buffer.from(out, 'utf8');
    },
    options,
  );
  return {
    format: 'burp',
    findings: [...around.map((f) => ({ ...f, where: `line ${f.line}` })), ...structured.findings],
    redact: async (fingerprints) => {
      for (const f of pick(around, fingerprints).sort((a, b) => b.start - a.start)) {
        edits.push({ start: f.start, end: f.end, text: redactionMark(f.kind) });
      }
      return structured.redact(fingerprints);
    },
  };
}

// ---- the file -------------------------------------------------------------------------------

/**
 * Scans a file's bytes as what they hold. Each `redact` reads the file afresh, so the scan can be
 * kept (cached) and redacted from any number of times.
 */
export async function scanFile(bytes: Buffer, options: FileScanOptions = {}): Promise<FileScan> {
  const first = await read(bytes, options);
  return {
    format: first.format,
    findings: first.findings,
    redact: async (fingerprints) => {
      if (![...fingerprints].length) return bytes;
      const fresh = await read(bytes, { ...options, onProgress: undefined });
      return fresh.redact(fingerprints);
    },
  };
}

/**
 * Text files from this size are scanned in a streaming pass with bounded memory (any size); a HAR
 * or a Burp export is read whole up to `WHOLE_STRUCTURED_BYTES` (it is walked part by part, base64
 * decoded), and beyond that streamed as text too, its base64 parts left encoded.
 */
export const STREAM_FROM_BYTES = 1024 * 1024;
export const WHOLE_STRUCTURED_BYTES = 64 * 1024 * 1024;

/** Scans the file at `path`: whole when small or structured, in overlapping windows otherwise. */
export async function scanFileAt(path: string, options: FileScanOptions = {}): Promise<FileScan> {
  const handle = await open(path, 'r');
  const sniff = Buffer.alloc(SNIFF_BYTES);
  let size: number;
  let length: number;
  try {
    size = (await handle.stat()).size;
    ({ bytesRead: length } = await handle.read(sniff, 0, SNIFF_BYTES, 0));
  } finally {
    await handle.close();
  }
  const head = sniff.subarray(0, length);
  if (size <= STREAM_FROM_BYTES) return scanFile(await readFile(path), options);
  if (!looksLikeText(head)) {
    return { format: 'binary', findings: [], redact: () => readFile(path) };
  }
  const start = decodeText(head);
  const structured = /^\s*\{[\s\S]*"log"\s*:/.test(start) || isBurpExport(start);
  if (structured && size <= WHOLE_STRUCTURED_BYTES) return scanFile(await readFile(path), options);
  const findings = await scanTextFile(path, options);
  const redactToFile = (fingerprints: ReadonlySet<string>, outPath: string): Promise<void> =>
    redactTextFile(path, pick(findings, fingerprints), outPath);
  return {
    format: 'text',
    findings: findings.map((f) => ({ ...f, where: `line ${f.line}` })),
    redactToFile,
    redact: async (fingerprints) => {
      const out = join(tmpdir(), `bounty-desk-redact-${randomUUID()}`);
      try {
        await redactToFile(fingerprints, out);
        return await readFile(out);
      } finally {
        await rm(out, { force: true });
      }
    },
  };
}

async function read(bytes: Buffer, options: FileScanOptions): Promise<Reading> {
  if (!looksLikeText(bytes)) {
    return { format: 'binary', findings: [], redact: () => Promise.resolve(bytes) };
  }
  const text = decodeText(bytes);
  const har = parseHarObject(text);
  if (har) {
    const indent = /^\s*\{\s*\n(\s+)"/.exec(text)?.[1] ?? '';
    return scanParts(
      'har',
      harParts(har),
      () => Buffer.from(`${JSON.stringify(har, null, indent.length || undefined)}\n`, 'utf8'),
      { ...options, ext: '.json' },
    );
  }
  if (isBurpExport(text)) return scanBurp(text, options);
  return scanPlain(text, options);
}

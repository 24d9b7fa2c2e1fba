/**
 * The credential scan of a text file too large to hold whole ("no size limit"): read in
 * windows of about 1 MiB, each starting with the last 64 KiB of the one before, so a secret that
 * straddles a window's edge (anything up to 64 KiB long) lies whole in one window. Memory stays
 * bounded by the window, whatever the file's size; redaction streams the same way into a new file.
 *
 * Offsets are in UTF-16 code units of the whole decoded text, as `scanText` gives them for a
 * string, so a finding of this scan and of a whole-text scan of the same file agree.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { redactionMark } from '@shared/evidence/redaction-mark';
import { scanText, type ScanOptions, type SecretFinding } from './scan';
import { mergeOverlapping } from '@shared/rules/spans';

/** How much text one rules pass reads (plus the overlap carried from the previous window). */
export const WINDOW_CHARS = 1024 * 1024;
/** What each window repeats of the one before: the longest secret found across an edge. */
export const OVERLAP_CHARS = 64 * 1024;
const READ_BYTES = 256 * 1024;

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** The encoding a byte order mark says, and how many bytes the mark takes. */
export function encodingOf(head: Uint8Array): { encoding: TextEncoding; bom: number } {
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bom: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bom: 2 };
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf)
    return { encoding: 'utf-8', bom: 3 };
  return { encoding: 'utf-8', bom: 0 };
}

export interface StreamScanOptions extends ScanOptions {
  onProgress?: (doneBytes: number, totalBytes: number) => void;
  /** Window and overlap sizes: for tests that cross many edges with little text. */
  windowChars?: number;
  overlapChars?: number;
}

/** The file's decoded text, piece by piece, with the bytes read so far. */
async function* decoded(
  path: string,
  encoding: TextEncoding,
  bom: number,
): AsyncGenerator<{ text: string; bytes: number }> {
  // TextDecoder has no 'utf-16be' in every runtime: swap the bytes and read it as LE.
  const decoder = new TextDecoder(encoding === 'utf-16be' ? 'utf-16le' : encoding);
  let bytes = bom;
  let odd: Buffer | null = null;
  for await (const raw of createReadStream(path, { start: bom, highWaterMark: READ_BYTES })) {
    let chunk = raw as Buffer;
    bytes += chunk.length;
    if (encoding === 'utf-16be') {
      chunk = odd ? Buffer.concat([odd, chunk]) : Buffer.from(chunk);
      odd = chunk.length % 2 ? chunk.subarray(chunk.length - 1) : null;
      chunk = chunk.subarray(0, chunk.length - (odd ? 1 : 0));
      chunk.swap16();
    }
    yield { text: decoder.decode(chunk, { stream: true }), bytes };
  }
  yield { text: decoder.decode(), bytes };
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Findings of several windows as one list: the same span once, a cut-short span in the whole. */
function mergeWindows(found: SecretFinding[]): SecretFinding[] {
  return mergeOverlapping(found, (kept, next) =>
    next.end - next.start > kept.end - kept.start ? next : kept,
  );
}

/** Scans a text file of any size in overlapping windows; bounded memory. */
export async function scanTextFile(
  path: string,
  options: StreamScanOptions = {},
): Promise<SecretFinding[]> {
  const window = options.windowChars ?? WINDOW_CHARS;
  const overlap = options.overlapChars ?? OVERLAP_CHARS;
  const handle = await open(path, 'r');
  let total: number;
  let head: Buffer;
  try {
    total = (await handle.stat()).size;
    head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  const { encoding, bom } = encodingOf(head);
  const found: SecretFinding[] = [];
  let text = '';
  let textStart = 0; // offset of text[0] in the whole decoded file
  let textLine = 1; // line number of text[0]
  const scanWindow = async (end: number): Promise<void> => {
    for (const f of await scanText(text.slice(0, end), options)) {
      found.push({
        ...f,
        start: f.start + textStart,
        end: f.end + textStart,
        line: f.line + textLine - 1,
      });
    }
  };
  for await (const piece of decoded(path, encoding, bom)) {
    text += piece.text;
    while (text.length >= window + overlap) {
      // End at a line break near the window's end when there is one: a line is read whole.
      const nl = text.lastIndexOf('\n', window + overlap - 1);
      const end = nl >= window ? nl + 1 : window + overlap;
      await scanWindow(end);
      // The next window repeats at least `overlap` characters, from a line's start if it can.
      const back = text.lastIndexOf('\n', end - overlap - 1) + 1;
      const cut = back > 0 && end - back <= 2 * overlap ? back : end - overlap;
      textLine += countLines(text, 0, cut);
      textStart += cut;
      text = text.slice(cut);
    }
    options.onProgress?.(piece.bytes, total);
  }
  if (text.length > 0) await scanWindow(text.length);
  return mergeWindows(found);
}

/**
 * Writes the file with each finding's span replaced by `[REDACTED:<kind>]`, reading and writing
 * in pieces. Text goes out as UTF-8 (a UTF-16 file keeps its byte order mark and encoding).
 */
export async function redactTextFile(
  path: string,
  findings: readonly Pick<SecretFinding, 'start' | 'end' | 'kind'>[],
  outPath: string,
): Promise<void> {
  const handle = await open(path, 'r');
  const head = Buffer.alloc(4);
  try {
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  const { encoding, bom } = encodingOf(head);
  const spans = [...findings].sort((a, b) => a.start - b.start);
  const out = createWriteStream(outPath, { flags: 'wx', mode: 0o600 });
  const write = (s: string): Promise<void> => {
    if (s === '') return Promise.resolve();
    if (encoding === 'utf-8') return writeOut(out, Buffer.from(s, 'utf8'));
    const bytes = Buffer.from(s, 'utf16le');
    return writeOut(out, encoding === 'utf-16be' ? bytes.swap16() : bytes);
  };
  if (bom > 0) await writeOut(out, head.subarray(0, bom));
  let pos = 0; // offset of the piece's first character in the decoded text
  let span = 0;
  let skipUntil = 0; // the end of the span last marked
  for await (const { text } of decoded(path, encoding, bom)) {
    let at = 0;
    while (at < text.length) {
      const abs = pos + at;
      if (abs < skipUntil) {
        at = Math.min(text.length, skipUntil - pos);
        continue;
      }
      const next = spans[span];
      if (next && next.start <= abs) {
        if (next.start === abs) await write(redactionMark(next.kind));
        skipUntil = Math.max(skipUntil, next.end);
        span += 1;
        continue;
      }
      const stop = next ? Math.min(text.length, next.start - pos) : text.length;
      await write(text.slice(at, stop));
      at = stop;
    }
    pos += text.length;
  }
  out.end();
  await finished(out);
}

function writeOut(out: Writable, bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    if (out.write(bytes)) resolve();
    else {
      out.once('drain', resolve);
      out.once('error', reject);
    }
  });
}

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
import { isBurpExport, scanBurp } from './burp-scan';
import { pickFindings, scanLargeText } from './chunked-text';
import type { FileScan, FileScanOptions } from './file-scan-types';
import { harParts, parseHarObject } from './har-parts';
import { redact } from './scan';
import { scanTextFile, redactTextFile } from './stream-scan';
import { scanParts } from './structured-parts';
import { decodeText, looksLikeText, SNIFF_BYTES } from './text-sniff';

export type { FileFinding, FileFormat, FileScan, FileScanOptions } from './file-scan-types';

/** A scan of one reading of the file: `redact` may be applied once (it edits that reading). */
type Reading = FileScan;

async function scanPlain(text: string, options: FileScanOptions): Promise<FileScan> {
  const findings = await scanLargeText(text, options);
  return {
    format: 'text',
    findings: findings.map((f) => ({ ...f, where: `line ${f.line}` })),
    redact: (fingerprints) =>
      Promise.resolve(Buffer.from(redact(text, pickFindings(findings, fingerprints)), 'utf8')),
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
    redactTextFile(path, pickFindings(findings, fingerprints), outPath);
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

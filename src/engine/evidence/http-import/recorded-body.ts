/**
 * Bodies as HTTP recording libraries keep them: Polly.js and nock write compressed or binary
 * bodies as hex (`_isBinary`, `"encoding": "hex"`) or base64, often as a JSON list of chunks
 * (`["1f8b08…", …]`); Burp and mitmproxy keep the bytes as the server sent them. The bytes are
 * found, a `Content-Encoding` the bytes really carry is undone (node:zlib), and the result is
 * text or a binary label: a hex or base64 run is never shown as the body.
 */
import zlib from 'node:zlib';
import { looksLikeBodyText } from './body-text';

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64 = /^[A-Za-z0-9+/\r\n]+={0,2}$/;

/** A JSON list of string chunks (`["…","…"]`), or null. */
function chunks(text: string): string[] | null {
  const t = text.trim();
  if (!t.startsWith('["') || !t.endsWith('"]')) return null;
  try {
    const value: unknown = JSON.parse(t);
    return Array.isArray(value) && value.every((v) => typeof v === 'string')
      ? (value as string[])
      : null;
  } catch {
    return null;
  }
}

export type RecordedEncoding = 'base64' | 'hex' | 'text';

export interface RecordedBytes {
  bytes: Buffer;
  /** How the bytes are written in the recording, to write a redacted body back the same way. */
  encoding: RecordedEncoding;
  /** The body was a JSON list of chunks. */
  chunked: boolean;
}

/** Magic numbers of compressed streams a server sends (gzip, zlib, zstd). */
export function looksCompressed(bytes: Uint8Array): boolean {
  return (
    (bytes[0] === 0x1f && bytes[1] === 0x8b) ||
    (bytes[0] === 0x78 && [0x01, 0x5e, 0x9c, 0xda].includes(bytes[1] ?? 0)) ||
    (bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd)
  );
}

/** Magic numbers of files a hex run may hold (PNG, JPEG, GIF, PDF, zip, WebAssembly). */
function looksLikeFile(bytes: Uint8Array): boolean {
  const starts = (...magic: number[]): boolean => magic.every((b, i) => bytes[i] === b);
  return (
    starts(0x89, 0x50, 0x4e, 0x47) || // PNG
    starts(0xff, 0xd8, 0xff) || // JPEG
    starts(0x47, 0x49, 0x46, 0x38) || // GIF8
    starts(0x25, 0x50, 0x44, 0x46) || // %PDF
    starts(0x50, 0x4b, 0x03, 0x04) || // zip
    starts(0x00, 0x61, 0x73, 0x6d) // WebAssembly
  );
}

/**
 * The bytes of a HAR `content` (or `postData`) as the recorder wrote them: base64 when it says
 * so, hex when Polly.js says `_isBinary` or `"encoding": "hex"`, chunk lists joined; a bare
 * hex run that holds a compressed stream is read as hex too (Polly.js before v6 wrote no flag).
 * Null for a body kept as text.
 */
export function recordedBytes(owner: Record<string, unknown>): RecordedBytes | null {
  const text = owner.text;
  if (typeof text !== 'string' || text === '') return null;
  const list = chunks(text);
  const parts = list ?? [text];
  const encoding = typeof owner.encoding === 'string' ? owner.encoding.toLowerCase() : '';
  const chunked = list !== null;
  if (encoding === 'base64' && parts.every((p) => BASE64.test(p) || p === ''))
    return {
      bytes: Buffer.concat(parts.map((p) => Buffer.from(p, 'base64'))),
      encoding: 'base64',
      chunked,
    };
  const hex = parts.every((p) => HEX.test(p) || p === '');
  if (!hex) return null;
  const bytes = Buffer.concat(parts.map((p) => Buffer.from(p, 'hex')));
  const flagged = encoding === 'hex' || owner._isBinary === true;
  // A bare hex run is only bytes when what it holds is clearly not text (a magic number).
  if (flagged || (text.length >= 32 && (looksCompressed(bytes) || looksLikeFile(bytes) || chunked)))
    return { bytes, encoding: 'hex', chunked };
  return null;
}

/** Writes bytes back as the recording held them. */
export function writeRecorded(bytes: Buffer, how: RecordedBytes): string {
  const text = bytes.toString(
    how.encoding === 'hex' ? 'hex' : how.encoding === 'base64' ? 'base64' : 'utf8',
  );
  return how.chunked ? JSON.stringify([text]) : text;
}

type Coding = 'gzip' | 'deflate' | 'br' | 'zstd';

function codingsOf(header: string | undefined): Coding[] | null {
  if (!header) return [];
  const list = header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity')
    .map((c) => (c === 'x-gzip' ? 'gzip' : c));
  return list.every((c) => ['gzip', 'deflate', 'br', 'zstd'].includes(c))
    ? (list as Coding[])
    : null;
}

function undo(bytes: Buffer, coding: Coding): Buffer {
  if (coding === 'gzip') return zlib.gunzipSync(bytes);
  if (coding === 'br') return zlib.brotliDecompressSync(bytes);
  if (coding === 'zstd') {
    const zstd = (zlib as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
    if (!zstd) throw new Error('zstd is not available');
    return zstd(bytes);
  }
  // `deflate` is a zlib stream by the RFC; some servers send raw deflate.
  try {
    return zlib.inflateSync(bytes);
  } catch {
    return zlib.inflateRawSync(bytes);
  }
}

export interface Decoded {
  bytes: Buffer;
  /** The codings undone, in the order the header names them (empty when none were). */
  undone: string[];
  /** The header names a coding the bytes carry but it could not be undone. */
  failed: string | null;
}

/**
 * The body with its `Content-Encoding` undone when the bytes really are encoded: browsers record
 * the decoded body under the same header, so bytes that are already text stay as they are.
 */
export function decodeContent(bytes: Buffer, contentEncoding: string | undefined): Decoded {
  const codings = codingsOf(contentEncoding);
  if (!codings || codings.length === 0 || bytes.length === 0)
    return { bytes, undone: [], failed: null };
  let out = bytes;
  try {
    for (const coding of [...codings].reverse()) out = undo(out, coding);
    return { bytes: out, undone: codings, failed: null };
  } catch {
    // Already decoded (a browser's HAR), or damaged: the bytes as recorded.
    const encoded = looksCompressed(bytes) || !looksLikeBodyText(bytes);
    return { bytes, undone: [], failed: encoded ? codings.join(', ') : null };
  }
}

/** Encodes again what `decodeContent` undid, so a redacted body is written back as recorded. */
export function encodeContent(bytes: Buffer, undone: string[]): Buffer {
  let out = bytes;
  for (const coding of undone) {
    if (coding === 'gzip') out = zlib.gzipSync(out);
    else if (coding === 'br') out = zlib.brotliCompressSync(out);
    else if (coding === 'deflate') out = zlib.deflateSync(out);
    else {
      const zstd = (zlib as { zstdCompressSync?: (b: Buffer) => Buffer }).zstdCompressSync;
      if (!zstd) throw new Error('zstd is not available');
      out = zstd(out);
    }
  }
  return out;
}

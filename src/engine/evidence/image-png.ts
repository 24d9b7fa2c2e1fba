/**
 * PNG metadata: eXIf, tEXt, iTXt, zTXt and tIME chunks. The orientation stays where the original
 * kept it, alone: in eXIf, in ImageMagick's `Raw profile type exif`/`APP1` text chunk, or in an
 * XMP packet (`XML:com.adobe.xmp`, `Raw profile type xmp`), so each reader that turned the
 * original turns the copy the same way.
 */
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import {
  EXIF_HEADER,
  onlyOrientation,
  orientationOf,
  orientationTiff,
  orientationXmp,
  xmpOrientation,
} from './exif-orientation';

const PNG_METADATA = new Set(['eXIf', 'tEXt', 'iTXt', 'zTXt', 'tIME']);

function pngChunks(bytes: Buffer): { kind: string; start: number; end: number }[] {
  const chunks: { kind: string; start: number; end: number }[] = [];
  for (let at = 8; at + 12 <= bytes.length;) {
    const size = bytes.readUInt32BE(at);
    const end = Math.min(bytes.length, at + 12 + size);
    chunks.push({ kind: bytes.toString('latin1', at + 4, at + 8), start: at, end });
    at = end;
  }
  return chunks;
}

function pngChunk(kind: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(kind, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

interface TextChunk {
  keyword: string;
  text: string;
}

/** A tEXt, zTXt or iTXt chunk's keyword and text (decompressed); null when it cannot be read. */
function textChunk(kind: string, data: Buffer): TextChunk | null {
  const nul = data.indexOf(0);
  if (nul < 1) return null;
  const keyword = data.toString('latin1', 0, nul);
  try {
    if (kind === 'tEXt') return { keyword, text: data.toString('latin1', nul + 1) };
    if (kind === 'zTXt')
      return { keyword, text: inflateSync(data.subarray(nul + 2)).toString('latin1') };
    // iTXt: keyword, compression flag and method, language tag, translated keyword, UTF-8 text.
    const compressed = data[nul + 1] === 1;
    const lang = data.indexOf(0, nul + 3);
    const translated = data.indexOf(0, lang + 1);
    if (lang === -1 || translated === -1) return null;
    const body = data.subarray(translated + 1);
    return { keyword, text: (compressed ? inflateSync(body) : body).toString('utf8') };
  } catch {
    return null;
  }
}

/** ImageMagick's raw profile text: `\n<name>\n<length>\n<hex lines>`; the bytes, or null. */
function rawProfileBytes(text: string): Buffer | null {
  const m = /^\s*\n?\s*[\w-]+\s*\n\s*(\d+)\s*\n([0-9a-fA-F\s]*)$/.exec(text);
  if (!m) return null;
  const hex = (m[2] ?? '').replace(/\s+/g, '');
  const bytes = Buffer.from(hex.length % 2 ? hex.slice(0, -1) : hex, 'hex');
  return bytes.subarray(0, Number(m[1]));
}

function rawProfileText(name: string, bytes: Buffer): string {
  const hex = bytes.toString('hex').replace(/.{1,72}/g, (line) => `${line}\n`);
  return `\n${name}\n${String(bytes.length).padStart(8)}\n${hex}`;
}

const RAW_EXIF = /^Raw profile type (?:exif|APP1)$/i;
const RAW_XMP = /^Raw profile type xmp$/i;
const XMP_KEYWORD = 'XML:com.adobe.xmp';

/** The orientation a text chunk holds (an EXIF or XMP profile in it), or null. */
function textOrientation(chunk: TextChunk): number | null {
  if (RAW_EXIF.test(chunk.keyword)) {
    let tiff = rawProfileBytes(chunk.text);
    if (!tiff) return null;
    if (tiff.subarray(0, 6).equals(EXIF_HEADER)) tiff = tiff.subarray(6);
    return orientationOf(tiff);
  }
  if (RAW_XMP.test(chunk.keyword)) {
    const xmp = rawProfileBytes(chunk.text);
    return xmp ? xmpOrientation(xmp.toString('utf8')) : null;
  }
  if (chunk.keyword === XMP_KEYWORD) return xmpOrientation(chunk.text);
  return null;
}

/** The same kind of chunk, under the same keyword, holding the orientation and nothing else. */
function orientationTextChunk(kind: string, chunk: TextChunk, orientation: number): Buffer {
  const text = RAW_EXIF.test(chunk.keyword)
    ? rawProfileText('exif', Buffer.concat([EXIF_HEADER, orientationTiff(orientation)]))
    : RAW_XMP.test(chunk.keyword)
      ? rawProfileText('xmp', Buffer.from(orientationXmp(orientation), 'utf8'))
      : orientationXmp(orientation);
  const keyword = Buffer.from(`${chunk.keyword}\0`, 'latin1');
  if (kind === 'zTXt')
    return pngChunk(kind, Buffer.concat([keyword, Buffer.from([0]), deflateSync(text)]));
  if (kind === 'iTXt')
    return pngChunk(
      kind,
      Buffer.concat([keyword, Buffer.from([0, 0, 0, 0]), Buffer.from(text, 'utf8')]),
    );
  return pngChunk(kind, Buffer.concat([keyword, Buffer.from(text, 'latin1')]));
}

/** Whether a text chunk is exactly what `orientationTextChunk` writes. */
function isOrientationOnly(kind: string, data: Buffer): boolean {
  const chunk = textChunk(kind, data);
  const orientation = chunk ? textOrientation(chunk) : null;
  if (!chunk || orientation === null) return false;
  return orientationTextChunk(kind, chunk, orientation).subarray(8, -4).equals(data);
}

export function stripPng(bytes: Buffer): Buffer {
  const kept: Buffer[] = [bytes.subarray(0, 8)];
  let orientation: number | null = null;
  for (const c of pngChunks(bytes)) {
    const data = bytes.subarray(c.start + 8, c.end - 4);
    if (c.kind === 'eXIf') orientation = orientationOf(data);
    if (c.kind === 'tEXt' || c.kind === 'zTXt' || c.kind === 'iTXt') {
      const chunk = textChunk(c.kind, data);
      const turned = chunk ? textOrientation(chunk) : null;
      if (chunk && turned !== null && turned !== 1)
        kept.push(orientationTextChunk(c.kind, chunk, turned));
      continue;
    }
    if (PNG_METADATA.has(c.kind)) continue;
    // The orientation goes before the image data, where eXIf belongs.
    if (c.kind === 'IDAT' && orientation && orientation !== 1) {
      kept.push(pngChunk('eXIf', orientationTiff(orientation)));
      orientation = null;
    }
    kept.push(bytes.subarray(c.start, c.end));
  }
  return Buffer.concat(kept);
}

export function pngMetadata(bytes: Buffer): string[] {
  const found = new Set<string>();
  for (const c of pngChunks(bytes)) {
    const data = bytes.subarray(c.start + 8, c.end - 4);
    if (c.kind === 'eXIf' && onlyOrientation(data)) continue;
    if (
      (c.kind === 'tEXt' || c.kind === 'zTXt' || c.kind === 'iTXt') &&
      isOrientationOnly(c.kind, data)
    )
      continue;
    if (PNG_METADATA.has(c.kind)) found.add(c.kind === 'eXIf' ? 'EXIF' : `${c.kind} text`);
  }
  return [...found];
}

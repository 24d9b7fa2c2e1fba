/**
 * Evidence images (issue 13, part 5; issue 19). Only raster formats whose magic bytes say so are
 * shown by this app: PNG, JPEG, GIF and WebP. SVG (a document that can carry script) and anything
 * else are files, never shown. Before one of those four is stored for upload, every metadata
 * block goes, by walking the format's own blocks:
 *
 * - JPEG: every APPn segment but JFIF (without its thumbnail), the ICC colour profile and Adobe's
 *   colour-transform flag; so EXIF (GPS, serials, thumbnail), XMP, IPTC/Photoshop (APP13), MPF
 *   previews, maker notes, and COM comments go, and so does anything after the image's end.
 * - PNG: eXIf, tEXt, iTXt, zTXt and tIME chunks.
 * - WebP: EXIF and XMP chunks.
 * - GIF: comment extensions and application extensions other than animation looping (XMP).
 *
 * The orientation stays: when the original says "rotate" (EXIF Orientation 2–8), the copy gets
 * a new EXIF block holding that one tag and nothing else, so it displays as the original did.
 *
 * - HEIC/HEIF and AVIF (`image-heif.ts`): Exif and XMP items overwritten in place with neutral
 *   content; TIFF (`image-tiff.ts`): every tag that does not draw the picture goes.
 *
 * A file whose structure does not add up is left as it is and the checklist names it "metadata
 * not removed": never passed as clean.
 */
import { randomUUID } from 'node:crypto';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { heifMetadata, stripHeif, type HeifTools } from './image-heif';
import { stripTiff, tiffMetadata } from './image-tiff';

export type RasterType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
/** Images kept as files (never shown by the app) whose metadata is cleaned in place. */
export type ContainerImage = 'image/heic' | 'image/avif' | 'image/tiff';

const starts = (bytes: Uint8Array, at: number, signature: number[]): boolean =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

/** The raster type the bytes really are, whatever the file name says; null for anything else. */
export function rasterTypeOf(bytes: Uint8Array): RasterType | null {
  if (starts(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts(bytes, 0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts(bytes, 0, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39))
    return 'image/gif';
  if (starts(bytes, 0, [0x52, 0x49, 0x46, 0x46]) && starts(bytes, 8, [0x57, 0x45, 0x42, 0x50]))
    return 'image/webp';
  return null;
}

const HEIF_BRANDS = ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'];

/** HEIC/HEIF, AVIF (ISO-BMFF `ftyp` brands) and TIFF (`II*\0`, `MM\0*`). */
export function containerImageOf(bytes: Uint8Array): ContainerImage | null {
  if (starts(bytes, 0, [0x49, 0x49, 0x2a, 0x00]) || starts(bytes, 0, [0x4d, 0x4d, 0x00, 0x2a]))
    return 'image/tiff';
  if (bytes.length < 12 || !starts(bytes, 4, [0x66, 0x74, 0x79, 0x70])) return null;
  const size = Math.min(bytes.length, new DataView(bytes.buffer, bytes.byteOffset).getUint32(0));
  const brands: string[] = [];
  for (let at = 8; at + 4 <= size; at += 4) {
    if (at === 12) continue; // minor version
    brands.push(String.fromCharCode(...bytes.subarray(at, at + 4)));
  }
  if (brands.some((b) => b === 'avif' || b === 'avis')) return 'image/avif';
  if (brands.some((b) => HEIF_BRANDS.includes(b))) return 'image/heic';
  return null;
}

// ---- EXIF orientation ---------------------------------------------------------------------

/** The Orientation tag (0x0112) of IFD0 in a TIFF structure (EXIF's body); null if absent. */
export function orientationOf(tiff: Uint8Array): number | null {
  if (tiff.length < 8) return null;
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const little = tiff[0] === 0x49;
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > tiff.length) return null;
  const entries = view.getUint16(ifd, little);
  for (let i = 0; i < entries; i++) {
    const at = ifd + 2 + i * 12;
    if (at + 12 > tiff.length) return null;
    if (view.getUint16(at, little) === 0x0112) {
      const value = view.getUint16(at + 8, little);
      return value >= 1 && value <= 8 ? value : null;
    }
  }
  return null;
}

/** A TIFF structure holding one tag, Orientation, and nothing else. */
function orientationTiff(orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(0x0112, 10);
  tiff.writeUInt16BE(3, 12); // SHORT
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  tiff.writeUInt32BE(0, 22); // no next IFD: no thumbnail
  return tiff;
}

/** A TIFF structure with an empty IFD0: EXIF that says nothing. */
function emptyTiff(): Buffer {
  const tiff = Buffer.alloc(14);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  return tiff; // 0 entries, no next IFD
}

/** Whether a TIFF structure is exactly what `orientationTiff` writes: nothing that identifies. */
function onlyOrientation(tiff: Uint8Array): boolean {
  if (tiff.length < 26) return false;
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const little = tiff[0] === 0x49;
  const ifd = view.getUint32(4, little);
  if (ifd + 18 > tiff.length) return false;
  return (
    view.getUint16(ifd, little) === 1 &&
    view.getUint16(ifd + 2, little) === 0x0112 &&
    view.getUint32(ifd + 14, little) === 0
  );
}

const HEIF_TOOLS: HeifTools = { orientationOf, orientationTiff, emptyTiff, onlyOrientation };

const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');
const XMP_NS = Buffer.from('http://ns.adobe.com/xap', 'latin1');

// ---- JPEG ---------------------------------------------------------------------------------

interface Segment {
  marker: number;
  start: number;
  end: number;
}

/** The segments before the first scan (SOS), and where the scan starts. */
function jpegSegments(bytes: Buffer): { segments: Segment[]; scan: number } | null {
  const segments: Segment[] = [];
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xda) return { segments, scan: at };
    const length = bytes.readUInt16BE(at + 2);
    segments.push({ marker, start: at, end: Math.min(bytes.length, at + 2 + length) });
    at += 2 + length;
  }
  return null;
}

/** The end of the image (after EOI): in entropy-coded data 0xFF is never followed by 0xD9. */
function jpegEnd(bytes: Buffer, scan: number): number {
  const eoi = bytes.indexOf(Buffer.from([0xff, 0xd9]), scan);
  return eoi === -1 ? bytes.length : eoi + 2;
}

const body = (bytes: Buffer, s: Segment): Buffer => bytes.subarray(s.start + 4, s.end);

function isApp(marker: number): boolean {
  return marker >= 0xe0 && marker <= 0xef;
}

/** JFIF with its thumbnail cut (the 16-byte form), ICC profiles and Adobe's flag: kept. */
function keptAppSegment(bytes: Buffer, s: Segment): Buffer | null {
  const data = body(bytes, s);
  if (s.marker === 0xe0 && data.subarray(0, 5).toString('latin1') === 'JFIF\0') {
    if (data.length <= 14) return bytes.subarray(s.start, s.end);
    const jfif = Buffer.from(bytes.subarray(s.start, s.start + 18));
    jfif.writeUInt16BE(16, 2);
    jfif[16] = 0; // thumbnail width
    jfif[17] = 0; // thumbnail height
    return jfif;
  }
  if (s.marker === 0xe2 && data.subarray(0, 12).toString('latin1') === 'ICC_PROFILE\0')
    return bytes.subarray(s.start, s.end);
  if (s.marker === 0xee && data.subarray(0, 5).toString('latin1') === 'Adobe')
    return bytes.subarray(s.start, s.end);
  return null;
}

function jpegOrientation(bytes: Buffer, segments: Segment[]): number | null {
  for (const s of segments) {
    const data = body(bytes, s);
    if (s.marker === 0xe1 && data.subarray(0, 6).equals(EXIF_HEADER))
      return orientationOf(data.subarray(6));
  }
  return null;
}

function exifApp1(orientation: number): Buffer {
  const payload = Buffer.concat([EXIF_HEADER, orientationTiff(orientation)]);
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

function stripJpeg(bytes: Buffer): Buffer {
  const parsed = jpegSegments(bytes);
  if (!parsed) return bytes;
  const { segments, scan } = parsed;
  const orientation = jpegOrientation(bytes, segments);
  const kept: Buffer[] = [bytes.subarray(0, 2)];
  let orientationWritten = !orientation || orientation === 1;
  for (const s of segments) {
    if (s.marker === 0xfe) continue; // COM
    if (isApp(s.marker)) {
      const app = keptAppSegment(bytes, s);
      if (app) kept.push(app);
      // EXIF goes right after JFIF, as cameras write it.
      if (!orientationWritten && s.marker === 0xe0 && app) {
        kept.push(exifApp1(orientation ?? 1));
        orientationWritten = true;
      }
      continue;
    }
    if (!orientationWritten) {
      kept.push(exifApp1(orientation ?? 1));
      orientationWritten = true;
    }
    kept.push(bytes.subarray(s.start, s.end));
  }
  kept.push(bytes.subarray(scan, jpegEnd(bytes, scan)));
  return Buffer.concat(kept);
}

function jpegMetadata(bytes: Buffer): string[] {
  const parsed = jpegSegments(bytes);
  if (!parsed) return [];
  const found = new Set<string>();
  for (const s of parsed.segments) {
    const data = body(bytes, s);
    if (s.marker === 0xfe) found.add('comment');
    else if (s.marker === 0xe1 && data.subarray(0, 6).equals(EXIF_HEADER)) {
      if (!onlyOrientation(data.subarray(6))) found.add('EXIF');
    } else if (s.marker === 0xe1 && data.includes(XMP_NS)) found.add('XMP');
    else if (s.marker === 0xed) found.add('IPTC/Photoshop');
    else if (s.marker === 0xe0 && data.subarray(0, 5).toString('latin1') === 'JFXX')
      found.add('thumbnail');
    else if (s.marker === 0xe0 && data.subarray(0, 5).toString('latin1') === 'JFIF\0') {
      if ((data[12] ?? 0) * (data[13] ?? 0) > 0) found.add('thumbnail');
    } else if (isApp(s.marker) && !keptAppSegment(bytes, s)) found.add(`APP${s.marker - 0xe0}`);
  }
  if (jpegEnd(bytes, parsed.scan) < bytes.length) found.add('data after the image');
  return [...found];
}

// ---- PNG ----------------------------------------------------------------------------------

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

function stripPng(bytes: Buffer): Buffer {
  const kept: Buffer[] = [bytes.subarray(0, 8)];
  let orientation: number | null = null;
  for (const c of pngChunks(bytes)) {
    if (c.kind === 'eXIf') orientation = orientationOf(bytes.subarray(c.start + 8, c.end - 4));
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

function pngMetadata(bytes: Buffer): string[] {
  const found = new Set<string>();
  for (const c of pngChunks(bytes)) {
    if (c.kind === 'eXIf' && onlyOrientation(bytes.subarray(c.start + 8, c.end - 4))) continue;
    if (PNG_METADATA.has(c.kind)) found.add(c.kind === 'eXIf' ? 'EXIF' : `${c.kind} text`);
  }
  return [...found];
}

// ---- WebP ---------------------------------------------------------------------------------

const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

function webpChunks(bytes: Buffer): { kind: string; start: number; end: number }[] {
  const chunks: { kind: string; start: number; end: number }[] = [];
  for (let at = 12; at + 8 <= bytes.length;) {
    const size = bytes.readUInt32LE(at + 4);
    const end = Math.min(bytes.length, at + 8 + size + (size % 2));
    chunks.push({ kind: bytes.toString('latin1', at, at + 4), start: at, end });
    at = end;
  }
  return chunks;
}

/** A RIFF container is a list of chunks (fourcc, size LE, data, pad to even). */
function stripWebp(bytes: Buffer): Buffer {
  let orientation: number | null = null;
  for (const c of webpChunks(bytes)) {
    if (c.kind !== 'EXIF') continue;
    let data = bytes.subarray(c.start + 8, c.end);
    if (data.subarray(0, 6).equals(EXIF_HEADER)) data = data.subarray(6);
    orientation = orientationOf(data);
  }
  const rotate = orientation !== null && orientation !== 1;
  const kept: Buffer[] = [];
  for (const c of webpChunks(bytes)) {
    if (c.kind === 'VP8X' && c.end - c.start >= 9) {
      const chunk = Buffer.from(bytes.subarray(c.start, c.end));
      chunk[8] = ((chunk[8] ?? 0) & ~(VP8X_EXIF | VP8X_XMP)) | (rotate ? VP8X_EXIF : 0);
      kept.push(chunk);
    } else if (c.kind !== 'EXIF' && c.kind !== 'XMP ') {
      kept.push(bytes.subarray(c.start, c.end));
    }
  }
  if (rotate) {
    const tiff = orientationTiff(orientation ?? 1);
    const head = Buffer.alloc(8);
    head.write('EXIF', 0, 'latin1');
    head.writeUInt32LE(tiff.length, 4);
    kept.push(head, tiff);
  }
  const riff = Buffer.concat([bytes.subarray(8, 12), ...kept]);
  const head = Buffer.alloc(8);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(riff.length, 4);
  return Buffer.concat([head, riff]);
}

function webpMetadata(bytes: Buffer): string[] {
  const found = new Set<string>();
  for (const c of webpChunks(bytes)) {
    if (c.kind === 'XMP ') found.add('XMP');
    if (c.kind === 'EXIF') {
      let data = bytes.subarray(c.start + 8, c.end);
      if (data.subarray(0, 6).equals(EXIF_HEADER)) data = data.subarray(6);
      if (!onlyOrientation(data)) found.add('EXIF');
    }
  }
  return [...found];
}

// ---- GIF ----------------------------------------------------------------------------------

/** Application extensions that only say how an animation loops. */
const GIF_LOOPING = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0']);

interface GifBlock {
  start: number;
  end: number;
  /** `comment`, `application:<id>` or null for image data and other extensions. */
  metadata: string | null;
}

function gifSubBlocksEnd(bytes: Buffer, at: number): number {
  let i = at;
  while (i < bytes.length) {
    const size = bytes[i] ?? 0;
    i += 1 + size;
    if (size === 0) break;
  }
  return Math.min(i, bytes.length);
}

function gifBlocks(bytes: Buffer): { head: number; blocks: GifBlock[] } | null {
  if (bytes.length < 13) return null;
  const flags = bytes[10] ?? 0;
  let at = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  const head = at;
  const blocks: GifBlock[] = [];
  while (at < bytes.length) {
    const start = at;
    const kind = bytes[at];
    if (kind === 0x3b) {
      blocks.push({ start, end: at + 1, metadata: null });
      break;
    }
    if (kind === 0x21) {
      const label = bytes[at + 1];
      let metadata: string | null = null;
      if (label === 0xfe) metadata = 'comment';
      if (label === 0xff) {
        const id = bytes.toString('latin1', at + 3, at + 3 + (bytes[at + 2] ?? 0));
        if (!GIF_LOOPING.has(id)) metadata = `application ${id}`;
      }
      const end = gifSubBlocksEnd(bytes, at + 2);
      blocks.push({ start, end, metadata });
      at = end;
    } else if (kind === 0x2c) {
      const local = bytes[at + 9] ?? 0;
      const data = at + 10 + (local & 0x80 ? 3 * 2 ** ((local & 0x07) + 1) : 0) + 1;
      const end = gifSubBlocksEnd(bytes, data);
      blocks.push({ start, end, metadata: null });
      at = end;
    } else {
      return null; // not a GIF block: leave the file as it is
    }
  }
  return { head, blocks };
}

function stripGif(bytes: Buffer): Buffer {
  const parsed = gifBlocks(bytes);
  if (!parsed) return bytes;
  return Buffer.concat([
    bytes.subarray(0, parsed.head),
    ...parsed.blocks.filter((b) => !b.metadata).map((b) => bytes.subarray(b.start, b.end)),
  ]);
}

function gifMetadata(bytes: Buffer): string[] {
  return [...new Set(gifBlocks(bytes)?.blocks.flatMap((b) => (b.metadata ? [b.metadata] : [])))];
}

// ---- the API ------------------------------------------------------------------------------

/** What `imageMetadataBlocks` says of an image it cannot read (so could not clean). */
export const UNREADABLE_IMAGE = 'unreadable structure';

/** Every metadata block left in an image, by name ("EXIF", "XMP", "IPTC/Photoshop", …). */
export function imageMetadataBlocks(bytes: Buffer): string[] {
  try {
    return metadataBlocks(bytes);
  } catch {
    return [UNREADABLE_IMAGE]; // damaged: never called clean
  }
}

function metadataBlocks(bytes: Buffer): string[] {
  switch (rasterTypeOf(bytes)) {
    case 'image/jpeg':
      return jpegMetadata(bytes);
    case 'image/png':
      return pngMetadata(bytes);
    case 'image/webp':
      return webpMetadata(bytes);
    case 'image/gif':
      return gifMetadata(bytes);
    case null:
      break;
  }
  switch (containerImageOf(bytes)) {
    case 'image/heic':
    case 'image/avif':
      return heifMetadata(bytes, HEIF_TOOLS);
    case 'image/tiff':
      return tiffMetadata(bytes);
    default:
      return [];
  }
}

/**
 * Whether an image still carries metadata this app removes: what the submit checklist checks
 * on the stored copies, so its "metadata removed" is a fact about the bytes that will be sent.
 */
export function hasImageMetadata(bytes: Buffer): boolean {
  return imageMetadataBlocks(bytes).length > 0;
}

/** The image without its metadata blocks (orientation kept); other bytes unchanged. */
export function stripImageMetadata(bytes: Buffer): Promise<Buffer> {
  try {
    return Promise.resolve(strip(bytes));
  } catch {
    return Promise.resolve(bytes); // damaged: left as it is, and the checklist says so
  }
}

function strip(bytes: Buffer): Buffer {
  switch (rasterTypeOf(bytes)) {
    case 'image/jpeg':
      return stripJpeg(bytes);
    case 'image/png':
      return stripPng(bytes);
    case 'image/webp':
      return stripWebp(bytes);
    case 'image/gif':
      return stripGif(bytes);
    case null:
      break;
  }
  switch (containerImageOf(bytes)) {
    case 'image/heic':
    case 'image/avif':
      return stripHeif(bytes, HEIF_TOOLS);
    case 'image/tiff':
      return stripTiff(bytes);
    default:
      return bytes;
  }
}

/** The upload limit: larger files are refused by the caller anyway, so they are not read here. */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/**
 * For a raster image that carries metadata: a copy without it, written next to the store's other
 * temporary files (the caller imports then removes it). Null for anything else, so other files
 * are copied byte for byte.
 */
export async function imageWithoutMetadata(path: string, tmpDir: string): Promise<string | null> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(64); // an ISO-BMFF `ftyp` lists its brands within these
    const { bytesRead } = await handle.read(head, 0, 64, 0);
    const type =
      rasterTypeOf(head.subarray(0, bytesRead)) ?? containerImageOf(head.subarray(0, bytesRead));
    if (!type || (await handle.stat()).size > MAX_IMAGE_BYTES) return null;
    const bytes = await handle.readFile();
    const stripped = await stripImageMetadata(bytes);
    if (stripped.equals(bytes)) return null;
    const out = join(tmpDir, `${randomUUID()}.stripped`);
    await writeFile(out, stripped, { flag: 'wx', mode: 0o600 });
    return out;
  } finally {
    await handle.close();
  }
}

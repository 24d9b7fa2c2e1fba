/**
 * Evidence images (issue 13, part 5). Only raster formats whose magic bytes say so are images to
 * this app: PNG, JPEG, GIF and WebP. SVG (a document that can carry script) and anything else
 * are files, never shown. Before a raster image is stored for upload, its metadata goes: EXIF
 * (with GPS position, camera serials, time), XMP and PNG text chunks, by exif-be-gone.
 */
import { randomUUID } from 'node:crypto';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import ExifTransformer from 'exif-be-gone';

export type RasterType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

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

/**
 * Removes EXIF/XMP: JPEG APP1 and PNG eXIf/tEXt/iTXt/zTXt/tIME through exif-be-gone; WebP here,
 * because exif-be-gone 1.5 walks WebP chunks with PNG's framing (12 bytes, not 8) and passes
 * extended WebP files through unchanged. GIF carries no EXIF.
 */
export async function stripImageMetadata(bytes: Buffer): Promise<Buffer> {
  const type = rasterTypeOf(bytes);
  if (type === null || type === 'image/gif') return bytes;
  if (type === 'image/webp') return stripWebp(bytes);
  return buffer(Readable.from([bytes]).pipe(new ExifTransformer()));
}

const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

/** A RIFF container is a list of chunks (fourcc, size LE, data, pad to even): drop two kinds. */
function stripWebp(bytes: Buffer): Buffer {
  const kept: Buffer[] = [];
  let at = 12;
  while (at + 8 <= bytes.length) {
    const kind = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const end = Math.min(bytes.length, at + 8 + size + (size % 2));
    if (kind === 'VP8X' && end - at >= 9) {
      const chunk = Buffer.from(bytes.subarray(at, end));
      chunk[8] = (chunk[8] ?? 0) & ~(VP8X_EXIF | VP8X_XMP);
      kept.push(chunk);
    } else if (kind !== 'EXIF' && kind !== 'XMP ') {
      kept.push(bytes.subarray(at, end));
    }
    at = end;
  }
  const body = Buffer.concat([bytes.subarray(8, 12), ...kept]);
  const head = Buffer.alloc(8);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}

const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');
const XMP_NS = Buffer.from('http://ns.adobe.com/xap', 'latin1');

function webpChunks(bytes: Buffer): string[] {
  const kinds: string[] = [];
  for (let at = 12; at + 8 <= bytes.length;) {
    kinds.push(bytes.toString('latin1', at, at + 4));
    const size = bytes.readUInt32LE(at + 4);
    at += 8 + size + (size % 2);
  }
  return kinds;
}

/**
 * Whether an image still carries metadata this app removes: what the submit checklist checks
 * on the stored copies, so its "metadata removed" is a fact about the bytes that will be sent.
 */
export function hasImageMetadata(bytes: Buffer): boolean {
  const type = rasterTypeOf(bytes);
  if (type === 'image/jpeg' || type === 'image/webp') {
    if (bytes.includes(XMP_NS)) return true;
    if (type === 'image/webp') return webpChunks(bytes).includes('EXIF');
    return bytes.includes(EXIF_HEADER);
  }
  if (type === 'image/png') {
    for (let at = 8; at + 8 <= bytes.length;) {
      const size = bytes.readUInt32BE(at);
      const kind = bytes.toString('latin1', at + 4, at + 8);
      if (['eXIf', 'tEXt', 'iTXt', 'zTXt'].includes(kind)) return true;
      at += size + 12;
    }
  }
  return false;
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
    const head = Buffer.alloc(16);
    const { bytesRead } = await handle.read(head, 0, 16, 0);
    const type = rasterTypeOf(head.subarray(0, bytesRead));
    if (!type || type === 'image/gif' || (await handle.stat()).size > MAX_IMAGE_BYTES) return null;
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

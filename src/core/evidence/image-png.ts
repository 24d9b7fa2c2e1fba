/** PNG metadata: eXIf, tEXt, iTXt, zTXt and tIME chunks. */
import { crc32 } from 'node:zlib';
import { onlyOrientation, orientationOf, orientationTiff } from './exif-orientation';

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

export function stripPng(bytes: Buffer): Buffer {
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

export function pngMetadata(bytes: Buffer): string[] {
  const found = new Set<string>();
  for (const c of pngChunks(bytes)) {
    if (c.kind === 'eXIf' && onlyOrientation(bytes.subarray(c.start + 8, c.end - 4))) continue;
    if (PNG_METADATA.has(c.kind)) found.add(c.kind === 'eXIf' ? 'EXIF' : `${c.kind} text`);
  }
  return [...found];
}

/** WebP metadata: EXIF and XMP chunks of the RIFF container. */
import { EXIF_HEADER, onlyOrientation, orientationOf, orientationTiff } from './exif-orientation';

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
export function stripWebp(bytes: Buffer): Buffer {
  let orientation: number | null = null;
  // Written as the original wrote it: ImageMagick and others read the EXIF chunk only with the
  // `Exif\0\0` header many writers put there, others only without it.
  let withHeader = false;
  for (const c of webpChunks(bytes)) {
    if (c.kind !== 'EXIF') continue;
    let data = bytes.subarray(c.start + 8, c.end);
    withHeader = data.subarray(0, 6).equals(EXIF_HEADER);
    if (withHeader) data = data.subarray(6);
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
    const tiff = withHeader
      ? Buffer.concat([EXIF_HEADER, orientationTiff(orientation ?? 1)])
      : orientationTiff(orientation ?? 1);
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

export function webpMetadata(bytes: Buffer): string[] {
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

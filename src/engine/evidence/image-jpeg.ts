/**
 * JPEG metadata: every APPn segment but JFIF (without its thumbnail), the ICC colour profile and
 * Adobe's colour-transform flag goes, and so do COM comments and anything after the image's end.
 */
import {
  EXIF_HEADER,
  onlyOrientation,
  orientationOf,
  orientationTiff,
  XMP_NS,
} from './exif-orientation';

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

export function stripJpeg(bytes: Buffer): Buffer {
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

export function jpegMetadata(bytes: Buffer): string[] {
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

/**
 * HEIC/HEIF and AVIF (ISO-BMFF, ISO/IEC 23008-12) metadata, cleaned in place: the `meta` box
 * lists items (`iinf`) and where their bytes are (`iloc`). An `Exif` item and an XMP item
 * (`mime`, `application/rdf+xml`) are overwritten with neutral content of the same length, so no
 * offset in the file moves and the pictures' bytes stay as they were:
 *
 * - Exif → a TIFF structure holding only the orientation tag (if the original had one), then
 *   zeros. A HEIF reader turns the picture by the `irot`/`imir` properties, which stay.
 * - XMP → an empty XMP packet padded with spaces (XMP's own padding).
 *
 * A file whose boxes do not add up (an item outside the file, a box past its parent) is not
 * touched: the caller keeps it flagged "metadata not removed".
 */
import { orientationXmp, xmpOrientation } from './exif-orientation';

interface Box {
  type: string;
  /** Where the box's content starts (after size, type and a full box's version/flags). */
  start: number;
  end: number;
}

function boxes(bytes: Buffer, from: number, to: number): Box[] {
  const out: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) throw new Error('box header past its parent');
      size = Number(bytes.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) throw new Error(`box ${type} past its parent`);
    out.push({ type, start: at + header, end: at + size });
    at += size;
  }
  return out;
}

const child = (bytes: Buffer, parent: Box, type: string, skip = 0): Box | undefined =>
  boxes(bytes, parent.start + skip, parent.end).find((b) => b.type === type);

function readUInt(bytes: Buffer, at: number, size: number): number {
  if (size === 0) return 0;
  if (size === 8) return Number(bytes.readBigUInt64BE(at));
  return bytes.readUIntBE(at, size);
}

interface MetaItem {
  id: number;
  kind: 'EXIF' | 'XMP';
}

/** The Exif and XMP items that `iinf` lists. */
function metaItems(bytes: Buffer, iinf: Box): MetaItem[] {
  const version = bytes[iinf.start] ?? 0;
  const first = iinf.start + 4 + (version === 0 ? 2 : 4);
  const items: MetaItem[] = [];
  for (const infe of boxes(bytes, first, iinf.end).filter((b) => b.type === 'infe')) {
    const v = bytes[infe.start] ?? 0;
    if (v < 2) continue; // versions 0 and 1 carry no item type
    let at = infe.start + 4;
    const id = v === 2 ? bytes.readUInt16BE(at) : bytes.readUInt32BE(at);
    at += (v === 2 ? 2 : 4) + 2;
    const type = bytes.toString('latin1', at, at + 4);
    at += 4;
    const nameEnd = bytes.indexOf(0, at);
    if (type === 'Exif') items.push({ id, kind: 'EXIF' });
    if (type === 'mime' && nameEnd !== -1 && nameEnd < infe.end) {
      const typeEnd = bytes.indexOf(0, nameEnd + 1);
      const contentType = bytes.toString(
        'latin1',
        nameEnd + 1,
        typeEnd === -1 ? infe.end : typeEnd,
      );
      if (/rdf\+xml|xmp/i.test(contentType)) items.push({ id, kind: 'XMP' });
    }
  }
  return items;
}

/** Each item's extents, as absolute ranges in the file. */
function itemExtents(
  bytes: Buffer,
  iloc: Box,
  idat: Box | undefined,
): Map<number, [number, number][]> {
  const version = bytes[iloc.start] ?? 0;
  let at = iloc.start + 4;
  const b1 = bytes[at] ?? 0;
  const b2 = bytes[at + 1] ?? 0;
  const offsetSize = b1 >> 4;
  const lengthSize = b1 & 15;
  const baseSize = b2 >> 4;
  const indexSize = version === 1 || version === 2 ? b2 & 15 : 0;
  at += 2;
  const count = version < 2 ? bytes.readUInt16BE(at) : bytes.readUInt32BE(at);
  at += version < 2 ? 2 : 4;
  const out = new Map<number, [number, number][]>();
  for (let i = 0; i < count; i++) {
    const id = version < 2 ? bytes.readUInt16BE(at) : bytes.readUInt32BE(at);
    at += version < 2 ? 2 : 4;
    let method = 0;
    if (version === 1 || version === 2) {
      method = bytes.readUInt16BE(at) & 15;
      at += 2;
    }
    at += 2; // data_reference_index
    const base = readUInt(bytes, at, baseSize);
    at += baseSize;
    const extents = bytes.readUInt16BE(at);
    at += 2;
    const ranges: [number, number][] = [];
    for (let e = 0; e < extents; e++) {
      at += indexSize;
      const offset = readUInt(bytes, at, offsetSize);
      at += offsetSize;
      const length = readUInt(bytes, at, lengthSize);
      at += lengthSize;
      if (method === 0) ranges.push([base + offset, base + offset + length]);
      else if (method === 1 && idat) {
        const from = idat.start + base + offset;
        ranges.push([from, from + length]);
      } else throw new Error('item stored by reference to other items');
    }
    if (at > iloc.end) throw new Error('iloc past its box');
    out.set(id, ranges);
  }
  return out;
}

interface Located extends MetaItem {
  ranges: [number, number][];
}

function located(bytes: Buffer): Located[] {
  const top = boxes(bytes, 0, bytes.length);
  const meta = top.find((b) => b.type === 'meta');
  if (!meta) return [];
  const inMeta = { ...meta, start: meta.start + 4 }; // a full box
  const iinf = child(bytes, inMeta, 'iinf');
  const iloc = child(bytes, inMeta, 'iloc');
  if (!iinf || !iloc) return [];
  const extents = itemExtents(bytes, iloc, child(bytes, inMeta, 'idat'));
  return metaItems(bytes, iinf).map((item) => {
    const ranges = extents.get(item.id) ?? [];
    for (const [from, to] of ranges) {
      if (from < 0 || to > bytes.length || to < from) throw new Error('item outside the file');
    }
    return { ...item, ranges };
  });
}

function joined(bytes: Buffer, ranges: [number, number][]): Buffer {
  return Buffer.concat(ranges.map(([from, to]) => bytes.subarray(from, to)));
}

/** Writes `content` over the item's extents, in order, zero-filling what is left. */
function overwrite(bytes: Buffer, ranges: [number, number][], content: Buffer): void {
  let used = 0;
  for (const [from, to] of ranges) {
    bytes.fill(0, from, to);
    const part = content.subarray(used, used + (to - from));
    part.copy(bytes, from);
    used += part.length;
  }
}

const PACKET_HEAD =
  '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"/>';
const PACKET_TAIL = '<?xpacket end="w"?>';

function emptyXmp(length: number): Buffer {
  const pad = length - PACKET_HEAD.length - PACKET_TAIL.length;
  if (pad < 0) return Buffer.alloc(length, 0x20); // too short for a packet: spaces only
  return Buffer.from(PACKET_HEAD + ' '.repeat(pad) + PACKET_TAIL, 'latin1');
}

/**
 * An XMP item that keeps the original's orientation (`tiff:Orientation`, which some readers
 * take from XMP alone) and nothing else, padded to the item's length; empty when it does not fit.
 */
function orientationOnlyXmp(length: number, orientation: number | null): Buffer {
  if (orientation === null || orientation === 1) return emptyXmp(length);
  const packet = orientationXmp(orientation);
  const close = packet.lastIndexOf('<?xpacket end');
  const pad = length - packet.length;
  if (pad < 0) return emptyXmp(length);
  return Buffer.from(packet.slice(0, close) + ' '.repeat(pad) + packet.slice(close), 'latin1');
}

/** What a neutral Exif item holds: the TIFF offset (0), then `tiff` (orientation or nothing). */
function neutralExif(length: number, tiff: Buffer): Buffer {
  const out = Buffer.alloc(length);
  if (length >= 4 + tiff.length) tiff.copy(out, 4);
  return out;
}

function exifTiff(payload: Buffer): Buffer {
  const offset = payload.length >= 4 ? payload.readUInt32BE(0) : 0;
  return payload.subarray(Math.min(payload.length, 4 + offset));
}

export interface HeifTools {
  orientationOf: (tiff: Uint8Array) => number | null;
  orientationTiff: (orientation: number) => Buffer;
  emptyTiff: () => Buffer;
  onlyOrientation: (tiff: Uint8Array) => boolean;
}

/** Whether an item already holds only what `stripHeif` writes. */
function neutral(bytes: Buffer, item: Located, tools: HeifTools): boolean {
  const payload = joined(bytes, item.ranges);
  if (item.kind === 'XMP')
    return (
      payload.equals(emptyXmp(payload.length)) ||
      payload.equals(orientationOnlyXmp(payload.length, xmpOrientation(payload.toString('latin1'))))
    );
  const tiff = exifTiff(payload);
  return payload.every((b) => b === 0) || tools.onlyOrientation(tiff) || tiffEmpty(tiff);
}

function tiffEmpty(tiff: Buffer): boolean {
  if (tiff.length < 14) return false;
  const little = tiff[0] === 0x49;
  const ifd = little ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4);
  if (ifd + 6 > tiff.length) return false;
  const entries = little ? tiff.readUInt16LE(ifd) : tiff.readUInt16BE(ifd);
  return entries === 0 && tiff.subarray(ifd + 2).every((b) => b === 0);
}

/** The metadata blocks a HEIF/AVIF file still holds ("EXIF", "XMP"). Throws when unreadable. */
export function heifMetadata(bytes: Buffer, tools: HeifTools): string[] {
  return located(bytes)
    .filter((item) => !neutral(bytes, item, tools))
    .map((item) => item.kind);
}

/** A copy with every Exif and XMP item made neutral; throws when the boxes do not add up. */
export function stripHeif(bytes: Buffer, tools: HeifTools): Buffer {
  const items = located(bytes);
  if (items.length === 0) return bytes;
  const out = Buffer.from(bytes);
  for (const item of items) {
    const payload = joined(bytes, item.ranges);
    if (item.kind === 'XMP') {
      const orientation = xmpOrientation(payload.toString('utf8'));
      overwrite(out, item.ranges, orientationOnlyXmp(payload.length, orientation));
    } else {
      const orientation = tools.orientationOf(exifTiff(payload));
      const tiff =
        orientation !== null && orientation !== 1
          ? tools.orientationTiff(orientation)
          : tools.emptyTiff();
      overwrite(out, item.ranges, neutralExif(payload.length, tiff));
    }
  }
  return out;
}

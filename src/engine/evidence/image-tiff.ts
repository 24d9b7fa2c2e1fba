/**
 * TIFF metadata, cleaned in place. Every IFD of the chain keeps only the tags that say how to draw
 * the picture (size, samples, compression, strips or tiles, colour, resolution, orientation, the
 * ICC profile); every other entry goes (EXIF and GPS sub-IFDs, XMP, IPTC, Photoshop, maker,
 * model, artist, dates, software, comments), and the bytes those entries pointed at are zeroed.
 * No offset moves, so the strips and tiles are untouched. BigTIFF, or an IFD that does not add
 * up, is not touched: the caller keeps it flagged "metadata not removed".
 */

/** Baseline and extension tags a reader needs to draw the picture, and nothing else. */
const DRAWING_TAGS = new Set([
  254, 255, 256, 257, 258, 259, 262, 263, 264, 265, 266, 273, 274, 277, 278, 279, 280, 281, 282,
  283, 284, 290, 291, 292, 293, 296, 301, 317, 318, 319, 320, 321, 322, 323, 324, 325, 332, 334,
  338, 339, 340, 341, 347, 512, 513, 514, 515, 517, 518, 519, 520, 521, 529, 530, 531, 532, 34675,
]);
/** Tags whose value is another IFD: zeroed with everything it points at. */
const SUB_IFDS = new Set([330, 34665, 34853, 40965]);
const BLOCK_NAMES: Record<number, string> = {
  34665: 'EXIF',
  34853: 'GPS',
  700: 'XMP',
  33723: 'IPTC',
  34377: 'Photoshop',
  37500: 'maker notes',
};
const TYPE_SIZES = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4];

interface Entry {
  at: number;
  tag: number;
  type: number;
  count: number;
  /** The value's bytes: inside the entry when 4 or fewer. */
  value: [number, number];
}

class Tiff {
  readonly little: boolean;
  constructor(readonly bytes: Buffer) {
    const order = bytes.toString('latin1', 0, 2);
    if (order !== 'II' && order !== 'MM') throw new Error('not a TIFF');
    this.little = order === 'II';
    if (this.u16(2) !== 42) throw new Error('BigTIFF or not a TIFF');
  }
  u16(at: number): number {
    return this.little ? this.bytes.readUInt16LE(at) : this.bytes.readUInt16BE(at);
  }
  u32(at: number): number {
    return this.little ? this.bytes.readUInt32LE(at) : this.bytes.readUInt32BE(at);
  }
  setU16(at: number, v: number): void {
    if (this.little) this.bytes.writeUInt16LE(v, at);
    else this.bytes.writeUInt16BE(v, at);
  }
  setU32(at: number, v: number): void {
    if (this.little) this.bytes.writeUInt32LE(v, at);
    else this.bytes.writeUInt32BE(v, at);
  }
  entries(ifd: number): Entry[] {
    if (ifd + 2 > this.bytes.length) throw new Error('IFD outside the file');
    const n = this.u16(ifd);
    if (ifd + 2 + n * 12 + 4 > this.bytes.length) throw new Error('IFD past the file');
    const out: Entry[] = [];
    for (let i = 0; i < n; i++) {
      const at = ifd + 2 + i * 12;
      const type = this.u16(at + 2);
      const count = this.u32(at + 4);
      const size = (TYPE_SIZES[type] ?? 1) * count;
      const from = size <= 4 ? at + 8 : this.u32(at + 8);
      if (from + size > this.bytes.length) throw new Error('value outside the file');
      out.push({ at, tag: this.u16(at), type, count, value: [from, from + size] });
    }
    return out;
  }
  /** The IFD chain from the header (IFD0, IFD1…), guarded against loops. */
  chain(): number[] {
    const out: number[] = [];
    for (let ifd = this.u32(4); ifd !== 0 && !out.includes(ifd);) {
      out.push(ifd);
      ifd = this.u32(ifd + 2 + this.u16(ifd) * 12);
      if (out.length > 1000) throw new Error('IFD chain too long');
    }
    return out;
  }
}

/** The metadata blocks a TIFF still holds ("EXIF", "GPS", "XMP", "TIFF tags"…). */
export function tiffMetadata(bytes: Buffer): string[] {
  const tiff = new Tiff(bytes);
  const names = new Set<string>();
  for (const ifd of tiff.chain()) {
    for (const e of tiff.entries(ifd)) {
      if (!DRAWING_TAGS.has(e.tag)) names.add(BLOCK_NAMES[e.tag] ?? 'TIFF tags');
    }
  }
  return [...names];
}

/** Zeroes an IFD that nothing will point at any more, with every value it points at. */
function zeroIfd(tiff: Tiff, ifd: number, seen: Set<number>): void {
  if (seen.has(ifd) || ifd === 0 || ifd + 2 > tiff.bytes.length) return;
  seen.add(ifd);
  const entries = tiff.entries(ifd);
  for (const e of entries) zeroEntry(tiff, e, seen);
  tiff.bytes.fill(0, ifd, ifd + 2 + entries.length * 12 + 4);
}

function zeroEntry(tiff: Tiff, e: Entry, seen: Set<number>): void {
  if (SUB_IFDS.has(e.tag) && e.type !== 2) {
    for (let i = 0; i < e.count; i++) zeroIfd(tiff, tiff.u32(e.value[0] + i * 4), seen);
  }
  tiff.bytes.fill(0, e.value[0], e.value[1]);
}

/** A copy keeping only the drawing tags of every IFD; throws when the file does not add up. */
export function stripTiff(bytes: Buffer): Buffer {
  const tiff = new Tiff(Buffer.from(bytes));
  const seen = new Set<number>();
  for (const ifd of tiff.chain()) {
    const entries = tiff.entries(ifd);
    const next = tiff.u32(ifd + 2 + entries.length * 12);
    const kept = entries.filter((e) => DRAWING_TAGS.has(e.tag));
    const rows = kept.map((e) => Buffer.from(tiff.bytes.subarray(e.at, e.at + 12)));
    for (const e of entries) if (!DRAWING_TAGS.has(e.tag)) zeroEntry(tiff, e, seen);
    // The kept rows, moved up; then the count and the next-IFD offset where readers look.
    tiff.bytes.fill(0, ifd, ifd + 2 + entries.length * 12 + 4);
    tiff.setU16(ifd, kept.length);
    rows.forEach((row, i) => row.copy(tiff.bytes, ifd + 2 + i * 12));
    tiff.setU32(ifd + 2 + kept.length * 12, next);
  }
  return tiff.bytes;
}

/** Which image the bytes are, by their magic bytes: whatever the file name or declared type says. */

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

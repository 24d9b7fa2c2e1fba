/**
 * Evidence images. Only raster formats whose magic bytes say so are
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
import { emptyTiff, onlyOrientation, orientationOf, orientationTiff } from './exif-orientation';
import { heifMetadata, stripHeif, type HeifTools } from './image-heif';
import { gifMetadata, stripGif } from './image-gif';
import { jpegMetadata, stripJpeg } from './image-jpeg';
import {
  containerImageOf,
  rasterTypeOf,
  type ContainerImage,
  type RasterType,
} from './image-kinds';
import { pngMetadata, stripPng } from './image-png';
import { stripTiff, tiffMetadata } from './image-tiff';
import { stripWebp, webpMetadata } from './image-webp';

export {
  containerImageOf,
  rasterTypeOf,
  type ContainerImage,
  type RasterType,
} from './image-kinds';

const HEIF_TOOLS: HeifTools = { orientationOf, orientationTiff, emptyTiff, onlyOrientation };

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
  return formatOf(bytes)?.metadata(bytes) ?? [];
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
  return formatOf(bytes)?.strip(bytes) ?? bytes;
}

/** What the app reads and removes in each image format it knows, by the type its bytes say. */
interface ImageFormat {
  /** The metadata blocks left, by name. */
  metadata(bytes: Buffer): string[];
  /** The image without them (orientation kept). */
  strip(bytes: Buffer): Buffer;
}

const HEIF: ImageFormat = {
  metadata: (bytes) => heifMetadata(bytes, HEIF_TOOLS),
  strip: (bytes) => stripHeif(bytes, HEIF_TOOLS),
};

const FORMATS: Record<RasterType | ContainerImage, ImageFormat> = {
  'image/jpeg': { metadata: jpegMetadata, strip: stripJpeg },
  'image/png': { metadata: pngMetadata, strip: stripPng },
  'image/webp': { metadata: webpMetadata, strip: stripWebp },
  'image/gif': { metadata: gifMetadata, strip: stripGif },
  'image/heic': HEIF,
  'image/avif': HEIF,
  'image/tiff': { metadata: tiffMetadata, strip: stripTiff },
};

function formatOf(bytes: Buffer): ImageFormat | null {
  const type = rasterTypeOf(bytes) ?? containerImageOf(bytes);
  return type ? FORMATS[type] : null;
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

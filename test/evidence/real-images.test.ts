import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  imageMetadataBlocks,
  containerImageOf,
  rasterTypeOf,
  stripImageMetadata,
} from '../../src/engine/evidence/images';
import { REAL, realFile } from '../support/real-corpus';
import { tempDirPerFile } from '../support/temp-dirs';

/**
 * Real photos and test images from exifr's test folder (SOURCES.md), cleaned by the app and read
 * back by an independent reader, exiftool (Debian's libimage-exiftool-perl, in .ci/run). Prints,
 * per format, which metadata tags remain.
 */
const work = tempDirPerFile('bounty-desk-images-');

/** Tags that describe the picture itself (size, colour, how to show it): not metadata to remove. */
const PICTURE = new Set([
  'JFIF:JFIFVersion',
  'JFIF:ResolutionUnit',
  'JFIF:XResolution',
  'JFIF:YResolution',
  'IFD0:Orientation',
  // The turn kept where the original kept it alone (an AVIF's XMP item holds only this tag).
  'XMP-tiff:Orientation',
  'PNG:ImageWidth',
  'PNG:ImageHeight',
  'PNG:BitDepth',
  'PNG:ColorType',
  'PNG:Compression',
  'PNG:Filter',
  'PNG:Interlace',
  'PNG:SRGBRendering',
  'PNG:Gamma',
  'PNG:Palette',
  // cHRM and bKGD (Pillow's ImageMagick-written PNGs): how colours are drawn.
  ...['WhitePointX', 'WhitePointY', 'RedX', 'RedY', 'GreenX', 'GreenY', 'BlueX', 'BlueY'].map(
    (tag) => `PNG:${tag}`,
  ),
  'PNG:BackgroundColor',
  // TIFF: how the strips are drawn.
  ...[
    'BitsPerSample',
    'Compression',
    'ImageHeight',
    'ImageWidth',
    'PhotometricInterpretation',
    'PlanarConfiguration',
    'ResolutionUnit',
    'RowsPerStrip',
    'SampleFormat',
    'SamplesPerPixel',
    'StripByteCounts',
    'StripOffsets',
    'SubfileType',
    'XResolution',
    'YResolution',
  ].map((tag) => `IFD0:${tag}`),
]);
/** ISO-BMFF's boxes (QuickTime, Meta) say how to decode and turn the picture: codec, size, `irot`. */
const PICTURE_GROUPS =
  /^(?:ExifTool|System|File|Composite|ICC-\w+|ICC_Profile|PNG-pHYs|Adobe|RIFF|QuickTime|Meta)$/;

function exiftool(bytes: Buffer, name: string): Record<string, unknown> {
  const path = join(work, name);
  writeFileSync(path, bytes);
  const out = execFileSync('exiftool', ['-j', '-G1', '-a', '-u', '-b', path], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return (JSON.parse(out) as Record<string, unknown>[])[0] ?? {};
}

/** The tags exiftool reads that are metadata (who, where, when, with what, previews). */
function metadataTags(tags: Record<string, unknown>): string[] {
  return Object.keys(tags).filter((key) => {
    if (key === 'SourceFile') return false;
    const group = key.slice(0, key.indexOf(':'));
    return !PICTURE_GROUPS.test(group) && !PICTURE.has(key);
  });
}

/**
 * The JPEG's image data, from its first scan to the end of image, found by walking the segments
 * (a thumbnail inside EXIF has a scan marker of its own).
 */
function jpegScan(bytes: Buffer): Buffer {
  let at = 2;
  while (bytes[at] === 0xff && bytes[at + 1] !== 0xda) at += 2 + bytes.readUInt16BE(at + 2);
  const eoi = bytes.indexOf(Buffer.from([0xff, 0xd9]), at);
  return bytes.subarray(at, eoi + 2);
}

describe('evidence images, read back by exiftool', () => {
  const files = readdirSync(join(REAL, 'images'));

  it('leaves no metadata in any real sample (JPEG, PNG, AVIF, HEIC, TIFF)', async () => {
    const report: string[] = [];
    for (const name of files) {
      const original = realFile('images', name);
      const before = metadataTags(exiftool(original, `a-${name}`));
      const stripped = await stripImageMetadata(original);
      const after = metadataTags(exiftool(stripped, `b-${name}`));
      const format = rasterTypeOf(original) ?? containerImageOf(original) ?? 'unknown';
      report.push(
        `${name} (${format}): ${before.length} metadata tags before, left: ${after.length ? after.join(', ') : 'none'}`,
      );
      expect(format).not.toBe('unknown');
      expect([name, after]).toEqual([name, []]);
      expect(imageMetadataBlocks(stripped)).toEqual([]);
    }
    console.log(report.join('\n'));
  });

  it('cleans HEIC, AVIF and TIFF in place: the picture’s bytes and its turn stay', async () => {
    const report: string[] = [];
    for (const name of files.filter((f) => containerImageOf(realFile('images', f)))) {
      const original = realFile('images', name);
      const stripped = await stripImageMetadata(original);
      const before = exiftool(original, `c-${name}`);
      const after = exiftool(stripped, `d-${name}`);
      expect(stripped.length).toBe(original.length);
      // How the picture is turned: HEIF's `irot` (exiftool's Rotation), TIFF's Orientation.
      // An absent Orientation means "normal": what the cleaned HEIC says when the photo was upright.
      const turn = (tags: Record<string, unknown>, tag: string): unknown =>
        tags[tag] ?? (tag === 'IFD0:Orientation' ? 'Horizontal (normal)' : undefined);
      for (const tag of ['QuickTime:Rotation', 'IFD0:Orientation', 'IFD0:ImageWidth'])
        expect([name, tag, turn(after, tag)]).toEqual([name, tag, turn(before, tag)]);
      let changed = 0;
      for (let i = 0; i < original.length; i++) if (original[i] !== stripped[i]) changed++;
      if (containerImageOf(original) === 'image/tiff') {
        // Every strip, where exiftool finds it, is byte for byte the same.
        const numbers = exiftool(original, `e-${name}`);
        const out = execFileSync(
          'exiftool',
          ['-j', '-n', '-StripOffsets', '-StripByteCounts', join(work, `e-${name}`)],
          { encoding: 'utf8' },
        );
        const tags = (JSON.parse(out) as Record<string, unknown>[])[0] ?? {};
        const offsets = String(tags.StripOffsets).split(' ').map(Number);
        const counts = String(tags.StripByteCounts).split(' ').map(Number);
        expect(numbers['IFD0:StripOffsets']).toBeDefined();
        offsets.forEach((at, i) => {
          const end = at + (counts[i] ?? 0);
          expect(stripped.subarray(at, end).equals(original.subarray(at, end))).toBe(true);
        });
      } else {
        // Only the Exif/XMP items changed: no more bytes than exiftool's EXIF and XMP hold.
        const blocks = execFileSync('exiftool', ['-b', '-EXIF', '-XMP', join(work, `c-${name}`)], {
          maxBuffer: 64 * 1024 * 1024,
        });
        expect(changed).toBeLessThanOrEqual(blocks.length);
      }
      report.push(`${name}: ${changed} of ${original.length} bytes changed`);
    }
    console.log(report.join('\n'));
    expect(report.length).toBeGreaterThanOrEqual(5);
  });

  it('removes the IPTC city and photographer and the EXIF thumbnail of a real photo', async () => {
    const original = realFile('images', 'exifr-BonTonARTSTORplusIPTC.jpg');
    const before = exiftool(original, 'iptc-before.jpg');
    expect(Object.keys(before).some((k) => k.startsWith('IPTC:'))).toBe(true);
    expect(before['IFD1:ThumbnailImage']).toBeDefined();
    const after = exiftool(await stripImageMetadata(original), 'iptc-after.jpg');
    expect(Object.keys(after).filter((k) => /^(IPTC|Photoshop|IFD1|XMP-\w+):/.test(k))).toEqual([]);
  });

  it('keeps the orientation of all eight EXIF orientation samples, and the same pixels', async () => {
    const kept: string[] = [];
    for (let o = 1; o <= 8; o++) {
      const original = realFile('images', `exifr-f${o}t.jpg`);
      const stripped = await stripImageMetadata(original);
      const before = exiftool(original, `o${o}-a.jpg`)['IFD0:Orientation'];
      const after = exiftool(stripped, `o${o}-b.jpg`)['IFD0:Orientation'];
      // Orientation 1 ("normal") needs no tag; every other one is kept as it was.
      if (o === 1) expect(after ?? 'Horizontal (normal)').toBe(before);
      else expect(after).toBe(before);
      // The compressed image data is byte for byte the original's.
      expect(jpegScan(stripped).equals(jpegScan(original))).toBe(true);
      if (after === before || o === 1) kept.push(`f${o}t`);
    }
    console.log(`orientation kept: ${kept.length}/8`);
  });

  it('keeps a turned phone photo turned while its GPS position and camera go', async () => {
    // A real phone photo with EXIF and GPS, turned by exiftool (orientation 6, "rotate 90 CW").
    const source = join(work, 'turned-source.jpg');
    const turned = join(work, 'turned.jpg');
    writeFileSync(source, realFile('images', 'exifr-issue-exifr-13.jpg'));
    execFileSync('exiftool', ['-q', '-Orientation#=6', '-o', turned, source]);
    const original = readFileSync(turned);
    const before = exiftool(original, 'turned-a.jpg');
    expect(before['IFD0:Orientation']).toBe('Rotate 90 CW');
    expect(Object.keys(before).some((k) => k.startsWith('GPS:'))).toBe(true);
    const stripped = await stripImageMetadata(original);
    const after = exiftool(stripped, 'turned-b.jpg');
    expect(after['IFD0:Orientation']).toBe('Rotate 90 CW');
    expect(metadataTags(after)).toEqual([]);
    expect(jpegScan(stripped).equals(jpegScan(original))).toBe(true);
  });
});

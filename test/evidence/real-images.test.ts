import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  imageMetadataBlocks,
  rasterTypeOf,
  stripImageMetadata,
  uncleanableImageOf,
} from '../../src/core/evidence/images';
import { REAL, realFile } from '../support/real-corpus';

/**
 * Real photos and test images from exifr's test folder (SOURCES.md), cleaned by the app and read
 * back by an independent reader, exiftool (Debian's libimage-exiftool-perl, in .ci/run). Prints,
 * per format, which metadata tags remain.
 */
const work = mkdtempSync(join(tmpdir(), 'bounty-desk-images-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Tags that describe the picture itself (size, colour, how to show it): not metadata to remove. */
const PICTURE = new Set([
  'JFIF:JFIFVersion',
  'JFIF:ResolutionUnit',
  'JFIF:XResolution',
  'JFIF:YResolution',
  'IFD0:Orientation',
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
]);
const PICTURE_GROUPS =
  /^(?:ExifTool|System|File|Composite|ICC-\w+|ICC_Profile|PNG-pHYs|Adobe|RIFF)$/;

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

  it('leaves no metadata in the real JPEG and PNG samples; names what it cannot clean', async () => {
    const report: string[] = [];
    for (const name of files) {
      const original = realFile('images', name);
      const before = metadataTags(exiftool(original, `a-${name}`));
      const stripped = await stripImageMetadata(original);
      const after = metadataTags(exiftool(stripped, `b-${name}`));
      const format = rasterTypeOf(original) ?? uncleanableImageOf(original) ?? 'unknown';
      report.push(
        `${name} (${format}): ${before.length} metadata tags before, left: ${after.length ? after.join(', ') : 'none'}`,
      );
      if (rasterTypeOf(original)) {
        expect([name, after]).toEqual([name, []]);
        expect(imageMetadataBlocks(stripped)).toEqual([]);
      } else {
        // HEIC/AVIF/TIFF: not cleaned, and never called clean.
        expect(uncleanableImageOf(original)).not.toBeNull();
        expect(imageMetadataBlocks(stripped)).toEqual(['not read']);
      }
    }
    console.log(report.join('\n'));
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

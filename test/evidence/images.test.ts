import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  containerImageOf,
  hasImageMetadata,
  imageMetadataBlocks,
  rasterTypeOf,
  stripImageMetadata,
} from '../../src/engine/evidence/images';
import { realFile } from '../support/real-corpus';
import { gif, gpsBytes, hostileSvg, jpegWithGps, pngWithGps, webpWithGps } from './fixtures/images';

function pngChunks(png: Buffer): string[] {
  const kinds: string[] = [];
  for (let at = 8; at + 8 <= png.length;) {
    const size = png.readUInt32BE(at);
    kinds.push(png.toString('latin1', at + 4, at + 8));
    at += size + 12;
  }
  return kinds;
}

describe('evidence images', () => {
  it('knows raster images by their bytes, never by name; SVG is not an image', () => {
    expect(rasterTypeOf(pngWithGps())).toBe('image/png');
    expect(rasterTypeOf(jpegWithGps())).toBe('image/jpeg');
    expect(rasterTypeOf(webpWithGps())).toBe('image/webp');
    expect(rasterTypeOf(gif())).toBe('image/gif');
    expect(rasterTypeOf(hostileSvg())).toBeNull();
    expect(rasterTypeOf(Buffer.from('<html>'))).toBeNull();
    expect(rasterTypeOf(Buffer.alloc(0))).toBeNull();
  });

  const cases: [string, () => Buffer][] = [
    ['PNG', pngWithGps],
    ['JPEG', jpegWithGps],
    ['WebP', webpWithGps],
  ];
  for (const [name, make] of cases) {
    it(`removes the GPS position and other metadata from a ${name}`, async () => {
      const original = make();
      expect(original.includes(gpsBytes())).toBe(true);
      expect(hasImageMetadata(original)).toBe(true);
      const stripped = await stripImageMetadata(original);
      expect(stripped.includes(gpsBytes())).toBe(false);
      expect(hasImageMetadata(stripped)).toBe(false);
      expect(rasterTypeOf(stripped)).toBe(rasterTypeOf(original));
      expect(stripped.length).toBeLessThan(original.length);
    });
  }

  it('keeps a PNG whole: every image chunk, only the metadata chunks gone', async () => {
    const stripped = await stripImageMetadata(pngWithGps());
    expect(pngChunks(pngWithGps())).toEqual(['IHDR', 'eXIf', 'tEXt', 'IDAT', 'IEND']);
    expect(pngChunks(stripped)).toEqual(['IHDR', 'IDAT', 'IEND']);
  });

  it('leaves a GIF and non-images as they are', async () => {
    expect((await stripImageMetadata(gif())).equals(gif())).toBe(true);
    expect((await stripImageMetadata(hostileSvg())).equals(hostileSvg())).toBe(true);
  });

  it('never throws on arbitrary bytes behind an image signature', async () => {
    const heads = [
      pngWithGps().subarray(0, 8),
      jpegWithGps().subarray(0, 3),
      Buffer.from('RIFF\0\0\0\0WEBP'),
      gif().subarray(0, 13),
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...heads),
        fc.uint8Array({ maxLength: 200 }),
        async (head, tail) => {
          const bytes = Buffer.concat([head, tail]);
          hasImageMetadata(bytes);
          const stripped = await stripImageMetadata(bytes);
          expect(rasterTypeOf(stripped)).toBe(rasterTypeOf(bytes));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws on a damaged HEIC, AVIF or TIFF, and never calls one it could not read clean', async () => {
    const samples = [
      'exifr-heic-iphone7.heic',
      'exifr-Irvine_CA.avif',
      'exifr-001.tif',
      'exifr-Bush-dog.tif',
    ].map((name) => realFile('images', name));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...samples),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
        async (sample, cut, flips) => {
          // Cut short, then a few bytes changed: what a broken download or a bad disk gives.
          const head = Math.min(sample.length, 4096);
          const bytes = Buffer.from(
            sample.subarray(0, Math.floor(head + cut * (sample.length - head))),
          );
          for (const [at, value] of flips) bytes[at % head] = value;
          const stripped = await stripImageMetadata(bytes);
          const left = imageMetadataBlocks(stripped);
          // Either the copy is clean or the checklist has something to name.
          if (!stripped.equals(bytes)) expect(left).toEqual([]);
          expect(containerImageOf(stripped)).toBe(containerImageOf(bytes));
        },
      ),
      { numRuns: 150 },
    );
  });
});

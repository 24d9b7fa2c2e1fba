import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageMetadataBlocks, stripImageMetadata } from '../../src/engine/evidence/images';
import { chromiumPixels, magickPixels, openChromium } from '../support/render-images';
import { tempDirPerFile } from '../support/temp-dirs';

/**
 * Each real test image (exifr's and Pillow's, SOURCES.md), cleaned by the app, must look the same
 * as the original to a person: the same pixels after orientation in Chromium and in ImageMagick,
 * the same orientation to exiftool (EXIF, XMP or ImageMagick's raw profile alike).
 */
const DIR = join(__dirname, '../fixtures/real/images');
const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
};
const work = tempDirPerFile('bounty-desk-look-');

const images = readdirSync(DIR).filter((f) => TYPES[f.split('.').pop() ?? ''] !== undefined);

async function cleaned(name: string): Promise<string> {
  const out = join(work, name);
  writeFileSync(out, await stripImageMetadata(readFileSync(join(DIR, name))));
  return out;
}

/** The orientation each tag group states, as exiftool reads it (`IFD0:Orientation=6` …). */
function orientations(path: string): string {
  const out = execFileSync('exiftool', ['-G1', '-s', '-n', '-Orientation', path]).toString();
  return out
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('; ');
}

describe('cleaned images look the same as the originals', () => {
  it('in ImageMagick, pixels compared after orientation; exiftool reads the same orientation', async () => {
    const differ: string[] = [];
    const turned: string[] = [];
    for (const name of images) {
      const copy = await cleaned(name);
      expect([name, imageMetadataBlocks(readFileSync(copy))]).toEqual([name, []]);
      const a = magickPixels(join(DIR, name));
      const b = magickPixels(copy);
      if (a.width !== b.width || a.height !== b.height || !a.pixels.equals(b.pixels))
        differ.push(name);
      const before = orientations(join(DIR, name)).replace(/\[[^\]]+\]/g, '');
      const after = orientations(copy).replace(/\[[^\]]+\]/g, '');
      // Every orientation the original states, the copy states (its group may be the same one).
      const values = (s: string): string[] =>
        [...s.matchAll(/Orientation (\d)/g)].map((m) => m[1] ?? '');
      if (values(before).some((v) => v !== '1' && !values(after).includes(v)))
        turned.push(`${name}: ${before} → ${after}`);
    }
    console.log(
      `ImageMagick: look the same ${images.length - differ.length}/${images.length}` +
        `${differ.length ? ` (differ: ${differ.join(', ')})` : ''}\n` +
        `exiftool: orientation kept ${images.length - turned.length}/${images.length}` +
        `${turned.length ? `\n  ${turned.join('\n  ')}` : ''}`,
    );
    expect(differ).toEqual([]);
    expect(turned).toEqual([]);
  }, 300_000);

  it('in Chromium, pixels compared after orientation', async () => {
    const differ: string[] = [];
    let rendered = 0;
    for (const name of images) {
      const type = TYPES[name.split('.').pop() ?? ''] ?? '';
      const copy = readFileSync(await cleaned(name));
      // A fresh browser every image: one long-lived instance runs out of resources here.
      const browser = await openChromium();
      try {
        const a = await chromiumPixels(browser, readFileSync(join(DIR, name)), type);
        const b = await chromiumPixels(browser, copy, type);
        if (a === null) continue; // a file Chromium does not decode: nothing to compare
        rendered++;
        if (!b || a.width !== b.width || a.height !== b.height || !a.pixels.equals(b.pixels))
          differ.push(name);
      } finally {
        await browser.close();
      }
    }
    console.log(
      `Chromium: look the same ${rendered - differ.length}/${rendered} (${images.length} images)`,
    );
    expect(rendered).toBeGreaterThan(images.length / 2);
    expect(differ).toEqual([]);
  }, 400_000);
});

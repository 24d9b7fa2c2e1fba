/**
 * Renders images the way a person sees them, in two independent readers: Chromium (the system's
 * /usr/bin/chromium driven by playwright-core, `image-orientation: from-image` as browsers
 * default) and ImageMagick (`convert -auto-orient`). Each gives the displayed pixels as RGBA, so
 * an original and its cleaned copy can be compared after orientation.
 */
import { execFileSync } from 'node:child_process';
import { chromium, type Browser } from 'playwright-core';

export interface Rendered {
  width: number;
  height: number;
  /** The displayed pixels, RGBA, row by row. */
  pixels: Buffer;
}

/** ImageMagick's display of the image: oriented as its metadata says, as RGBA bytes. */
export function magickPixels(path: string): Rendered {
  const size = execFileSync('convert', [`${path}[0]`, '-auto-orient', '-format', '%w %h', 'info:'])
    .toString()
    .trim()
    .split(' ')
    .map(Number);
  const pixels = execFileSync(
    'convert',
    [`${path}[0]`, '-auto-orient', '-alpha', 'on', '-depth', '8', 'rgba:-'],
    {
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  return { width: size[0] ?? 0, height: size[1] ?? 0, pixels };
}

export async function openChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

/** Chromium's display of the image at its natural size, as RGBA bytes of a canvas draw. */
export async function chromiumPixels(
  browser: Browser,
  bytes: Buffer,
  type: string,
): Promise<Rendered | null> {
  const page = await browser.newPage();
  try {
    const url = `data:${type};base64,${bytes.toString('base64')}`;
    // Runs in the page (the DOM's types are not this project's Node types): a string.
    const out = (await page.evaluate(`(async (src) => {
      const img = new Image();
      img.src = src;
      try { await img.decode(); } catch { return null; }
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const ctx = canvas.getContext('2d');
      ctx.drawImage(img, 0, 0);
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      let bin = '';
      for (let i = 0; i < data.length; i += 0x8000)
        bin += String.fromCharCode(...data.subarray(i, i + 0x8000));
      return { width: canvas.width, height: canvas.height, b64: btoa(bin) };
    })(${JSON.stringify(url)})`)) as { width: number; height: number; b64: string } | null;
    return out
      ? { width: out.width, height: out.height, pixels: Buffer.from(out.b64, 'base64') }
      : null;
  } finally {
    await page.close();
  }
}

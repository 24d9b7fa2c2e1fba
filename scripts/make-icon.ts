// Draws the Bounty Desk app icon (an original design: a shield with a target on a rounded square)
// and writes it as PNG files into resources/. No image libraries, no network: the pixels are
// computed from signed distance functions and encoded with node:zlib.
//   npx tsx scripts/make-icon.ts
// electron-builder derives the .icns (macOS) and .ico (Windows) files from resources/icon.png.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

type Rgba = [number, number, number, number];

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** Encodes straight-alpha RGBA pixels (row-major) as an 8-bit RGBA PNG. */
export function encodePng(size: number, pixels: Uint8Array): Buffer {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    raw.set(pixels.subarray(y * size * 4, (y + 1) * size * 4), y * (size * 4 + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

// Signed distances in unit coordinates (the icon spans -1..1); negative inside.
function roundedSquare(x: number, y: number, half: number, radius: number): number {
  const qx = Math.abs(x) - half + radius;
  const qy = Math.abs(y) - half + radius;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

function shield(x: number, y: number): number {
  // Flat top with rounded shoulders, sides curving into a point at the bottom.
  const top = -0.52;
  const bottom = 0.62;
  if (y < top) return top - y;
  if (y > bottom) return Math.hypot(x, y - bottom);
  const t = (y - top) / (bottom - top);
  const halfWidth = 0.5 * (t < 0.45 ? 1 : Math.cos(((t - 0.45) / 0.55) * (Math.PI / 2)));
  return Math.max(Math.abs(x) - halfWidth, top - y, y - bottom);
}

function coverage(distance: number, pixel: number): number {
  return Math.min(1, Math.max(0, 0.5 - distance / pixel));
}

function over(dst: Rgba, colour: readonly [number, number, number], alpha: number): void {
  const a = alpha + dst[3] * (1 - alpha);
  if (a === 0) return;
  for (let i = 0; i < 3; i++) {
    dst[i] = ((colour[i] ?? 0) * alpha + (dst[i] ?? 0) * dst[3] * (1 - alpha)) / a;
  }
  dst[3] = a;
}

export function drawIcon(size: number): Uint8Array {
  const pixels = new Uint8Array(size * size * 4);
  const pixel = 2 / size;
  const top: [number, number, number] = [29, 53, 87];
  const bottom: [number, number, number] = [17, 24, 39];
  const white: [number, number, number] = [241, 245, 249];
  const amber: [number, number, number] = [245, 158, 11];
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const x = ((px + 0.5) / size) * 2 - 1;
      const y = ((py + 0.5) / size) * 2 - 1;
      const out: Rgba = [0, 0, 0, 0];
      // macOS-style margin: the rounded square fills ~80% of the canvas.
      const t = (y + 1) / 2;
      const bg: [number, number, number] = [0, 1, 2].map(
        (i) => (top[i] ?? 0) * (1 - t) + (bottom[i] ?? 0) * t,
      ) as [number, number, number];
      over(out, bg, coverage(roundedSquare(x, y, 0.8, 0.18), pixel));
      const s = shield(x / 0.9, (y - 0.02) / 0.9) * 0.9;
      over(out, white, coverage(Math.abs(s + 0.045) - 0.045, pixel));
      const r = Math.hypot(x, y - 0.02);
      over(out, amber, coverage(Math.abs(r - 0.24) - 0.045, pixel));
      over(out, amber, coverage(r - 0.09, pixel));
      const o = (py * size + px) * 4;
      pixels[o] = Math.round(out[0]);
      pixels[o + 1] = Math.round(out[1]);
      pixels[o + 2] = Math.round(out[2]);
      pixels[o + 3] = Math.round(out[3] * 255);
    }
  }
  return pixels;
}

const isMain = process.argv[1] === fileURLToPath(import.meta.url);
if (isMain) {
  const dir = join(fileURLToPath(new URL('..', import.meta.url)), 'resources');
  mkdirSync(dir, { recursive: true });
  for (const [name, size] of [
    ['icon.png', 1024],
    ['icon-512.png', 512],
    ['icon-256.png', 256],
  ] as const) {
    writeFileSync(join(dir, name), encodePng(size, drawIcon(size)));
    console.log(`resources/${name} (${size}x${size})`);
  }
}

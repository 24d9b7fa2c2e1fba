/**
 * The one source of random test input (fake secrets, ids, bytes, generated texts), with the
 * signatures of node:crypto's `randomBytes`, `randomInt` and `randomUUID`. Every value follows
 * from the run's seed, `TEST_SEED` (chosen and printed once per Vitest run by
 * test/support/seed-global-setup.ts, replayed with `TEST_SEED=<n>`), and from the stream: the
 * test file under Vitest, so a file draws the same values whatever runs beside it.
 *
 * The values are SHA-256 of (seed, stream, counter): plain, portable and the same on every OS.
 */
import { createHash } from 'node:crypto';
import { newSeed, seedFrom } from './random-seed';

/** The run's seed; outside Vitest (a benchmark, a script) one is chosen and printed once. */
export const testSeed: number = readSeed();

function readSeed(): number {
  const given = seedFrom(process.env.TEST_SEED);
  if (given !== null) return given;
  const seed = newSeed();
  process.env.TEST_SEED = String(seed);
  process.stderr.write(`random test inputs: seed ${seed} (replay with TEST_SEED=${seed})\n`);
  return seed;
}

let stream = 'main';
let counter = 0;
let pool = Buffer.alloc(0);

/** Starts the values of `name` (a test file) from its beginning. */
export function useStream(name: string): void {
  stream = name;
  counter = 0;
  pool = Buffer.alloc(0);
}

function take(size: number): Buffer {
  if (pool.length < size) {
    // Blocks gathered first and joined once: joining per block copied the pool each time, which
    // made a 9 MiB upload quadratic (minutes of CPU in test/engine/crash.test.ts).
    const blocks = [pool];
    let have = pool.length;
    while (have < size) {
      const block = createHash('sha256').update(`${testSeed}\0${stream}\0${counter++}`).digest();
      blocks.push(block);
      have += block.length;
    }
    pool = Buffer.concat(blocks, have);
  }
  const out = pool.subarray(0, size);
  pool = pool.subarray(size);
  return Buffer.from(out);
}

export function randomBytes(size: number): Buffer {
  return take(size);
}

/** An integer in [0, max) or [min, max), without modulo bias. */
export function randomInt(a: number, b?: number): number {
  const [min, max] = b === undefined ? [0, a] : [a, b];
  const range = max - min;
  if (!Number.isSafeInteger(range) || range <= 0 || range > 2 ** 32) {
    throw new RangeError(`randomInt needs min < max within 2^32 (got ${min}, ${max})`);
  }
  const limit = 2 ** 32 - (2 ** 32 % range);
  for (;;) {
    const value = take(4).readUInt32BE(0);
    if (value < limit) return min + (value % range);
  }
}

/** A float in [0, 1), for code written against Math.random. */
export function random(): number {
  return take(4).readUInt32BE(0) / 2 ** 32;
}

/** A version 4 UUID made of seeded bytes. */
export function randomUUID(): `${string}-${string}-${string}-${string}-${string}` {
  const b = take(16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

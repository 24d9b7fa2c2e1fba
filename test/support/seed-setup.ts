import { relative, sep } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';
import { testSeed, useStream } from './random';

// Each test file draws its own stream of the run's seed (test/support/random.ts), and every
// fast-check property or sample that names no seed of its own runs from the run's seed: a
// failure replays with `TEST_SEED=<seed>` (fast-check also prints its seed and path).
const file = expect.getState().testPath ?? 'unknown';
useStream(relative(process.cwd(), file).split(sep).join('/'));
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: testSeed });

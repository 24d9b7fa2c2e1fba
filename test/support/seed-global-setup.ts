import { newSeed } from './random-seed';

/**
 * Vitest's global setup: one seed for the whole run, chosen here when `TEST_SEED` is not given.
 * The test workers inherit it; the summary reporter prints it with how to replay the run.
 */
export default function setup(): void {
  if (!process.env.TEST_SEED) process.env.TEST_SEED = String(newSeed());
}

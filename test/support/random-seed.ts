/** The run's seed, as `TEST_SEED` gives it: a whole number from 0 to 2^31 - 1. */
export const MAX_SEED = 2 ** 31 - 1;

/** A fresh seed for a run that was given none: the only unseeded draw, and it is printed. */
export function newSeed(): number {
  return Math.floor(Math.random() * MAX_SEED);
}

/** `TEST_SEED` read strictly (a typo must not silently become another seed); null when unset. */
export function seedFrom(given: string | undefined): number | null {
  if (given === undefined || given === '') return null;
  const seed = Number(given);
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > MAX_SEED) {
    throw new Error(`TEST_SEED must be a whole number from 0 to ${MAX_SEED} (got "${given}")`);
  }
  return seed;
}

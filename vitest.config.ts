import { defineConfig } from 'vitest/config';
import { pathAliases } from './scripts/path-aliases.mjs';

export default defineConfig({
  resolve: { alias: pathAliases() },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    // One seed per run for every random input (test/support/random.ts), printed at the end.
    globalSetup: ['./test/support/seed-global-setup.ts'],
    setupFiles: ['./test/support/seed-setup.ts'],
  },
});

import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line ("tests: N passed, N failed, N skipped") after Vitest's own
 * summary, so CI can read the outcome without parsing Vitest's formatting; before it, the seed of
 * the run's random inputs and how to replay them.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    const seed = process.env.TEST_SEED ?? '(none)';
    process.stdout.write(
      `\nrandom test inputs: seed ${seed} (replay: TEST_SEED=${seed} npx vitest run <files>)`,
    );
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}

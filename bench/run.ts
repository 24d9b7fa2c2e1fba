import { formatResults, type BenchResult } from './result';

// Every benchmark suite of the project. Each prints figures and ratios against a baseline measured
// in the same run; none of them fails the run on a missed target (timings are not tests).
const suites: Record<string, () => Promise<BenchResult[]>> = {
  sandbox: async () => (await import('./sandbox')).benchSandbox(),
  store: async () => (await import('./store')).benchStore(),
  engine: async () => (await import('./engine')).benchEngine(),
  ui: async () => (await import('./ui')).benchUi(),
  renderer: async () => (await import('./renderer')).benchRenderer(),
};

const only = process.argv.slice(2);
for (const [name, run] of Object.entries(suites)) {
  if (only.length > 0 && !only.includes(name)) continue;
  const results = await run();
  console.log(formatResults(name, results));
  console.log('');
}

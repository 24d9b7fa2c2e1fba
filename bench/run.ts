import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SUITES } from './suites';

// Every benchmark suite of the project, each in a process of its own (a suite's heap and loaded
// code must not weigh on the next one's figures: the UI suite's process plays Electron's main).
// Each prints figures and ratios against a baseline measured in the same run; none of them fails
// the run on a missed target (timings are not tests).

const only = process.argv.slice(2);
let failed = false;
for (const name of SUITES) {
  if (only.length > 0 && !only.includes(name)) continue;
  const file = fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
  const run = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`bench: the ${name} suite exited with ${run.status ?? run.signal}`);
    failed = true;
  }
  console.log('');
}
if (failed) process.exitCode = 1;

/**
 * `bountydesk`: the app's engine from a terminal. Plain Node, never Electron: in a checkout
 * `npm run cli -- …`; built, `out/main/cli.js` beside the engine it starts when the app is not
 * running (docs/cli.md).
 *
 * This file stays small and imports the command's code only after turning on Node's compile
 * cache (when this Node has one), so that code is compiled once, not at every start.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { enableCompileCacheIfPresent } from '@shared/process/compile-cache';

enableCompileCacheIfPresent();
void Promise.all([import('./engine-link'), import('./main')]).then(
  ([{ nodeEngine }, { runCli }]) => {
    const dir = import.meta.dirname;
    const built = join(dir, 'engine.js');
    // Built: the engine bundle beside this one. From the sources: the engine's source under tsx.
    const engine = existsSync(built)
      ? nodeEngine(built)
      : nodeEngine(join(dir, '..', 'engine', 'host', 'engine-process.ts'), ['--import', 'tsx']);
    return runCli(
      process.argv.slice(2),
      {
        stdout: process.stdout,
        stderr: process.stderr,
        stdin: process.stdin,
        env: process.env,
        cwd: process.cwd(),
      },
      { engine, version: version(dir) },
    ).then((code) => {
      // Not process.exit: stdout drains first (a pipe may be slower than the command).
      process.exitCode = code;
    });
  },
);

function version(dir: string): string {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, '..', '..', 'package.json'), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

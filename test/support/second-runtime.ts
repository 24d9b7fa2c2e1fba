/**
 * A second JavaScript runtime whose native ABI differs from the Node running the tests, standing
 * in for Electron (which cannot run here): Node 22 from the npm registry package
 * `node-<platform>-<arch>@22`, which ships the binary and its headers, so a SQLite binding can be
 * built for it offline with node-gyp `--nodedir`. Fetched once (about 50 MB, `npm pack`, needs
 * the npm registry) and kept with its binding under the ignored `.scratch/runtimes/`; a later run
 * uses the copy.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildSqliteBinding } from '../../scripts/sqlite-binding';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
export const RUNTIMES = join(ROOT, '.scratch', 'runtimes');

export interface SecondRuntime {
  /** The runtime's executable. */
  node: string;
  /** `process.version` there (`v22.…`) and its NODE_MODULE_VERSION. */
  version: string;
  modules: string;
  /** The SQLite addon built for it. */
  binding: string;
}

const PACKAGE = `node-${process.platform}-${process.arch}`;

/** Node 22 with its SQLite binding, fetched and built when missing (minutes the first time). */
export async function node22(): Promise<SecondRuntime> {
  const home = join(RUNTIMES, `${PACKAGE}-22`);
  const node = join(home, 'bin', 'node');
  if (!existsSync(node)) await fetchNode(home);
  const [version = '', modules = ''] = (
    await run(node, ['-p', 'process.version + " " + process.versions.modules'])
  ).stdout
    .trim()
    .split(' ');
  const binding = await buildSqliteBinding(
    { runtime: 'node', version, nodedir: home, unoptimized: true },
    RUNTIMES,
  );
  return { node, version, modules, binding };
}

async function fetchNode(home: string): Promise<void> {
  const download = join(RUNTIMES, '.download');
  await rm(download, { recursive: true, force: true });
  await mkdir(download, { recursive: true });
  try {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    await run(npm, ['pack', `${PACKAGE}@22`, '--pack-destination', download, '--silent'], {
      timeout: 600_000,
      shell: process.platform === 'win32',
    });
    const [tarball] = (await readdir(download)).filter((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${PACKAGE}@22 gave no tarball`);
    await run('tar', ['xzf', tarball], { cwd: download });
    await rm(home, { recursive: true, force: true });
    await rename(join(download, 'package'), home);
  } catch (error) {
    throw new Error(
      `Node 22 for the second-runtime test could not be fetched from the npm registry ` +
        `(npm pack ${PACKAGE}@22 into ${RUNTIMES}): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    await rm(download, { recursive: true, force: true });
  }
}

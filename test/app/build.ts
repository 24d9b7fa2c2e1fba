import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT = join(ROOT, 'out');
const STAMP = join(OUT, '.source-hash');
const LOCK = join(ROOT, '.out.lock');
const BUILD_TIMEOUT_MS = 240_000;

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** A hash of everything the app's bundles are made of, so a build is reused only while fresh. */
async function sourceHash(): Promise<string> {
  const hash = createHash('sha256');
  const files = [
    ...(await listFiles(join(ROOT, 'src'))),
    join(ROOT, 'electron.vite.config.ts'),
    join(ROOT, 'package-lock.json'),
    join(ROOT, 'resources/icon.png'),
  ].sort();
  for (const file of files) {
    hash.update(relative(ROOT, file));
    hash.update(await readFile(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Builds the app as `npm start` and the installers do (`electron-vite build` with the project's
 * own config, into `out/`) unless `out/` already holds a build of the current sources. Test files
 * run in parallel workers: one builds under a lock, the others wait and reuse it. Returns `out/`.
 */
export async function buildApp(): Promise<string> {
  const key = await sourceHash();
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  const fresh = async (): Promise<boolean> =>
    existsSync(STAMP) && (await readFile(STAMP, 'utf8')) === key;
  while (!(await fresh())) {
    if (Date.now() > deadline) throw new Error('the app build did not finish in time');
    try {
      await mkdir(LOCK);
    } catch {
      // Another worker builds; a lock older than the timeout is left over from a killed run.
      const age = Date.now() - (await stat(LOCK).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > BUILD_TIMEOUT_MS) await rm(LOCK, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      if (await fresh()) break;
      await rm(STAMP, { force: true });
      await run(
        process.execPath,
        [
          join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'),
          'build',
          '--logLevel',
          'error',
        ],
        { cwd: ROOT, timeout: BUILD_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      );
      await writeFile(STAMP, key);
    } finally {
      await rm(LOCK, { recursive: true, force: true });
    }
  }
  return OUT;
}

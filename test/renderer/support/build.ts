import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CONFIG = join(ROOT, 'test/renderer/support/renderer.vite.config.ts');
const BUILD_TIMEOUT_MS = 180_000;

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** A hash of everything the renderer bundle is made of, so a build is reused only while fresh. */
async function sourceHash(): Promise<string> {
  const hash = createHash('sha256');
  const files = [
    ...(await listFiles(join(ROOT, 'src/renderer'))),
    ...(await listFiles(join(ROOT, 'src/shared'))),
    join(ROOT, 'electron.vite.config.ts'),
    join(ROOT, 'package-lock.json'),
    CONFIG,
  ].sort();
  for (const file of files) {
    hash.update(relative(ROOT, file));
    hash.update(await readFile(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Builds of older sources, left by earlier runs; one still in use is younger than this. */
const OLD_BUILD_MS = 30 * 60_000;

async function removeOldBuilds(current: string): Promise<void> {
  for (const name of await readdir(tmpdir())) {
    const path = join(tmpdir(), name);
    if (!name.startsWith('bounty-desk-renderer-') || name.endsWith('.lock') || path === current) {
      continue;
    }
    const info = await stat(path).catch(() => null);
    if (info && Date.now() - info.mtimeMs > OLD_BUILD_MS) {
      await rm(path, { recursive: true, force: true });
    }
  }
}

/**
 * Builds the shipped renderer (the project's own electron-vite renderer config, unchanged) into a
 * temporary folder and returns the folder holding `index.html`. Test files run in parallel
 * workers: one builds under a lock, the others wait for it and reuse the result.
 */
export async function buildRenderer(): Promise<string> {
  // A renderer built elsewhere (e.g. `out/renderer` of `npm run build`) may be named instead.
  const prebuilt = process.env.RENDERER_DIR;
  if (prebuilt) return prebuilt;
  const key = await sourceHash();
  const outDir = join(tmpdir(), `bounty-desk-renderer-${key}`);
  const rendererDir = join(outDir, 'renderer');
  const done = join(outDir, '.done');
  const lock = `${outDir}.lock`;
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  while (!existsSync(done)) {
    if (Date.now() > deadline) throw new Error('renderer build did not finish in time');
    try {
      await mkdir(lock);
    } catch {
      // Another worker builds; a lock older than the timeout is left over from a killed run.
      const age = Date.now() - (await stat(lock).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > BUILD_TIMEOUT_MS) await rm(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    try {
      if (existsSync(done)) break;
      await rm(outDir, { recursive: true, force: true });
      await run(
        process.execPath,
        [
          join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'),
          'build',
          '-c',
          CONFIG,
          '--outDir',
          outDir,
          '--logLevel',
          'error',
        ],
        { cwd: ROOT, timeout: BUILD_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      );
      await writeFile(done, new Date().toISOString());
      await removeOldBuilds(outDir);
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
  return rendererDir;
}

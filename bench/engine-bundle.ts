/**
 * The bench's engine process as the app runs its own: one bundled file under plain Node, not
 * TypeScript sources through tsx. tsx's loader runs on a thread of its own with the transformed
 * sources of every module: 88 MB of resident set in an engine process (168 MB against 80 MB for
 * the same modules bundled), which the app's engine never holds. Built once per bench process
 * with Vite (the app's own bundler, as electron.vite.config.ts builds `out/main/engine.js`):
 * packages stay external, the path aliases resolve as in the app. The build runs in a child
 * process: Vite loaded into the process playing main would weigh on main's heap and its GC.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const built = new Map<string, Promise<string>>();

/** The bundled `entry` (a path under the repository), built on first use; its file. */
export function bundledEngine(entry: string): Promise<string> {
  let file = built.get(entry);
  if (!file) {
    file = bundleInChild(entry);
    built.set(entry, file);
  }
  return file;
}

async function bundleInChild(entry: string): Promise<string> {
  // Inside the repository (git ignores tmp/): the bundle's packages resolve from node_modules.
  const name = basename(entry).replace(/\.ts$/u, '');
  const outDir = join(ROOT, 'tmp', `bench-${name}-${process.pid}`);
  mkdirSync(outDir, { recursive: true });
  process.on('exit', () => rmSync(outDir, { recursive: true, force: true }));
  await promisify(execFile)(process.execPath, ['--import', 'tsx', SELF, entry, outDir], {
    cwd: ROOT,
  });
  return join(outDir, `${name}.mjs`);
}

async function bundle(entry: string, outDir: string): Promise<void> {
  const { build } = await import('vite');
  const { pathAliases } = await import('../scripts/path-aliases.mjs');
  await build({
    configFile: false,
    logLevel: 'warn',
    root: ROOT,
    resolve: { alias: pathAliases() },
    build: {
      ssr: entry,
      outDir,
      emptyOutDir: true,
      minify: false,
      rollupOptions: { output: { format: 'esm', entryFileNames: '[name].mjs' } },
    },
    ssr: { target: 'node' },
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [entry, outDir] = process.argv.slice(2);
  if (!entry || !outDir) throw new Error('usage: engine-bundle.ts <entry> <outDir>');
  await bundle(entry, outDir);
}

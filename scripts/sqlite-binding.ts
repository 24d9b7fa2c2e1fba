// SQLite's native addon (better-sqlite3) for a runtime other than the Node that ran `npm ci`, in
// a folder of its own (`.native/<runtime>-<version>-<platform>-<arch>/`, src/engine/store/
// sqlite-binding-path.ts), so node_modules keeps Node's build for the tests and the sandbox.
//
//   npm run sqlite:electron          the installed Electron's (`npm start` runs it first): the
//                                    prebuilt addon from better-sqlite3's releases
//                                    (prebuild-install), else built with Electron's headers
//                                    (node-gyp); both need a network.
//   tsx scripts/sqlite-binding.ts node <nodedir>
//                                    a Node whose headers are in <nodedir>: built offline.
//
// A build is made in a copy of the package and moved into place whole: a folder holds a whole
// addon or none.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { SQLITE_ADDON, sqliteBindingPath } from '../src/engine/store/sqlite-binding-path';

const run = promisify(execFile);

/**
 * The environment without npm's settings of a native build (`npm_config_nodedir`, `_target`,
 * `_runtime`, `_disturl`, `_arch`…): under `npm run` or `npx` they reach node-gyp and
 * prebuild-install and win over the target named here (a machine whose npm config sets
 * `nodedir` would otherwise build for its own Node).
 */
function buildEnv(): NodeJS.ProcessEnv {
  const npmBuildSetting =
    /^npm_config_(nodedir|target|runtime|disturl|dist_url|arch|target_arch|platform|build_from_source)$/i;
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !npmBuildSetting.test(name)),
  );
}
const require = createRequire(import.meta.url);
export const ROOT = join(import.meta.dirname, '..');

export type Target =
  | { runtime: 'electron'; version: string; arch?: string }
  | {
      runtime: 'node';
      version: string;
      nodedir: string;
      /**
       * Without the compiler's optimizations: minutes less for a binding that only has to load
       * and open a mirror (the test's second runtime), never for one the app uses.
       */
      unoptimized?: boolean;
    };

/** Where the addon for `target` goes under `root`. */
export function bindingFile(target: Target, root = ROOT): string {
  return sqliteBindingPath(root, target.runtime, target.version, process.platform, arch(target));
}

function arch(target: Target): string {
  return (target.runtime === 'electron' ? target.arch : undefined) ?? process.arch;
}

/** The addon for `target`, made unless it is there already; returns its path. */
export async function buildSqliteBinding(target: Target, root = ROOT): Promise<string> {
  const file = bindingFile(target, root);
  if (existsSync(file)) return file;
  const folder = dirname(file);
  await mkdir(dirname(folder), { recursive: true });
  const staging = await mkdtemp(join(dirname(folder), '.build-'));
  try {
    const pkg = dirname(require.resolve('better-sqlite3/package.json'));
    for (const part of ['package.json', 'binding.gyp', 'src', 'deps']) {
      await cp(join(pkg, part), join(staging, part), { recursive: true });
    }
    if (target.runtime === 'electron') await electronBuild(staging, target);
    else {
      const flags: Record<string, string> = target.unoptimized
        ? { CFLAGS: '-O0', CXXFLAGS: '-O0' }
        : {};
      await nodeGyp(staging, [`--nodedir=${target.nodedir}`], flags);
    }
    const built = join(staging, 'build', 'Release', SQLITE_ADDON);
    if (!existsSync(built)) throw new Error(`the build made no ${SQLITE_ADDON}`);
    const done = join(staging, 'done');
    await mkdir(done);
    await rename(built, join(done, SQLITE_ADDON));
    await rm(folder, { recursive: true, force: true });
    await rename(done, folder);
    return file;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function electronBuild(
  staging: string,
  target: Extract<Target, { runtime: 'electron' }>,
): Promise<void> {
  const targetArch = arch(target);
  try {
    await run(
      process.execPath,
      [
        require.resolve('prebuild-install/bin.js'),
        '--runtime=electron',
        `--target=${target.version}`,
        `--arch=${targetArch}`,
        `--platform=${process.platform}`,
      ],
      { cwd: staging, timeout: 180_000, env: buildEnv() },
    );
    return;
  } catch {
    // No prebuilt addon for this Electron (or no network to GitHub): build it with its headers.
  }
  await nodeGyp(staging, [
    `--target=${target.version}`,
    `--arch=${targetArch}`,
    '--dist-url=https://electronjs.org/headers',
  ]);
}

/** node-gyp: the project's, else the one npm ships (npm names it to the scripts it runs). */
function nodeGypScript(): string {
  try {
    return require.resolve('node-gyp/bin/node-gyp.js');
  } catch {
    const npms = process.env.npm_config_node_gyp;
    if (npms && existsSync(npms)) return npms;
    throw new Error('node-gyp is not installed: run `npm ci` first');
  }
}

async function nodeGyp(
  cwd: string,
  args: string[],
  flags: Record<string, string> = {},
): Promise<void> {
  try {
    await run(process.execPath, [nodeGypScript(), 'rebuild', '--release', ...args], {
      cwd,
      env: { ...buildEnv(), ...flags },
      timeout: 3_600_000,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    const last = stderr.trim().split('\n').slice(-3).join(' ');
    throw new Error(`node-gyp failed${last ? `: ${last}` : ''}`, { cause: error });
  }
}

async function electronVersion(): Promise<string> {
  const file = require.resolve('electron/package.json');
  return (JSON.parse(await readFile(file, 'utf8')) as { version: string }).version;
}

async function main(argv: string[]): Promise<void> {
  const [runtime = 'electron', nodedir] = argv;
  if (runtime === 'electron') {
    const version = await electronVersion();
    try {
      const file = await buildSqliteBinding({ runtime: 'electron', version });
      console.log(`SQLite for Electron ${version}: ${file}`);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      console.error(
        `Bounty Desk cannot start: SQLite's binding for Electron ${version} could not be ` +
          `downloaded or built (${why}); run \`npm start\` on a machine that can reach github.com ` +
          "and electronjs.org, with the build tools in README's System packages.",
      );
      process.exit(1);
    }
    return;
  }
  if (runtime === 'node' && nodedir) {
    const version = (await run(join(nodedir, 'bin', 'node'), ['-p', 'process.version'])).stdout;
    const file = await buildSqliteBinding({ runtime: 'node', version: version.trim(), nodedir });
    console.log(`SQLite for Node ${version.trim()}: ${file}`);
    return;
  }
  console.error('usage: tsx scripts/sqlite-binding.ts [electron | node <nodedir>]');
  process.exit(2);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv.slice(2));
}

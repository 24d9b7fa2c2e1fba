// `npm start` / `npm run dev` run this first: when Electron's binary is missing (installed with
// ELECTRON_SKIP_BINARY_DOWNLOAD=1, or a download that failed) it tries the download once and,
// if that fails too, says in one line what is missing and how to get it, instead of
// electron-vite's bare "Electron uninstall".
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
let electronDir;
try {
  electronDir = dirname(require.resolve('electron/package.json'));
} catch {
  fail('the electron package is not installed: run `npm ci` first.');
}

const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
const pathFile = join(electronDir, 'path.txt');
const binary = () => {
  if (!existsSync(pathFile)) return null;
  const relative = readFileSync(pathFile, 'utf8').trim();
  return join(override ?? join(electronDir, 'dist'), relative);
};

if (!binary() || !existsSync(binary())) {
  const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
    stdio: 'ignore',
    timeout: 180_000,
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '' },
  });
  if (result.status !== 0 || !binary() || !existsSync(binary())) {
    fail(
      "Electron's binary is missing and could not be downloaded from github.com: on a machine " +
        'that can reach it run `node node_modules/electron/install.js` (or `npm ci` without ' +
        'ELECTRON_SKIP_BINARY_DOWNLOAD), or set ELECTRON_OVERRIDE_DIST_PATH to an Electron ' +
        `${readVersion()} folder. The tests (\`npm test\`) do not need it.`,
    );
  }
}

function readVersion() {
  try {
    return JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')).version;
  } catch {
    return '';
  }
}

/** @param {string} message */
function fail(message) {
  console.error(`Bounty Desk cannot start: ${message}`);
  process.exit(1);
}

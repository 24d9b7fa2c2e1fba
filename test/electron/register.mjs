// `node --import ./test/electron/register.mjs out/main/index.js`: the app's main process with
// `electron` replaced by the stand-in in this folder. Nothing else is changed: the built bundle
// and its dependencies load exactly as Node (and Electron) resolve them.
import Module, { register } from 'node:module';
import { fileURLToPath } from 'node:url';

register('./hooks.mjs', import.meta.url, { data: { role: 'main' } });

// CommonJS packages require `electron` too (electron-updater does, lazily). Node 20's CJS loader
// does not pass through the hooks above, so its resolution is pointed at the stand-in as well:
// `require` then loads the ES module through require(esm) (Node 20.19+), the very instance that
// `import` gets, whether or not an `electron` package is installed (in a packed app it is not).
const STAND_IN = fileURLToPath(new URL('./electron.mjs', import.meta.url));
const cjs = /** @type {any} */ (Module);
const resolveFilename = cjs._resolveFilename;
cjs._resolveFilename = function (/** @type {string} */ request, /** @type {unknown[]} */ ...rest) {
  if (request === 'electron') return STAND_IN;
  return resolveFilename.call(this, request, ...rest);
};

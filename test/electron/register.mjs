// `node --import ./test/electron/register.mjs out/main/index.js`: the app's main process with
// `electron` replaced by the stand-in in this folder. Nothing else is changed: the built bundle
// and its dependencies load exactly as Node (and Electron) resolve them.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url, { data: { role: 'main' } });

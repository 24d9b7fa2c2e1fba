// Node module hooks of the Electron stand-in (registered by register.mjs / utility-register.mjs).
// In the app's main process `electron` resolves to the stand-in; in the app's utility processes
// (engine, sandbox) importing `electron` is an error: they must run under plain Node.

const STAND_IN = new URL('./electron.mjs', import.meta.url).href;

/** @type {{ role: 'main' | 'utility' }} */
let config = { role: 'main' };

/** @param {{ role: 'main' | 'utility' }} data */
export function initialize(data) {
  config = data;
}

/**
 * @param {string} specifier
 * @param {object} context
 * @param {(specifier: string, context: object) => Promise<{ url: string }>} next
 */
export async function resolve(specifier, context, next) {
  if (specifier === 'electron' || specifier.startsWith('electron/')) {
    if (config.role === 'utility') {
      throw new Error(
        `A utility process of the app imported "${specifier}": the engine and the sandbox ` +
          'must never depend on Electron.',
      );
    }
    return { url: STAND_IN, shortCircuit: true };
  }
  return next(specifier, context);
}

// Loaded into every utility process the stand-in forks (`utilityProcess.fork`): gives the process
// Electron's `process.parentPort` over Node's IPC channel, and forbids importing `electron`.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url, { data: { role: 'utility' } });

const send = process.send?.bind(process);
/** @type {Set<(event: { data: unknown, ports: unknown[] }) => void>} */
const listeners = new Set();
// As Electron's port, messages wait until the process listens (its entry module loads later).
/** @type {unknown[]} */
const early = [];
process.on('message', (data) => {
  if (listeners.size === 0) early.push(data);
  for (const listener of listeners) listener({ data, ports: [] });
});

Object.defineProperty(process, 'parentPort', {
  value: {
    /** @param {'message'} event @param {(event: { data: unknown, ports: unknown[] }) => void} listener */
    on(event, listener) {
      if (event !== 'message') return this;
      listeners.add(listener);
      for (const data of early.splice(0)) listener({ data, ports: [] });
      return this;
    },
    /** @param {unknown} message */
    postMessage(message) {
      send?.(message);
    },
  },
});
// Electron's utility process has no `process.send`: code that works here must not rely on it.
Object.defineProperty(process, 'send', { value: undefined, configurable: true, writable: true });

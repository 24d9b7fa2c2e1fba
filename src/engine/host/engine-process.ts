/**
 * Entry point of the engine process (`out/main/engine.js`): main starts it as an Electron utility
 * process; tests and benchmarks fork it under plain Node. SQLite, the keychain, the sync and the
 * outbox all run here, so nothing they do can stall a window.
 */
import { join } from 'node:path';
import { parentPort } from '@shared/process/parent-port';
import { sizeHeapForMemory } from './heap-size';
import { Engine } from '../commands/engine';
import { createFileLogger, silentLogger } from '../log/logger';
import { KeychainSecretStore } from '../secrets/keychain-secret-store';
import { useSqliteBinding } from '../store/sqlite-binding';
import { serveEngine } from './engine-host';

sizeHeapForMemory();
const secrets = new KeychainSecretStore();

const parent = parentPort();
let deliver: ((message: unknown) => void) | null = null;

serveEngine(
  {
    postMessage: (message) => parent.postMessage(message),
    onMessage: (listener) => {
      deliver = listener;
      parent.onMessage(listener);
    },
  },
  (options, log) => new Engine({ dataDir: options.dataDir, secrets, log }),
  (code) => process.exit(code),
  {
    keyFor: (serverUrl) => secrets.get(serverUrl),
    makeLogger: (options) =>
      options.logDir
        ? createFileLogger({ file: join(options.logDir, 'engine.log'), console: 'error' })
        : silentLogger,
    // Before any mirror is opened: a binding for another runtime is a sentence, not a crash loop.
    check: (options) => useSqliteBinding(options.sqliteBinding),
    shareDataDir: true,
  },
);

// Forked under Node (the command line's own engine, tests): a parent that ends, even killed,
// closes the channel; the engine then closes the mirror and lets the data folder go instead of
// holding it for nobody, once the other commands it answers are done. (An Electron utility
// process ends with the app.)
process.on('disconnect', () => deliver?.({ type: 'close', waitForPeers: true }));

/**
 * Entry point of the engine process (`out/main/engine.js`): main starts it as an Electron utility
 * process; tests and benchmarks fork it under plain Node. SQLite, the keychain, the sync and the
 * outbox all run here, so nothing they do can stall a window.
 */
import { join } from 'node:path';
import { parentPort } from '../../shared/process/parent-port';
import { Engine } from '../engine/engine';
import { createFileLogger, silentLogger } from '../log/logger';
import { KeychainSecretStore } from '../secrets/keychain-secret-store';
import { serveEngine } from './engine-host';

const secrets = new KeychainSecretStore();

serveEngine(
  parentPort(),
  (options, log) => new Engine({ dataDir: options.dataDir, secrets, log }),
  (code) => process.exit(code),
  {
    keyFor: (serverUrl) => secrets.get(serverUrl),
    makeLogger: (options) =>
      options.logDir
        ? createFileLogger({ file: join(options.logDir, 'engine.log'), console: 'error' })
        : silentLogger,
  },
);

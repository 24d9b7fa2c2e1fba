/**
 * Entry point of the engine process (`out/main/engine.js`): main starts it as an Electron utility
 * process; tests and benchmarks fork it under plain Node. SQLite, the keychain, the sync and the
 * outbox all run here, so nothing they do can stall a window.
 */
import { parentPort } from '../../shared/process/parent-port';
import { Engine } from '../engine/engine';
import { KeytarSecretStore } from '../secrets/keytar-secret-store';
import { serveEngine } from './engine-host';

serveEngine(
  parentPort(),
  (options) => new Engine({ dataDir: options.dataDir, secrets: new KeytarSecretStore() }),
  (code) => process.exit(code),
);

/**
 * The engine (SQLite, keychain, sync, outbox) and the embedded sandbox, each in a utility process
 * of its own, so nothing they do can stall a window.
 */
import { app, dialog, utilityProcess } from 'electron';
import type { Logger } from '@engine/log/logger';
import type { BridgeEvents } from '@shared/bridge/contract';
import { EngineClient } from './engine-client';
import { engineSqliteBinding, type AppPaths } from './paths';
import { SandboxAccount } from './sandbox-account';
import { sandboxInProcess } from './sandbox-launcher';

export function engineAndSandbox(deps: {
  paths: AppPaths;
  log: Logger;
  /** Tells the window the engine's state. */
  sendState(state: BridgeEvents['engine']): void;
}): { engine: EngineClient; sandbox: SandboxAccount } {
  const { paths, log } = deps;
  const engine = new EngineClient({
    fork: () =>
      utilityProcess.fork(paths.engineEntry, [], {
        serviceName: 'Bounty Desk engine',
      }),
    options: {
      dataDir: paths.dataDir,
      logDir: paths.logDir,
      sqliteBinding: engineSqliteBinding(app),
    },
    onState: (state) => {
      log[state === 'restarting' ? 'warn' : 'info']('engine', 'state', { state });
      deps.sendState({ state });
    },
    // The engine cannot run on this machine as installed: the sentence names the fix.
    onFailed: (message) => {
      log.error('engine', 'cannot-start', {});
      console.error(message);
      // The window may already be up: the box says it, the log and the terminal keep it.
      void app
        .whenReady()
        .then(() => dialog.showErrorBox('Bounty Desk cannot start', message))
        .catch(() => undefined);
    },
  });
  const sandbox = new SandboxAccount({
    engine: engine.calls,
    dataDir: paths.sandboxDir,
    choiceFile: paths.choiceFile,
    start: sandboxInProcess(() =>
      utilityProcess.fork(paths.sandboxEntry, [], {
        serviceName: 'Bounty Desk sandbox',
      }),
    ),
  });
  return { engine, sandbox };
}

import { Engine } from '../../src/engine/commands';
import { serveEngine } from '../../src/engine/host/engine-host';
import type { FromEngine, ToEngine } from '../../src/engine/host/protocol';
import { KeychainSecretStore } from '../../src/engine/secrets';
import { waitUntil } from '../support/wait';

/**
 * A real engine (signed out) served on `dataDir` as the engine process serves it; the port to
 * main is the only stand-in: it records what would go to main.
 */
export function servedEngine(dataDir: string, serve: { shareDataDir?: boolean } = {}) {
  const sent: FromEngine[] = [];
  let deliver: (message: unknown) => void = () => undefined;
  let engine: Engine | null = null;
  let exited = false;
  serveEngine(
    { postMessage: (m) => sent.push(m as FromEngine), onMessage: (l) => (deliver = l) },
    (engineOptions) => {
      engine = new Engine({
        dataDir: engineOptions.dataDir,
        secrets: new KeychainSecretStore(),
        autoStart: false,
      });
      return engine;
    },
    () => (exited = true),
    serve,
  );
  const send = (message: ToEngine): void => deliver(message);
  send({ type: 'init', options: { dataDir } });
  return {
    sent,
    send,
    exited: () => exited,
    ready: () => sent.some((m) => m.type === 'ready'),
    engine: () => {
      if (!engine) throw new Error('no engine yet');
      return engine;
    },
  };
}

/** Waits, polling every 10 ms for at most `timeoutMs`, until `check` holds. */
export const until = (check: () => boolean, timeoutMs = 5_000): Promise<void> =>
  waitUntil(check.toString(), check, { timeoutMs, everyMs: 10 });

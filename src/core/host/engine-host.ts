import type { ParentPort } from '../../shared/process/parent-port';
import type { Engine } from '../engine/engine';
import { toBridgeError } from './bridge-error';
import {
  ENGINE_CALLS,
  ENGINE_EVENTS,
  type EngineCallName,
  type EngineProcessOptions,
  type FromEngine,
  type ToEngine,
} from './protocol';

const known = new Set<string>(ENGINE_CALLS);

/**
 * The engine process's side of the protocol: waits for `init`, makes the engine and restores the
 * signed-in account, then answers calls (each on its own, in any order) and posts every event.
 * `close` stops the engine and ends the process.
 */
export function serveEngine(
  port: ParentPort,
  makeEngine: (options: EngineProcessOptions) => Engine,
  exit: (code: number) => void,
): void {
  let engine: Engine | null = null;
  let opened: Promise<unknown> = Promise.resolve();
  const post = (message: FromEngine): void => port.postMessage(message);

  const call = async (id: number, name: EngineCallName, args: unknown[]): Promise<void> => {
    try {
      await opened;
      if (!engine) throw new Error('The engine was not started.');
      if (!known.has(name)) throw new Error(`Unknown engine call: ${String(name)}`);
      const method = engine[name] as (...a: unknown[]) => Promise<unknown>;
      const value = await method.apply(engine, args);
      post({ type: 'result', id, ok: true, value });
    } catch (error) {
      post({ type: 'result', id, ok: false, error: toBridgeError(error) });
    }
  };

  port.onMessage((raw) => {
    const message = raw as ToEngine;
    switch (message.type) {
      case 'init': {
        if (engine) return;
        const created = makeEngine(message.options);
        engine = created;
        for (const name of ENGINE_EVENTS) {
          created.events.on(name, (payload) => post({ type: 'event', name, payload }));
        }
        // Calls wait for the account; a failed restore leaves the engine signed out.
        opened = created.open().catch((error: unknown) => {
          console.error('engine: could not restore the account:', toBridgeError(error).message);
        });
        void opened.then(() => post({ type: 'ready' }));
        return;
      }
      case 'call':
        void call(message.id, message.name, message.args);
        return;
      case 'close':
        void (engine?.close() ?? Promise.resolve()).catch(() => undefined).finally(() => exit(0));
        return;
    }
  });
}

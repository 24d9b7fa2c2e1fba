import type { ParentPort } from '../../shared/process/parent-port';
import { checkForCredentials } from '../diagnostics/check';
import { summarizeOutbox } from '../diagnostics/outbox-summary';
import type { Engine } from '../engine/engine';
import { logEngineEvents } from '../log/engine-log';
import { silentLogger, type Logger } from '../log/logger';
import { toBridgeError } from './bridge-error';
import { ENGINE_EVENTS } from '../../shared/bridge/events';
import { routeOf } from '../engine/routes';
import {
  HOST_CALLS,
  type EngineCallName,
  type EngineEvent,
  type EngineProcessOptions,
  type FromEngine,
  type HostCalls,
  type ToEngine,
} from './protocol';

const hostCalls = new Set<string>(HOST_CALLS);

export interface ServeOptions {
  /** The key the keychain holds for a server (the diagnostics check removes it exactly). */
  keyFor?(serverUrl: string): Promise<string | null>;
  /** The process's log, once `init` says where it goes. */
  makeLogger?(options: EngineProcessOptions): Logger;
}

/**
 * The engine process's side of the protocol: waits for `init`, makes the engine and restores the
 * signed-in account, then answers calls (each on its own, in any order) and posts every event.
 * `close` stops the engine and ends the process. Sync, outbox and triage events, and failed calls
 * (by name and error code), go to the process's log.
 */
export function serveEngine(
  port: ParentPort,
  makeEngine: (options: EngineProcessOptions, log: Logger) => Engine,
  exit: (code: number) => void,
  serve: ServeOptions = {},
): void {
  let engine: Engine | null = null;
  let log: Logger = silentLogger;
  /** Looks at the outbox for the log; after a call, since a call may have queued a write. */
  let lookAtOutbox = (): void => undefined;
  let opened: Promise<unknown> = Promise.resolve();
  // The events of a turn, sent together at its end, or before a result (main sees them in the
  // order they happened).
  let events: EngineEvent[] = [];
  let eventsSoon: NodeJS.Immediate | null = null;
  const sendEvents = (): void => {
    if (eventsSoon) clearImmediate(eventsSoon);
    eventsSoon = null;
    if (events.length === 0) return;
    port.postMessage({ type: 'events', events } satisfies FromEngine);
    events = [];
  };
  const queueEvent = (event: EngineEvent): void => {
    events.push(event);
    eventsSoon ??= setImmediate(sendEvents);
  };
  const post = (message: FromEngine): void => {
    sendEvents();
    port.postMessage(message);
  };

  const signedInKey = async (): Promise<string | null> => {
    const account = await engine?.getAccount();
    return account && serve.keyFor ? serve.keyFor(account.serverUrl) : null;
  };
  const host: HostCalls = {
    async outboxSummary() {
      if (!engine || !(await engine.getAccount())) return null;
      return summarizeOutbox(engine.session.store.outbox.list());
    },
    async checkCredentials(text) {
      const key = await signedInKey().catch(() => null);
      return checkForCredentials(text, key ? [key] : []);
    },
  };

  const call = async (id: number, name: EngineCallName, args: unknown[]): Promise<void> => {
    try {
      await opened;
      if (!engine) throw new Error('The engine was not started.');
      let value: unknown;
      if (hostCalls.has(name)) {
        const method = host[name as keyof HostCalls] as (...a: unknown[]) => Promise<unknown>;
        value = await method(...args);
      } else {
        // Straight to the object that answers: the engine itself or one of the session's groups.
        const answer = routeOf(engine, name);
        if (!answer) throw new Error(`Unknown engine call: ${String(name)}`);
        value = await answer(...args);
        lookAtOutbox();
      }
      post({ type: 'result', id, ok: true, value });
    } catch (error) {
      engine?.noteFailure(error);
      const plain = toBridgeError(error);
      log.warn('engine', 'call-failed', {
        call: String(name),
        error: plain.name,
        code: plain.code,
        status: plain.status,
        field: plain.field,
      });
      post({ type: 'result', id, ok: false, error: plain });
    }
  };

  port.onMessage((raw) => {
    const message = raw as ToEngine;
    switch (message.type) {
      case 'init': {
        if (engine) return;
        log = serve.makeLogger?.(message.options) ?? silentLogger;
        const created = makeEngine(message.options, log);
        engine = created;
        for (const name of ENGINE_EVENTS) {
          created.events.on(name, (payload) => queueEvent({ name, payload } as EngineEvent));
        }
        lookAtOutbox = logEngineEvents({
          events: created.events,
          log,
          outbox: () => {
            try {
              return created.session.store.outbox.list();
            } catch {
              return null; // signed out: no mirror open
            }
          },
        }).look;
        log.info('engine', 'started', { pid: process.pid });
        // Calls wait for the account; a failed restore leaves the engine signed out.
        opened = created
          .open()
          .then((account) =>
            log.info(
              'engine',
              'account',
              account ? { signedIn: true, sandbox: account.sandbox } : { signedIn: false },
            ),
          )
          .catch((error: unknown) => {
            const plain = toBridgeError(error);
            log.error('engine', 'restore-failed', { error: plain.name, code: plain.code });
            console.error('engine: could not restore the account:', plain.message);
          });
        void opened.then(() => post({ type: 'ready' }));
        return;
      }
      case 'call':
        void call(message.id, message.name, message.args);
        return;
      case 'close':
        log.info('engine', 'closing');
        void (engine?.close() ?? Promise.resolve())
          .catch(() => undefined)
          .finally(() => {
            sendEvents();
            exit(0);
          });
        return;
    }
  });
}

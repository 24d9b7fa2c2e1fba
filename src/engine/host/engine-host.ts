import type { ParentPort } from '@shared/process/parent-port';
import { checkForCredentials } from '../diagnostics/check';
import { summarizeOutbox } from '../diagnostics/outbox-summary';
import type { Engine } from '../commands/engine';
import { logEngineEvents } from '../log/engine-log';
import { silentLogger, type Logger } from '../log/logger';
import { toBridgeError } from './bridge-error';
import { ENGINE_EVENTS } from '@shared/bridge/events';
import { routeOf } from '../commands/routes';
import { lockDataDir, type DataLock } from './data-lock';
import { listenEngineSocket, type EngineSocketServer } from './engine-socket';
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
  /**
   * What must hold before the engine is made (its SQLite binding loads): a throw is posted as
   * `failed` with its message and the process ends, so main does not start it again.
   */
  check?(options: EngineProcessOptions): void;
  /**
   * Hold the data folder's writer lock before the mirror opens (waiting while another process
   * holds it), and answer the same user's other processes (the command line) on the engine's
   * socket while it is held. The engine process does; in-process tests need not.
   */
  shareDataDir?: boolean;
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
  let lock: DataLock | null = null;
  let lockError: unknown = null;
  let socket: EngineSocketServer | null = null;
  let closing = false;
  /** Calls not answered yet: the mirror closes only after them (a peer may have left meanwhile). */
  let inFlight = 0;
  let idle: (() => void) | null = null;
  // The events of a turn, sent together at its end, or before a result (main sees them in the
  // order they happened).
  let events: EngineEvent[] = [];
  let eventsSoon: NodeJS.Immediate | null = null;
  const sendEvents = (): void => {
    if (eventsSoon) clearImmediate(eventsSoon);
    eventsSoon = null;
    if (events.length === 0) return;
    const message = { type: 'events', events } satisfies FromEngine;
    port.postMessage(message);
    socket?.broadcast(message);
    events = [];
  };
  const queueEvent = (event: EngineEvent): void => {
    events.push(event);
    eventsSoon ??= setImmediate(sendEvents);
  };
  const toMain = (message: FromEngine): void => port.postMessage(message);
  /** A result goes to whoever asked (main, or a peer on the socket), after the turn's events. */
  const post = (message: FromEngine, reply: (message: FromEngine) => void = toMain): void => {
    sendEvents();
    reply(message);
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

  const call = async (
    id: number,
    name: EngineCallName,
    args: unknown[],
    reply: (message: FromEngine) => void = toMain,
  ): Promise<void> => {
    inFlight++;
    try {
      await opened;
      if (lockError) throw lockError;
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
      post({ type: 'result', id, ok: true, value }, reply);
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
      post({ type: 'result', id, ok: false, error: plain }, reply);
    } finally {
      inFlight--;
      if (inFlight === 0) idle?.();
    }
  };
  const callsDone = (): Promise<void> =>
    inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve));

  /** The commands on the socket finish first: their calls complete, nothing is cut mid-way. */
  const peersGone = async (): Promise<void> => {
    const server = socket; // none yet: the socket is not opened once closing
    if (!server) return;
    const draining = server.drain();
    if (server.peerCount > 0) {
      log.info('engine', 'waiting-for-peers', { peers: server.peerCount });
      toMain({ type: 'waiting-for-peers', peers: server.peerCount });
      await draining;
      toMain({ type: 'peers-gone' });
    }
    await callsDone();
  };

  port.onMessage((raw) => {
    const message = raw as ToEngine;
    switch (message.type) {
      case 'init': {
        if (engine) return;
        log = serve.makeLogger?.(message.options) ?? silentLogger;
        try {
          serve.check?.(message.options);
        } catch (error) {
          const text = error instanceof Error ? error.message : String(error);
          log.error('engine', 'cannot-start', { error: toBridgeError(error).name });
          console.error(text);
          post({ type: 'failed', message: text });
          // A turn later, so the message leaves before the process does.
          setImmediate(() => exit(1));
          return;
        }
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
        const { dataDir } = message.options;
        // The mirror opens only under the writer lock: another process holding the folder (the
        // command line's own engine) is waited for. Calls wait for the account; a failed restore
        // leaves the engine signed out.
        const locked = serve.shareDataDir
          ? lockDataDir(dataDir, {
              onWait: () => log.info('engine', 'waiting-for-data-lock'),
            }).then((held) => void (lock = held))
          : Promise.resolve();
        const restored = locked.then(() => created.open());
        opened = restored
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
          })
          .then(async () => {
            if (!serve.shareDataDir || !lock || closing) return;
            socket = await listenEngineSocket(
              dataDir,
              (m, reply) => void call(m.id, m.name, m.args, reply),
            ).catch((error: unknown) => {
              // The app works without it; only the command line cannot reach this engine.
              log.warn('engine', 'socket-failed', { error: toBridgeError(error).name });
              return null;
            });
            if (closing && socket) {
              // `close` came while it opened: nobody was told of it.
              socket.close();
              socket = null;
            }
          });
        void locked.catch((error: unknown) => {
          lockError = error;
          log.error('engine', 'data-lock-failed', { error: toBridgeError(error).name });
        });
        void opened.then(() => post({ type: 'ready' }));
        return;
      }
      case 'call':
        void call(message.id, message.name, message.args);
        return;
      case 'close': {
        // A second `close` (the owner ended while its engine waits for peers) changes nothing.
        if (closing) return;
        closing = true;
        log.info('engine', 'closing');
        const before = message.waitForPeers ? peersGone() : Promise.resolve();
        void before
          .catch(() => undefined)
          .then(() => {
            socket?.close();
            socket = null;
            return engine?.close();
          })
          .catch(() => undefined)
          .finally(() => {
            sendEvents();
            // Only once the mirror is closed may another process take the folder.
            lock?.release();
            exit(0);
          });
        return;
      }
    }
  });
}

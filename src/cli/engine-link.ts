/**
 * The command's way to the engine. While the app runs, its engine holds the data folder: the
 * command becomes one more client of it over the engine's local socket, so the window sees what
 * the command does at once. Otherwise the command starts an engine process of its own for its
 * run, which takes the same writer lock; an app started meanwhile waits for it, and the other
 * way round. Either way one process writes the mirror and the outbox.
 */
import { fork } from 'node:child_process';
import type { EngineCalls } from '@engine/commands/engine';
import { ENGINE_CALLS } from '@engine/commands/routes';
import { EngineEvents } from '@engine/events/engine-events';
import { RemoteError } from '@engine/host/bridge-error';
import { connectEngineSocket, type EngineSocketClient } from '@engine/host/engine-socket';
import type { EngineCallName, FromEngine, ToEngine } from '@engine/host/protocol';
import { callsByName } from '@shared/bridge/calls-by-name';
import { ENGINE_CODES } from '@shared/errors/error-data';

export interface EngineLink {
  readonly calls: EngineCalls;
  readonly events: EngineEvents;
  /** 'app': the running app's engine (or another command's); 'own': started for this run. */
  readonly via: 'app' | 'own';
  close(): Promise<void>;
}

export interface LinkOptions {
  dataDir: string;
  logDir?: string;
  /** Starts an engine process (a Node fork here; a utility process in the app's --cli mode). */
  engine: () => EngineProcess;
  /** How long to wait for an engine (the lock held by an app that is closing, say). */
  timeoutMs?: number;
}

/** What the command needs of an engine process: Node's ChildProcess and Electron's UtilityProcess. */
export interface EngineProcess {
  postMessage(message: ToEngine): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number | null) => void): unknown;
  kill(): boolean;
  /**
   * Lets the engine live on without this process (it ends by itself once the other commands it
   * serves are done). Without it the command waits for the engine's exit.
   */
  detach?(): void;
}

/** The engine as a Node child process (`out/main/engine.js`, or its source under tsx). */
export function nodeEngine(entry: string, execArgv: string[] = []): () => EngineProcess {
  return () => {
    const child = fork(entry, [], {
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', process.env['BOUNTYDESK_DEBUG'] ? 'inherit' : 'ignore', 'ipc'],
      execArgv,
    });
    let exited = child.exitCode !== null;
    child.on('exit', () => (exited = true));
    return {
      postMessage: (message) => {
        if (child.connected) child.send(message);
        else if (message.type === 'close' && !exited) child.kill();
      },
      on: (event: 'message' | 'exit', listener: (value: never) => void) =>
        child.on(event, listener as (value: unknown) => void),
      kill: () => child.kill(),
      detach: () => {
        if (child.connected) child.disconnect();
        child.unref();
      },
    };
  };
}

export class EngineGoneError extends Error {
  override readonly name = 'EngineGoneError';
  readonly code = ENGINE_CODES.engineUnavailable;
}

/** How long a socket that answered may wait for our own engine's `ready` (it may be its). */
const OWN_READY_GRACE_MS = 1_000;

/** Links to the folder's engine: the one that runs, or one started now. */
export async function linkEngine(options: LinkOptions): Promise<EngineLink> {
  const running = await connectEngineSocket(options.dataDir, 1_000);
  if (running) return overSocket(running, null, () => true);
  const child = options.engine();
  let exited = false;
  child.on('exit', () => (exited = true));
  const init: ToEngine = {
    type: 'init',
    options: { dataDir: options.dataDir, ...(options.logDir ? { logDir: options.logDir } : {}) },
  };
  child.postMessage(init);
  // Our engine answers `ready` once it holds the lock. If another process took the folder first
  // (an app starting now), ours waits for the lock: that one's socket answers instead.
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  const ready = new Promise<'ready' | 'exit'>((resolve) => {
    child.on('message', (m) => (m as FromEngine).type === 'ready' && resolve('ready'));
    child.on('exit', () => resolve('exit'));
  });
  let outcome: 'ready' | 'exit' | 'wait' = 'wait';
  void ready.then((r) => (outcome = r));
  while (outcome === 'wait') {
    await Promise.race([ready, new Promise((r) => setTimeout(r, 150))]);
    if (outcome !== 'wait') break;
    const other = await connectEngineSocket(options.dataDir, 500);
    if (other) {
      // The socket may be our own engine's, opened before its `ready` reached us: a command
      // under load said "the app's" of the engine it had just started. Only the engine that
      // holds the folder's lock serves it, so ours saying `ready` now makes it ours.
      const ours = await Promise.race([
        ready.then((r) => r === 'ready'),
        new Promise<false>((r) => setTimeout(() => r(false), OWN_READY_GRACE_MS)),
      ]);
      if (!ours) return overSocket(other, child, () => exited);
      other.close();
      return overChild(child, () => exited);
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new EngineGoneError('No engine answered: another Bounty Desk process holds the data.');
    }
  }
  if (outcome === 'exit') throw new EngineGoneError('The engine could not start.');
  return overChild(child, () => exited);
}

type Pending = Map<number, { name: string; resolve(v: unknown): void; reject(e: Error): void }>;

function settle(pending: Pending, message: FromEngine, events: EngineEvents): void {
  if (message.type === 'events') {
    for (const { name, payload } of message.events) events.emit(name, payload as never);
    return;
  }
  if (message.type !== 'result') return;
  const entry = pending.get(message.id);
  pending.delete(message.id);
  if (!entry) return;
  if (message.ok) entry.resolve(message.value);
  else entry.reject(new RemoteError(message.error));
}

function failAll(pending: Pending): void {
  for (const [id, entry] of pending) {
    pending.delete(id);
    entry.reject(
      new EngineGoneError(
        `The engine stopped while answering ${entry.name}. Anything queued is kept in the outbox.`,
      ),
    );
  }
}

function makeLink(
  via: EngineLink['via'],
  send: (message: Extract<ToEngine, { type: 'call' }>) => void,
  pending: Pending,
  events: EngineEvents,
  close: () => Promise<void>,
): EngineLink {
  let nextId = 1;
  const call = (name: string, args: unknown[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { name, resolve, reject });
      send({ type: 'call', id, name: name as EngineCallName, args });
    });
  return { calls: callsByName<EngineCalls>(ENGINE_CALLS, call), events, via, close };
}

function overSocket(
  client: EngineSocketClient,
  child: EngineProcess | null,
  exited: () => boolean,
): EngineLink {
  const pending: Pending = new Map();
  const events = new EngineEvents();
  client.onMessage((m) => settle(pending, m, events));
  client.onClose(() => failAll(pending));
  return makeLink(
    'app',
    (m) => client.send(m),
    pending,
    events,
    async () => {
      client.close();
      if (child) await closeChild(child, exited);
    },
  );
}

function overChild(child: EngineProcess, exited: () => boolean): EngineLink {
  const pending: Pending = new Map();
  const events = new EngineEvents();
  child.on('message', (m) => settle(pending, m as FromEngine, events));
  child.on('exit', () => failAll(pending));
  return makeLink(
    'own',
    (m) => child.postMessage(m),
    pending,
    events,
    () => closeChild(child, exited),
  );
}

/**
 * Asks the engine to close (the mirror closed, the lock let go) and waits for its exit. Other
 * commands may be using it over its socket: it tells us and closes after them. This command is
 * done then and leaves it to them (or, unable to, waits without the kill for a hanging engine).
 */
function closeChild(
  child: EngineProcess,
  exited: () => boolean,
  timeoutMs = 10_000,
): Promise<void> {
  if (exited()) return Promise.resolve();
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | null = setTimeout(() => child.kill(), timeoutMs);
    const stopTimer = (): void => {
      if (timer) clearTimeout(timer);
      timer = null;
    };
    child.on('message', (m) => {
      const type = (m as FromEngine).type;
      if (type === 'waiting-for-peers') {
        stopTimer();
        if (child.detach) {
          child.detach();
          resolve();
        }
      } else if (type === 'peers-gone') {
        stopTimer();
        timer = setTimeout(() => child.kill(), timeoutMs);
      }
    });
    child.on('exit', () => {
      stopTimer();
      resolve();
    });
    child.postMessage({ type: 'close', waitForPeers: true });
  });
}

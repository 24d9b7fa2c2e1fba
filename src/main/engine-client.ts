import type { EngineCalls } from '@engine/commands/engine';
import { EngineEvents } from '@engine/events/engine-events';
import { RemoteError } from '@engine/host/bridge-error';
import { callsByName } from '@shared/bridge/calls-by-name';
import { ENGINE_CALLS } from '@engine/commands/routes';
import {
  HOST_CALLS,
  type EngineCallName,
  type HostCalls,
  type EngineProcessOptions,
  type FromEngine,
  type ToEngine,
} from '@engine/host/protocol';
import type { EngineState } from '@shared/bridge/contract';
import { ENGINE_CODES } from '@shared/errors/error-data';

/** The part of Electron's `UtilityProcess` (or a Node `ChildProcess`) the client uses. */
export interface EngineChild {
  readonly pid?: number | undefined;
  postMessage(message: ToEngine): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number | null) => void): unknown;
  kill(): boolean;
}

export class EngineUnavailableError extends Error {
  override readonly name = 'EngineUnavailableError';
  readonly code = ENGINE_CODES.engineUnavailable;
}

export interface EngineClientOptions {
  /** Starts a new engine process (`utilityProcess.fork(out/main/engine.js)` in the app). */
  fork(): EngineChild;
  options: EngineProcessOptions;
  /** Told of every state change (main forwards it to the window as the `engine` event). */
  onState?(state: EngineState): void;
  /**
   * Told once when the engine cannot run at all (its SQLite binding does not load): the sentence
   * that names the fix. The engine is not started again; every call fails with that sentence.
   */
  onFailed?(message: string): void;
  /** How long a call made while the engine restarts may wait for it. */
  waitMs?: number;
}

interface Pending {
  name: EngineCallName;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const RESTART_DELAYS_MS = [250, 500, 1_000, 2_000, 5_000, 10_000];

/**
 * Main's handle on the engine process: calls go over the process's port and come back as
 * promises; events arrive on `events` exactly as the engine emitted them. When the process dies
 * it is started again: calls in flight fail with a clear error (their outcome is unknown to main;
 * the engine's outbox, not main, guarantees that nothing queued is lost), and calls made while it
 * restarts wait for it.
 */
export class EngineClient {
  readonly events = new EngineEvents();
  /** The engine's calls as functions, for code that wants `engine.getReport(id)`. */
  readonly calls: EngineCalls;
  /** The engine process's own calls (diagnostics), beside the engine's. */
  readonly host: HostCalls;
  readonly #o: EngineClientOptions;
  readonly #pending = new Map<number, Pending>();
  #child: EngineChild | null = null;
  #ready = false;
  #waiting: { message: ToEngine; reject(error: Error): void }[] = [];
  #nextId = 1;
  #restarts = 0;
  #closing: Promise<void> | null = null;
  #readyWaiters: { resolve(): void; reject(error: Error): void }[] = [];
  /** Why the engine cannot run, once it said so: no restart, every call fails with it. */
  #failure: EngineUnavailableError | null = null;

  constructor(options: EngineClientOptions) {
    this.#o = options;
    const call = (name: string, args: unknown[]) => this.call(name as EngineCallName, args);
    this.calls = callsByName(ENGINE_CALLS, call);
    this.host = callsByName(HOST_CALLS, call);
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): void {
    if (this.#child || this.#closing || this.#failure) return;
    this.#setState('starting');
    const child = this.#o.fork();
    this.#child = child;
    this.#ready = false;
    child.on('message', (raw) => this.#receive(child, raw as FromEngine));
    child.on('exit', () => this.#exited(child));
    child.postMessage({ type: 'init', options: this.#o.options });
  }

  /**
   * Resolves once the engine answered `ready` (the account restored or found signed out); rejects
   * when it cannot run at all.
   */
  whenReady(): Promise<void> {
    if (this.#ready) return Promise.resolve();
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => this.#readyWaiters.push({ resolve, reject }));
  }

  call(name: EngineCallName, args: unknown[]): Promise<unknown> {
    if (this.#closing) return Promise.reject(new EngineUnavailableError('The app is closing.'));
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { name, resolve, reject });
      const message: ToEngine = { type: 'call', id, name, args };
      if (this.#child && this.#ready) this.#child.postMessage(message);
      else this.#queue(id, message);
    });
  }

  /** Stops the engine: it closes the mirror and ends its process. */
  close(timeoutMs = 5_000): Promise<void> {
    this.#closing ??= new Promise<void>((resolve) => {
      const child = this.#child;
      if (!child) return resolve();
      const timer = setTimeout(() => child.kill(), timeoutMs);
      child.on('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.postMessage({ type: 'close' });
    });
    return this.#closing;
  }

  #queue(id: number, message: ToEngine): void {
    const entry = {
      message,
      reject: (error: Error) => this.#settle(id)?.reject(error),
    };
    this.#waiting.push(entry);
    setTimeout(() => {
      if (!this.#waiting.includes(entry)) return;
      this.#waiting = this.#waiting.filter((w) => w !== entry);
      entry.reject(
        new EngineUnavailableError('The engine is restarting and did not come back in time.'),
      );
    }, this.#o.waitMs ?? 30_000).unref?.();
  }

  #receive(child: EngineChild, message: FromEngine): void {
    if (child !== this.#child) return;
    switch (message.type) {
      case 'ready': {
        this.#ready = true;
        this.#restarts = 0;
        this.#setState('ready');
        for (const { message: queued } of this.#waiting.splice(0)) child.postMessage(queued);
        for (const { resolve } of this.#readyWaiters.splice(0)) resolve();
        return;
      }
      case 'failed': {
        this.#failure = new EngineUnavailableError(message.message);
        this.#o.onFailed?.(message.message);
        return;
      }
      case 'result': {
        const pending = this.#settle(message.id);
        if (!pending) return;
        if (message.ok) pending.resolve(message.value);
        else pending.reject(new RemoteError(message.error));
        return;
      }
      case 'events':
        for (const { name, payload } of message.events) this.events.emit(name, payload as never);
        return;
    }
  }

  #settle(id: number): Pending | undefined {
    const pending = this.#pending.get(id);
    this.#pending.delete(id);
    return pending;
  }

  #exited(child: EngineChild): void {
    if (child !== this.#child) return;
    this.#child = null;
    this.#ready = false;
    const waiting = new Set(this.#waiting.map((w) => w.message));
    const failure = this.#failure;
    if (failure) {
      // It cannot run here: starting it again would fail the same way, in a loop.
      for (const entry of this.#waiting.splice(0)) entry.reject(failure);
      for (const [id, pending] of [...this.#pending]) {
        this.#settle(id);
        pending.reject(failure);
      }
      for (const { reject } of this.#readyWaiters.splice(0)) reject(failure);
      return;
    }
    for (const [id, pending] of [...this.#pending]) {
      if ([...waiting].some((m) => m.type === 'call' && m.id === id)) continue;
      this.#settle(id);
      pending.reject(
        new EngineUnavailableError(
          `The engine stopped while answering ${pending.name}; it is restarting. ` +
            'Anything you saved is kept: try again in a moment.',
        ),
      );
    }
    if (this.#closing) return;
    this.#setState('restarting');
    const delay = RESTART_DELAYS_MS[Math.min(this.#restarts, RESTART_DELAYS_MS.length - 1)];
    this.#restarts++;
    setTimeout(() => this.start(), delay);
  }

  #setState(state: EngineState): void {
    this.#o.onState?.(state);
  }
}

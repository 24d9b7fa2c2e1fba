/**
 * The engine runs in its own process (an Electron utility process in the app, a forked child under
 * plain Node). Main and the engine speak this protocol over the process's message port: typed
 * calls with their answers, and the engine's events. Which calls the engine answers, and which
 * events it emits, the bridge's tables say (src/shared/bridge/calls.ts, events.ts).
 */
import type { BridgeError, BridgeEventName, BridgeEvents } from '@shared/bridge/contract';
import type { CheckedText } from '../diagnostics/credentials';
import type { OutboxSummary } from '../diagnostics/outbox-summary';
import type { EngineCallName as RoutedCallName } from '../commands/routes';

/**
 * Calls the engine process answers besides the engine's own, for "Export diagnostics": they need
 * the mirror and the keychain, which only this process holds, and add nothing to the engine's API.
 */
export interface HostCalls {
  /** The open outbox entries by kind and state, without any content; null when signed out. */
  outboxSummary(): Promise<OutboxSummary | null>;
  /** `text` with the signed-in key (exactly) and every credential shape removed. */
  checkCredentials(text: string): Promise<CheckedText>;
}

export const HOST_CALLS = [
  'outboxSummary',
  'checkCredentials',
] as const satisfies readonly (keyof HostCalls)[];

/** Every call the engine process answers: the engine's (routed by the bridge's table), its own. */
export type EngineCallName = RoutedCallName | keyof HostCalls;

/** What main tells the engine process at start. */
export interface EngineProcessOptions {
  /** The engine's data folder (`<userData>/data`). */
  dataDir: string;
  /** Where the engine writes `engine.log` (`<userData>/logs`); no log without it (tests). */
  logDir?: string;
  /**
   * The SQLite addon built for this runtime (better-sqlite3's `nativeBinding`): the app under
   * `npm start` names its Electron build; without it, better-sqlite3's own build.
   */
  sqliteBinding?: string;
}

/** main → engine */
export type ToEngine =
  | { type: 'init'; options: EngineProcessOptions }
  | { type: 'call'; id: number; name: EngineCallName; args: unknown[] }
  /**
   * Stops the engine. `waitForPeers` (a command's own engine): the engine first serves the
   * commands already connected to its socket until they disconnect, telling its owner so.
   */
  | { type: 'close'; waitForPeers?: boolean };

/** One event as the engine emitted it. */
export type EngineEvent = {
  [K in BridgeEventName]: { name: K; payload: BridgeEvents[K] };
}[BridgeEventName];

/**
 * engine → main. The events of one turn of the engine's event loop travel as one message (a sync
 * writes 200 reports a transaction: one message, not 200), always before the next result.
 */
export type FromEngine =
  | { type: 'ready' }
  /** The engine cannot run here (its SQLite binding does not load): one sentence; it exits. */
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: BridgeError }
  | { type: 'events'; events: EngineEvent[] }
  /** After `close` with `waitForPeers`: other commands still use this engine; it closes after them. */
  | { type: 'waiting-for-peers'; peers: number }
  /** The last peer left: the engine closes now. */
  | { type: 'peers-gone' };

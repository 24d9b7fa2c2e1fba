/**
 * The engine runs in its own process (an Electron utility process in the app, a forked child under
 * plain Node). Main and the engine speak this protocol over the process's message port: typed
 * calls with their answers, and the engine's events. The calls are the bridge contract's,
 * minus the ones main answers itself, plus `open` (restore the account at start).
 */
import {
  BRIDGE_CALLS,
  type BridgeError,
  type BridgeEventName,
  type BridgeEvents,
} from '../../shared/bridge/contract';
import type { CheckedText } from '../diagnostics/credentials';
import type { OutboxSummary } from '../diagnostics/outbox-summary';
import type { EngineCalls, MainCallName } from '../engine/engine';

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

export type EngineCallName = keyof EngineCalls | keyof HostCalls;

/** Main answers these itself, then may call the engine with arguments of its own. */
export const MAIN_CALLS = [
  'connectSandbox',
  'openExternal',
  'openWebsite',
  'pickFiles',
  'downloadFile',
  'attachFiles',
  'postMessage',
  'connect',
  'exportPayouts',
] as const satisfies readonly MainCallName[];

const mainCalls = new Set<string>(MAIN_CALLS);

/** Bridge calls that reach the engine exactly as the page made them. */
export type ForwardedCallName = Exclude<(typeof BRIDGE_CALLS)[number], MainCallName>;

export const FORWARDED_CALLS = BRIDGE_CALLS.filter(
  (name): name is ForwardedCallName => !mainCalls.has(name),
);

/** Every call of the engine itself. */
export const ENGINE_CALLS: readonly (keyof EngineCalls)[] = [
  ...FORWARDED_CALLS,
  'open',
  'connect',
  'attachFiles',
  'postMessage',
  'downloadFile',
  'exportPayouts',
];

/** What main tells the engine process at start. */
export interface EngineProcessOptions {
  /** The engine's data folder (`<userData>/data`). */
  dataDir: string;
  /** Where the engine writes `engine.log` (`<userData>/logs`); no log without it (tests). */
  logDir?: string;
}

/** main → engine */
export type ToEngine =
  | { type: 'init'; options: EngineProcessOptions }
  | { type: 'call'; id: number; name: EngineCallName; args: unknown[] }
  | { type: 'close' };

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
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: BridgeError }
  | { type: 'events'; events: EngineEvent[] };

/** The bridge events the engine emits (main adds its own: open-report, command, engine). */
export const ENGINE_EVENTS = [
  'report-changed',
  'needs-info',
  'decision',
  'payout-changed',
  'connectivity',
  'status',
  'upload-progress',
  'scan-progress', // issue 19
  'sync-error',
] as const satisfies readonly BridgeEventName[];

/**
 * The one contract between the UI and the app. Every call is defined once in `calls.ts` (name,
 * signature, argument schemas, who answers it) and every event once in `events.ts`; the types
 * and lists here are derived from those tables. The engine implements the calls, main checks and
 * forwards them over IPC, the preload exposes them as `window.bountyDesk`, and browser tests hand
 * the renderer a bridge that forwards to a real engine.
 */
import type { BridgeCallName, BridgeCalls } from './calls';
import type { BridgeEventName, BridgeEvents } from './events';
import type { BridgeError } from '../errors/error-data';
import type { PickedFile } from './files';

export {
  BRIDGE_CALLS,
  CALLS,
  FORWARDED_CALLS,
  MAIN_CALLS,
  WEBSITE_PAGES,
  type BridgeCallName,
  type BridgeCalls,
  type ForwardedCallName,
  type MainCallName,
  type WebsitePage,
} from './calls';
export {
  BRIDGE_EVENTS,
  ENGINE_EVENTS,
  type BridgeEventName,
  type BridgeEvents,
  type EngineEventName,
  type EngineState,
  type MenuCommand,
} from './events';
export type { FileToken, PickedFile } from './files';

/** What `window.bountyDesk` offers the renderer. */
export type Bridge = BridgeCalls & {
  on<E extends BridgeEventName>(event: E, listener: (payload: BridgeEvents[E]) => void): () => void;
};

/**
 * What `window.bountyDeskFiles` offers: a dropped `File` as a token. Only the preload can map a
 * File to its path (`webUtils.getPathForFile`); it hands the path to main, never to the page.
 * Null for a File that is not on disk (made by a script, or dragged from a web page).
 */
export interface BridgeFiles {
  tokenForFile(file: File): Promise<PickedFile | null>;
}

export const callChannel = (name: BridgeCallName): string => `bridge:call:${name}`;
export const eventChannel = (name: BridgeEventName): string => `bridge:event:${name}`;
/** preload → main: the path of a dropped file (see BridgeFiles). */
export const DROP_CHANNEL = 'bridge:files:drop';

/** How a failed call reaches the renderer (see error-data.ts); the preload rejects with it. */
export type { BridgeError };

/** What main answers on a call channel; the preload unwraps it (IPC would drop error fields). */
export type BridgeResult<T = unknown> = { ok: true; value: T } | { ok: false; error: BridgeError };

/**
 * The one place the renderer reaches the rest of the app. Everything else imports `bridge` from
 * here, never `window.bountyDesk` directly, so tests and screens agree on a single entry point.
 */
import type { Bridge, BridgeEventName, BridgeEvents } from '../../../shared/bridge/contract';

export type { Bridge, BridgeEventName, BridgeEvents };

function windowBridge(): Bridge {
  const b = (window as Partial<Window>).bountyDesk;
  if (!b) throw new Error('The app bridge is missing: Bounty Desk must run inside its window.');
  return b;
}

/** Calls go through a proxy so a bridge installed after this module loads is still found. */
export const bridge: Bridge = new Proxy({} as Bridge, {
  get(_target, name: string | symbol) {
    const b = windowBridge() as unknown as Record<string | symbol, unknown>;
    const value = b[name];
    return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(b) : value;
  },
});

export function onBridge<E extends BridgeEventName>(
  event: E,
  listener: (payload: BridgeEvents[E]) => void,
): () => void {
  return windowBridge().on(event, listener);
}

/** The file's path on disk, or null when the preload cannot tell (e.g. a file from a web page). */
export function pathForFile(file: File): string | null {
  try {
    const path = window.bountyDeskFiles?.pathForFile(file);
    return path && path.length > 0 ? path : null;
  } catch {
    return null;
  }
}

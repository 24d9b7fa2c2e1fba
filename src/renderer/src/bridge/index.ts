/**
 * The one place the renderer reaches the rest of the app. Everything else imports `bridge` from
 * here, never `window.bountyDesk` directly, so tests and screens agree on a single entry point.
 */
import type { Bridge, BridgeEventName, BridgeEvents, PickedFile } from '@shared/bridge/contract';
import { CALLS, changesNothing, type BridgeCallName } from '@shared/bridge/calls';

export type { Bridge, BridgeEventName, BridgeEvents, PickedFile };

function windowBridge(): Bridge {
  const b = (window as Partial<Window>).bountyDesk;
  if (!b) throw new Error('The app bridge is missing: Bounty Desk must run inside its window.');
  return b;
}

const changeListeners = new Set<() => void>();

/**
 * `listener` runs as the page makes each call that may change what the engine holds (see
 * `changesNothing`), before the call leaves: reads made ahead know they may be of what was.
 */
export function beforeChangingCall(listener: () => void): () => void {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

const isCall = (name: string | symbol): name is BridgeCallName =>
  typeof name === 'string' && Object.hasOwn(CALLS, name);

/** Calls go through a proxy so a bridge installed after this module loads is still found. */
export const bridge: Bridge = new Proxy({} as Bridge, {
  get(_target, name: string | symbol) {
    const b = windowBridge() as unknown as Record<string | symbol, unknown>;
    const value = b[name];
    if (typeof value !== 'function') return value;
    const call = (value as (...a: unknown[]) => unknown).bind(b);
    if (!isCall(name) || changesNothing(name)) return call;
    return (...args: unknown[]) => {
      for (const listener of changeListeners) listener();
      return call(...args);
    };
  },
});

export function onBridge<E extends BridgeEventName>(
  event: E,
  listener: (payload: BridgeEvents[E]) => void,
): () => void {
  return windowBridge().on(event, listener);
}

/**
 * Dropped files as tokens from main (the page never sees a path). Files that are not on disk
 * (made by a script, dragged from a web page) are named in `refused`.
 */
export async function tokensForFiles(
  files: File[],
): Promise<{ picked: PickedFile[]; refused: string[] }> {
  const picked: PickedFile[] = [];
  const refused: string[] = [];
  for (const file of files) {
    const token = await window.bountyDeskFiles?.tokenForFile(file).catch(() => null);
    if (token) picked.push(token);
    else refused.push(file.name);
  }
  return { picked, refused };
}

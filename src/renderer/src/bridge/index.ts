/**
 * The one place the renderer reaches the rest of the app. Everything else imports `bridge` from
 * here, never `window.bountyDesk` directly, so tests and screens agree on a single entry point.
 */
import type { Bridge, BridgeEventName, BridgeEvents, PickedFile } from '@shared/bridge/contract';

export type { Bridge, BridgeEventName, BridgeEvents, PickedFile };

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

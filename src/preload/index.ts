import { contextBridge, ipcRenderer, webUtils } from 'electron';
import {
  BRIDGE_CALLS,
  BRIDGE_EVENTS,
  DROP_CHANNEL,
  callChannel,
  eventChannel,
  type Bridge,
  type BridgeCallName,
  type BridgeCalls,
  type BridgeEventName,
  type BridgeEvents,
  type BridgeFiles,
  type BridgeResult,
  type PickedFile,
} from '@shared/bridge/contract';
import { callsByName } from '@shared/bridge/calls-by-name';

// The preload exposes exactly the typed bridge contract: one function per declared call, and
// `on` for declared events. No generic ipcRenderer, no Node, nothing else crosses.
// Main answers each call with a BridgeResult; a failure rejects with the plain BridgeError
// (`{ name, code, message, field?, detail?, retryAfter?, … }`), which survives the context bridge.
async function invoke(channel: string, args: unknown[]): Promise<unknown> {
  const result = (await ipcRenderer.invoke(channel, ...args)) as BridgeResult;
  if (result.ok) return result.value;
  throw result.error;
}

const calls = callsByName<BridgeCalls, BridgeCallName>(BRIDGE_CALLS, (name, args) =>
  invoke(callChannel(name), args),
);

const events = new Set<string>(BRIDGE_EVENTS);

function on<E extends BridgeEventName>(
  event: E,
  listener: (payload: BridgeEvents[E]) => void,
): () => void {
  if (!events.has(event)) throw new Error(`Unknown bridge event: ${String(event)}`);
  const channel = eventChannel(event);
  const wrapped = (_e: unknown, payload: BridgeEvents[E]): void => listener(payload);
  ipcRenderer.on(channel, wrapped);
  return () => {
    ipcRenderer.removeListener(channel, wrapped);
  };
}

/**
 * The bits of the DOM the preload uses: it is type-checked with main (no DOM library), and runs in
 * the window's isolated world, where `window` and the page's events exist.
 */
interface GestureFiles {
  readonly length: number;
  readonly [index: number]: File;
}
interface GestureEvent {
  readonly isTrusted: boolean;
  readonly dataTransfer?: { readonly files: GestureFiles } | null;
  readonly clipboardData?: { readonly files: GestureFiles } | null;
}
declare const window: {
  addEventListener(
    type: 'drop' | 'paste',
    listener: (event: GestureEvent) => void,
    capture: boolean,
  ): void;
};

/** Paths of files the user handed over and the page has not asked a token for yet; the oldest go first. */
const HANDED_KEPT = 1_000;
const handed = new Map<string, number>();

/**
 * Records the files of a drop or paste the browser itself raised. A page can build a File and
 * dispatch a drop of its own (`isTrusted` is false then, in every world); this listener runs in
 * the preload's world, before any of the page's (capture phase, on the window), so only the files
 * of the user's own gesture are ever eligible for a token.
 */
function takeHanded(event: GestureEvent, files: GestureFiles | null | undefined): void {
  if (!event.isTrusted || !files) return;
  for (const file of Array.from(files)) {
    const path = webUtils.getPathForFile(file);
    if (path) handed.set(path, (handed.get(path) ?? 0) + 1);
  }
  for (const old of handed.keys()) {
    if (handed.size <= HANDED_KEPT) break;
    handed.delete(old);
  }
}
window.addEventListener('drop', (e) => takeHanded(e, e.dataTransfer?.files), true);
window.addEventListener('paste', (e) => takeHanded(e, e.clipboardData?.files), true);

/**
 * Drag-and-drop gives File objects; only the preload can map one to its path, and the path goes to
 * main, which answers with a token: the page never sees a path, and cannot name one. A file the
 * user did not hand over in a trusted drop or paste gets no token (null), and each handed file
 * one token.
 */
async function tokenForFile(file: File): Promise<PickedFile | null> {
  const path = webUtils.getPathForFile(file);
  const left = path ? handed.get(path) : undefined;
  if (!path || left === undefined) return null;
  if (left > 1) handed.set(path, left - 1);
  else handed.delete(path);
  return (await invoke(DROP_CHANNEL, [path])) as PickedFile;
}

contextBridge.exposeInMainWorld('bountyDesk', { ...calls, on } satisfies Bridge);
contextBridge.exposeInMainWorld('bountyDeskFiles', { tokenForFile } satisfies BridgeFiles);

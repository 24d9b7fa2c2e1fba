import { contextBridge, ipcRenderer, webUtils } from 'electron';
import {
  BRIDGE_CALLS,
  BRIDGE_EVENTS,
  DROP_CHANNEL,
  callChannel,
  eventChannel,
  type Bridge,
  type BridgeEventName,
  type BridgeEvents,
  type BridgeFiles,
  type BridgeResult,
  type PickedFile,
} from '../shared/bridge/contract';

// The preload exposes exactly the typed bridge contract: one function per declared call, and
// `on` for declared events. No generic ipcRenderer, no Node, nothing else crosses.
// Main answers each call with a BridgeResult; a failure rejects with the plain BridgeError
// (`{ name, message, field?, code?, status?, requestId? }`), which survives the context bridge.
async function invoke(channel: string, args: unknown[]): Promise<unknown> {
  const result = (await ipcRenderer.invoke(channel, ...args)) as BridgeResult;
  if (result.ok) return result.value;
  throw result.error;
}

const calls = Object.fromEntries(
  BRIDGE_CALLS.map((name) => [name, (...args: unknown[]) => invoke(callChannel(name), args)]),
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
 * Drag-and-drop gives File objects; only the preload can map one to its path, and the path goes to
 * main, which answers with a token: the page never sees a path, and cannot name one.
 */
async function tokenForFile(file: File): Promise<PickedFile | null> {
  const path = webUtils.getPathForFile(file);
  if (!path) return null;
  return (await invoke(DROP_CHANNEL, [path])) as PickedFile;
}

contextBridge.exposeInMainWorld('bountyDesk', { ...calls, on } as Bridge);
contextBridge.exposeInMainWorld('bountyDeskFiles', { tokenForFile } satisfies BridgeFiles);

import { contextBridge, ipcRenderer, webUtils } from 'electron';
import {
  BRIDGE_CALLS,
  BRIDGE_EVENTS,
  callChannel,
  eventChannel,
  type Bridge,
  type BridgeEventName,
  type BridgeEvents,
  type BridgeResult,
} from '../shared/bridge/contract';

// The preload exposes exactly the typed bridge contract: one function per declared call, and
// `on` for declared events. No generic ipcRenderer, no Node, nothing else crosses.
// Main answers each call with a BridgeResult; a failure rejects with the plain BridgeError
// (`{ name, message, field?, code?, status?, requestId? }`), which survives the context bridge.
const calls = Object.fromEntries(
  BRIDGE_CALLS.map((name) => [
    name,
    async (...args: unknown[]): Promise<unknown> => {
      const result = (await ipcRenderer.invoke(callChannel(name), ...args)) as BridgeResult;
      if (result.ok) return result.value;
      throw result.error;
    },
  ]),
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

/** Drag-and-drop gives File objects; with context isolation only the preload can map them to paths. */
function pathForFile(file: File): string {
  return webUtils.getPathForFile(file);
}

contextBridge.exposeInMainWorld('bountyDesk', { ...calls, on } as Bridge);
contextBridge.exposeInMainWorld('bountyDeskFiles', { pathForFile });

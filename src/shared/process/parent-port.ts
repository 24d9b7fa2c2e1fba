/**
 * The channel of a child process to the process that started it, for the app's own helper
 * processes (the engine, the embedded sandbox). In the app they are Electron utility processes
 * (`process.parentPort`, a MessagePort whose messages arrive as `{ data }`); under plain Node
 * (a `child_process.fork` with an IPC channel) they use `process.send`. Messages are structured
 * clones either way (fork them with `serialization: 'advanced'`).
 */
export interface ParentPort {
  postMessage(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
}

interface ElectronParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
}

interface NodeProcess {
  parentPort?: ElectronParentPort;
  connected?: boolean;
  send?: (message: unknown) => boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

export function parentPort(): ParentPort {
  const proc = (globalThis as unknown as { process: NodeProcess }).process;
  const electron = proc.parentPort;
  if (electron) {
    return {
      postMessage: (message) => electron.postMessage(message),
      onMessage: (listener) => void electron.on('message', (event) => listener(event.data)),
    };
  }
  const send = proc.send?.bind(proc);
  if (!send) throw new Error('This process was not started by the app: it has no parent port.');
  return {
    // After the parent went away, a send would only raise ERR_IPC_CHANNEL_CLOSED.
    postMessage: (message) => {
      if (proc.connected !== false) send(message);
    },
    onMessage: (listener) => void proc.on('message', listener),
  };
}

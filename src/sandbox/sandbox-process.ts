/**
 * Entry point of the embedded sandbox's own process (`out/main/sandbox.js`): main starts it as an
 * Electron utility process when the researcher chooses the sandbox, so the sandbox never shares a
 * thread with a window. Messages: `{ type: 'start', options }` → `{ type: 'listening', url }` or
 * `{ type: 'failed', message }`; `{ type: 'close' }` stops it and ends the process.
 */
import { parentPort } from '@shared/process/parent-port';
import { startSandbox, type SandboxHandle, type SandboxOptions } from './index';

export type ToSandbox = { type: 'start'; options: SandboxOptions } | { type: 'close' };
export type FromSandbox = { type: 'listening'; url: string } | { type: 'failed'; message: string };

const port = parentPort();
let running: Promise<SandboxHandle | null> | null = null;

port.onMessage((raw) => {
  const message = raw as ToSandbox;
  if (message.type === 'start' && !running) {
    running = startSandbox(message.options).then(
      (handle) => {
        port.postMessage({ type: 'listening', url: handle.url } satisfies FromSandbox);
        return handle;
      },
      (error: unknown) => {
        const text = error instanceof Error ? error.message : String(error);
        port.postMessage({ type: 'failed', message: text } satisfies FromSandbox);
        return null;
      },
    );
  }
  if (message.type === 'close') {
    void (running ?? Promise.resolve(null))
      .then((handle) => handle?.close())
      .finally(() => process.exit(0));
  }
});

import type { SandboxOptions } from '../sandbox';
import type { FromSandbox, ToSandbox } from '../sandbox/sandbox-process';
import type { StartSandbox } from './sandbox-account';

/** The part of Electron's `UtilityProcess` the launcher uses. */
export interface SandboxChild {
  postMessage(message: ToSandbox): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number | null) => void): unknown;
  kill(): boolean;
}

/**
 * `startSandbox` in a process of its own: forks `out/main/sandbox.js`, resolves with its URL once
 * it listens. `close()` stops it (and kills it if it does not stop in time).
 */
export function sandboxInProcess(fork: () => SandboxChild, timeoutMs = 5_000): StartSandbox {
  return (options: SandboxOptions) =>
    new Promise((resolve, reject) => {
      const child = fork();
      let exited = false;
      const exit = new Promise<void>((done) =>
        child.on('exit', () => {
          exited = true;
          done();
        }),
      );
      child.on('message', (raw) => {
        const message = raw as FromSandbox;
        if (message.type === 'failed') {
          child.kill();
          reject(new Error(`The sandbox could not start: ${message.message}`));
        }
        if (message.type !== 'listening') return;
        resolve({
          url: message.url,
          async close() {
            if (exited) return;
            const timer = setTimeout(() => child.kill(), timeoutMs);
            child.postMessage({ type: 'close' });
            await exit;
            clearTimeout(timer);
          },
        });
      });
      void exit.then(() => reject(new Error('The sandbox process ended before it listened.')));
      child.postMessage({ type: 'start', options });
    });
}

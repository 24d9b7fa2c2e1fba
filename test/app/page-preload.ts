/**
 * What Electron does in a window before the page's own scripts run, imitated in Chromium: the
 * app's built preload (`out/preload/index.cjs`, from the window's `webPreferences.preload`) runs
 * with a `require('electron')` whose `contextBridge`, `ipcRenderer` and `webUtils` reach main
 * through the harness (the `__electronInvokeWire` binding behind `__electronInvoke`, and
 * `__electronEmit` for main's sends).
 *
 * Not imitated: context isolation (the preload shares the page's world, so page scripts could
 * reach `__electronInvoke`), and the structured clone of IPC (arguments cross as Playwright's
 * serialization of plain data; answers as one JSON string with tags, see ipc-wire.ts).
 */
import { decodeIpc } from './ipc-wire';

/** Page-side globals the harness sets or reads. */
export interface StandInPageGlobals {
  __electronInvoke(channel: string, args: unknown[]): Promise<unknown>;
  /** The harness's binding behind `__electronInvoke`: the answer encoded (ipc-wire.ts). */
  __electronInvokeWire(channel: string, args: unknown[]): Promise<string>;
  __electronEmit(channel: string, args: unknown[]): void;
  /** Files a page script made, given a path by a drill that plays a page able to forge one. */
  __standInFiles: WeakMap<object, string>;
  /** Files on disk a test dropped (`AppHost.dropFiles`): name, size, modification time, path. */
  __standInDropped: { name: string; size: number; lastModified: number; path: string }[];
  /** The XSS canary: set by any payload that manages to run. */
  __pwned?: unknown;
}

/** The init script for a window: the fake `electron` module, then the preload's own source. */
export function preloadScript(preloadSource: string): string {
  return `(() => {
  const g = globalThis;
  const listeners = new Map();
  const files = new WeakMap();
  const dropped = [];
  const decodeIpc = ${decodeIpc.toString()};
  const define = (name, value) =>
    Object.defineProperty(g, name, { value, writable: false, configurable: false });
  const electron = {
    contextBridge: {
      exposeInMainWorld(key, api) {
        define(key, Object.freeze({ ...api }));
      },
    },
    ipcRenderer: {
      invoke(channel, ...args) {
        return g.__electronInvoke(channel, args);
      },
      on(channel, listener) {
        if (!listeners.has(channel)) listeners.set(channel, new Set());
        listeners.get(channel).add(listener);
        return this;
      },
      removeListener(channel, listener) {
        listeners.get(channel)?.delete(listener);
        return this;
      },
    },
    webUtils: {
      // Electron knows the path of every File Chromium read from disk; Chromium here does not
      // say it, so a dropped File is matched to the file the test dropped by name, size and
      // modification time (a File a script makes is stamped with the time it was made).
      getPathForFile(file) {
        if (!(file instanceof g.File)) throw new TypeError('getPathForFile expects a File');
        const onDisk = dropped.find(
          (d) =>
            d.name === file.name && d.size === file.size && d.lastModified === file.lastModified,
        );
        return files.get(file) ?? onDisk?.path ?? '';
      },
    },
  };
  define('__electronInvoke', async (channel, args) =>
    decodeIpc(await g.__electronInvokeWire(channel, args)),
  );
  define('__standInFiles', files);
  define('__standInDropped', dropped);
  define('__electronEmit', (channel, args) => {
    for (const listener of [...(listeners.get(channel) ?? [])]) {
      try {
        listener({ sender: null }, ...args);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  });
  const require = (name) => {
    if (name === 'electron') return electron;
    throw new Error("A sandboxed preload cannot require('" + name + "')");
  };
  const module = { exports: {} };
  (function (require, module, exports) {
${preloadSource}
  })(require, module, module.exports);
})();`;
}

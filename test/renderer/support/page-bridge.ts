/**
 * Page-side code of the test bridge. Everything here runs inside Chromium (Playwright serializes
 * the functions), so it imports nothing at run time; the Node tsconfig has no DOM library, so the
 * few browser globals it touches are declared here.
 */

/** An error as it crosses the bridge: plain fields, never a stack or a key. */
export interface BridgeFailure {
  name: string;
  message: string;
  field?: string;
  code?: string;
  status?: number;
  requestId?: string;
}

export type BridgeReply = { ok: true; value: unknown } | { ok: false; error: BridgeFailure };

/** What a test may look up about a file given to `bountyDeskFiles.pathForFile`. */
export interface BridgeFiles {
  /** Files created by the test in the page (drops): the File object itself maps to its path. */
  byFile: WeakMap<object, string>;
  /** Files the browser made (file chooser): looked up by name. */
  byName: Record<string, string>;
}

/** The globals of the app page that the tests read or set. */
export interface TestPageGlobals {
  __bridgeCall(name: string, args: unknown[]): Promise<BridgeReply>;
  __bridgeEmit(event: string, payload: unknown): void;
  __bridgeFiles: BridgeFiles;
  /** The XSS canary: set by any payload that manages to run. */
  __pwned?: unknown;
  bountyDesk: Record<string, unknown>;
  bountyDeskFiles: { pathForFile(file: { name: string }): string };
}

/**
 * Defines `window.bountyDesk` (every call of the contract forwards to the Playwright binding
 * `__bridgeCall`; `on` receives what the host pushes with `__bridgeEmit`) and
 * `window.bountyDeskFiles`. Runs before any script of the page, as the preload would.
 */
export function installBridge(spec: { calls: readonly string[]; events: readonly string[] }): void {
  const g = globalThis as unknown as TestPageGlobals;
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const known = new Set(spec.events);
  const bridge: Record<string, unknown> = {};
  for (const name of spec.calls) {
    bridge[name] = async (...args: unknown[]): Promise<unknown> => {
      const reply = await g.__bridgeCall(name, args);
      if (reply.ok) return reply.value;
      const error = new Error(reply.error.message);
      Object.assign(error, reply.error);
      throw error;
    };
  }
  bridge.on = (event: string, listener: (payload: unknown) => void): (() => void) => {
    if (!known.has(event)) throw new Error(`Unknown bridge event: ${event}`);
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set);
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  };
  const files: BridgeFiles = { byFile: new WeakMap(), byName: {} };
  const define = (name: string, value: unknown): void => {
    Object.defineProperty(g, name, { value, writable: false, configurable: false });
  };
  define('bountyDesk', Object.freeze(bridge));
  define(
    'bountyDeskFiles',
    Object.freeze({
      pathForFile: (file: { name: string }): string =>
        files.byFile.get(file) ?? files.byName[file.name] ?? '',
    }),
  );
  define('__bridgeFiles', files);
  define('__bridgeEmit', (event: string, payload: unknown): void => {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(payload);
      } catch (error) {
        // As with IPC, a throwing listener does not stop the others; it is still reported.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  });
}

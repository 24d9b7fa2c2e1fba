import { fork } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineClient, type EngineChild } from '../../src/main/engine-client';
import type { EngineProcessOptions } from '../../src/engine/host/protocol';
import { node22, type SecondRuntime } from '../support/second-runtime';
import { openSandbox, pickAccounts, writeKey, type SandboxClient } from '../support/sandbox-client';
import { tempDirsPerTest } from '../support/temp-dirs';
import { buildApp, ROOT } from './build';

// The app's engine under a runtime whose native ABI is not the one `npm ci` built SQLite for, as
// under Electron: the built engine (out/main/engine.js) started by main's EngineClient, told by
// main's option which binding to load. Node 22 stands in for Electron, which cannot run here
// (test/support/second-runtime.ts fetches it from the npm registry once, into .scratch/runtimes,
// and builds its binding offline: minutes the first time). Node 22 ships for Linux and macOS
// with the headers node-gyp needs; the Windows package has none, so Windows runs the rest.
const PREPARE_MS = 1_800_000;
const NODE_BUILD = join(ROOT, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');

let runtime: SecondRuntime;
let engineEntry: string;
let sandbox: SandboxClient;
let apiKey: string;
const tempDir = tempDirsPerTest();
const clients: EngineClient[] = [];

/** main's EngineClient over a process of the built engine, under `runtime`. */
function engineUnder(node: string, options: EngineProcessOptions) {
  let forks = 0;
  let stderr = '';
  const failures: string[] = [];
  const client = new EngineClient({
    fork: (): EngineChild => {
      forks++;
      const child = fork(engineEntry, [], {
        execPath: node,
        serialization: 'advanced',
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      return {
        get pid() {
          return child.pid;
        },
        postMessage: (message) => void child.send(message),
        on: ((event: string, listener: (...args: unknown[]) => void) =>
          child.on(event, listener)) as EngineChild['on'],
        kill: () => child.kill(),
      };
    },
    options,
    onFailed: (message) => failures.push(message),
    waitMs: 60_000,
  });
  clients.push(client);
  client.start();
  return { client, forks: () => forks, failures, stderr: () => stderr };
}

describe.runIf(process.platform !== 'win32')('SQLite under a runtime of another ABI', () => {
  beforeAll(async () => {
    [runtime, engineEntry] = await Promise.all([
      node22(),
      buildApp().then((out) => join(out, 'main', 'engine.js')),
    ]);
    sandbox = await openSandbox();
    apiKey = writeKey(pickAccounts(await sandbox.world()).ready);
  }, PREPARE_MS);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await sandbox?.close();
  });

  it('is a runtime whose modules differ from the one that ran npm ci', () => {
    console.log(
      `second runtime: Node ${runtime.version} (NODE_MODULE_VERSION ${runtime.modules}); ` +
        `tests: Node ${process.version} (${process.versions.modules}); binding ${runtime.binding}`,
    );
    expect(runtime.modules).not.toBe(process.versions.modules);
  });

  it('opens a mirror with the binding built for it, as main names it', async () => {
    const dataDir = await tempDir('bd-runtime-');
    const first = engineUnder(runtime.node, { dataDir, sqliteBinding: runtime.binding });
    await first.client.whenReady();
    const account = await first.client.calls.connect({
      serverUrl: sandbox.url,
      apiKey,
      sandbox: true,
    });
    expect(account.sandbox).toBe(true);
    expect(await first.client.calls.countReports({})).toBeGreaterThanOrEqual(0);
    await first.client.close();

    // The mirror is a SQLite file, and the next start under the same runtime reopens it.
    const files = await readdir(dataDir, { recursive: true });
    const heads = await Promise.all(
      files.map((f) => readFile(join(dataDir, f)).catch(() => Buffer.alloc(0))),
    );
    expect(heads.some((b) => b.subarray(0, 15).toString('latin1') === 'SQLite format 3')).toBe(
      true,
    );
    const again = engineUnder(runtime.node, { dataDir, sqliteBinding: runtime.binding });
    await again.client.whenReady();
    expect((await again.client.calls.getAccount())?.sandbox).toBe(true);
    expect((await again.client.calls.getStatus()).unsent).toBe(0);
    expect(again.failures).toEqual([]);
  });

  it('says in one sentence that a binding of another runtime needs a rebuild, once', async () => {
    const dataDir = await tempDir('bd-runtime-');
    const wrong = engineUnder(runtime.node, { dataDir, sqliteBinding: NODE_BUILD });
    const message =
      `SQLite cannot start: its binding ${NODE_BUILD} was built for another runtime ` +
      `(NODE_MODULE_VERSION ${process.versions.modules}; Node ${runtime.version} needs ` +
      `${runtime.modules}): build it for Node ${runtime.version} (scripts/sqlite-binding.ts).`;
    await expect(wrong.client.whenReady()).rejects.toThrow(message);
    await expect(wrong.client.calls.getStatus()).rejects.toThrow(message);
    expect(wrong.failures).toEqual([message]);
    expect(message.split('. ')).toHaveLength(1);
    // No restart loop: the first restart would come after 250 ms.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(wrong.forks()).toBe(1);
    expect(wrong.stderr()).toContain(message);
    // Nothing was opened: the folder has no mirror.
    expect(await readdir(dataDir)).toEqual([]);
  });
});

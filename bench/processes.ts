/**
 * The app's processes under plain Node, started the way main starts them (src/main/index.ts):
 * the engine behind `EngineClient` (its process protocol) and the embedded sandbox behind
 * `sandboxInProcess`. The bench process itself plays main, but during the search index's drain a
 * process with main's code alone does (drain-main.ts). The engine runs bundled, as the app's does
 * (engine-bundle.ts: its memory is measured); the sandbox runs its sources through tsx.
 */
import { fileURLToPath } from 'node:url';
import { sandboxInProcess } from '../src/main/sandbox-launcher';
import type { SandboxOptions } from '../src/sandbox';
import { bundledEngine } from './engine-bundle';
import type { DrainedInMain, DrainMainConfig, FromDrainMain, ToDrainMain } from './drain-main';
import type { BenchEngineConfig } from './engine-entry';
import { engineProcessOf, type EngineProcess } from './engine-process';
import { asUtility, forkChild } from './utility-child';

export type { EngineProcess } from './engine-process';

const ENGINE_ENTRY = fileURLToPath(new URL('./engine-entry.ts', import.meta.url));
const DRAIN_MAIN_ENTRY = fileURLToPath(new URL('./drain-main.ts', import.meta.url));
const SANDBOX_ENTRY = fileURLToPath(new URL('../src/sandbox/sandbox-process.ts', import.meta.url));

export async function startEngineProcess(
  dataDir: string,
  config: BenchEngineConfig = {},
): Promise<EngineProcess> {
  return engineProcessOf(await bundledEngine(ENGINE_ENTRY), dataDir, config);
}

export interface DrainMain {
  /** The drain of the mirror's queued search index, with main's figures meanwhile. */
  drain(): Promise<DrainedInMain>;
  close(): Promise<void>;
}

/**
 * A process playing main with main's code alone (drain-main.ts, bundled), which starts the
 * bench's engine on `config.dataDir` and answers once it is ready.
 */
export async function startDrainMain(
  config: Omit<DrainMainConfig, 'engineEntry'>,
): Promise<DrainMain> {
  const [engineEntry, entry] = await Promise.all([
    bundledEngine(ENGINE_ENTRY),
    bundledEngine(DRAIN_MAIN_ENTRY),
  ]);
  const child = forkChild(
    entry,
    { BENCH_DRAIN_MAIN: JSON.stringify({ ...config, engineEntry } satisfies DrainMainConfig) },
    false,
  );
  const next = (): Promise<FromDrainMain> =>
    new Promise((resolve, reject) => {
      child.once('message', (message) => resolve(message as FromDrainMain));
      child.once('exit', (code) => reject(new Error(`drain-main.ts exited (${code})`)));
    });
  const ask = (message: ToDrainMain): boolean => child.send(message);
  const ready = await next();
  if (ready.type !== 'ready') throw new Error(`drain-main.ts said ${ready.type} first`);
  return {
    drain: async () => {
      const answer = next();
      ask({ type: 'drain' });
      const drained = await answer;
      if (drained.type !== 'drained') throw new Error(`drain-main.ts said ${drained.type}`);
      return drained.drain;
    },
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        ask({ type: 'close' });
      }),
  };
}

export interface SandboxProcess {
  url: string;
  close(): Promise<void>;
}

export function startSandboxProcess(options: SandboxOptions): Promise<SandboxProcess> {
  return sandboxInProcess(() => asUtility(forkChild(SANDBOX_ENTRY)), 30_000)(options);
}

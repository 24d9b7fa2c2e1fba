/**
 * The app's processes under plain Node, started the way main starts them (src/main/index.ts):
 * the engine behind `EngineClient` (its process protocol) and the embedded sandbox behind
 * `sandboxInProcess`. The bench process itself plays main. The engine runs bundled, as the app's
 * does (engine-bundle.ts: its memory is measured); the sandbox runs its sources through tsx.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { EngineClient, type EngineChild } from '../src/main/engine-client';
import { sandboxInProcess, type SandboxChild } from '../src/main/sandbox-launcher';
import type { SandboxOptions } from '../src/sandbox';
import type {
  BenchEngineConfig,
  FromBenchEngine,
  MirrorState,
  ToBenchEngine,
} from './engine-entry';
import { bundledEngine } from './engine-bundle';
import type { MemoryBreakdown } from './engine-memory';

const ENGINE_ENTRY = fileURLToPath(new URL('./engine-entry.ts', import.meta.url));
const SANDBOX_ENTRY = fileURLToPath(new URL('../src/sandbox/sandbox-process.ts', import.meta.url));

function forkTs(entry: string, env: Record<string, string> = {}, tsx = true): ChildProcess {
  return fork(entry, [], {
    execArgv: tsx ? ['--import', 'tsx'] : [],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
}

/** A Node child as Electron's UtilityProcess looks to main. */
function asUtility(child: ChildProcess): EngineChild & SandboxChild {
  const utility = {
    get pid() {
      return child.pid;
    },
    postMessage(message: unknown) {
      if (child.connected) child.send(message as object);
    },
    on(event: 'message' | 'exit', listener: (value: never) => void) {
      child.on(event, listener as (...args: unknown[]) => void);
      return utility;
    },
    kill: () => child.kill(),
  };
  return utility;
}

export interface EngineProcess {
  client: EngineClient;
  /** Resolves once the engine's search index drained, with how long that took in the engine. */
  indexIdle(): Promise<number>;
  /** The mirror's state, read in the engine's store (never through a call that opens reports). */
  mirrorState(): Promise<MirrorState>;
  /** Holds the linked clock at real pace (engine-clock.ts), or lets it skip waits again. */
  holdClock(held: boolean): Promise<void>;
  /**
   * Lists a search's first pages from the index in the list's order (true, the app's own), or
   * from the set of its hits as before migration 14 (false).
   */
  listOrder(indexOrder: boolean): Promise<void>;
  /** Sets the store's SQLite page cache to `kib` KiB (0: leaves it); answers its size in KiB. */
  cacheKib(kib: number): Promise<number>;
  /**
   * What the engine's resident set is made of, read in the engine (engine-memory.ts); after a
   * full collection when `collect` (V8's live heap without its garbage).
   */
  memory(collect?: boolean): Promise<MemoryBreakdown>;
  /** The engine process's id (its memory is read from /proc). */
  pid(): number;
  close(): Promise<void>;
}

export async function startEngineProcess(
  dataDir: string,
  config: BenchEngineConfig = {},
): Promise<EngineProcess> {
  const entry = await bundledEngine(ENGINE_ENTRY);
  let child: ChildProcess | null = null;
  let nextId = 1;
  const answers = new Map<number, (value: FromBenchEngine['value']) => void>();
  const client = new EngineClient({
    fork: () => {
      child = forkTs(entry, { BENCH_ENGINE: JSON.stringify(config) }, false);
      child.on('message', (raw) => {
        const message = raw as FromBenchEngine;
        if (message.type !== 'bench-answer') return;
        answers.get(message.id)?.(message.value);
        answers.delete(message.id);
      });
      return asUtility(child);
    },
    options: { dataDir },
  });
  client.start();
  await client.whenReady();
  const ask = <T extends FromBenchEngine['value']>(
    type: ToBenchEngine['type'],
    extra: { held?: boolean; indexOrder?: boolean; kib?: number; collect?: boolean } = {},
  ): Promise<T> =>
    new Promise((resolve) => {
      const id = nextId++;
      answers.set(id, resolve as (value: FromBenchEngine['value']) => void);
      child?.send({ type, id, ...extra } as ToBenchEngine);
    });
  return {
    client,
    indexIdle: () => ask<number>('bench-index-idle'),
    mirrorState: () => ask<MirrorState>('bench-mirror-state'),
    holdClock: async (held) => void (await ask<number>('bench-clock-hold', { held })),
    listOrder: async (indexOrder) => void (await ask<number>('bench-list-order', { indexOrder })),
    cacheKib: (kib) => ask<number>('bench-cache-kib', { kib }),
    memory: (collect = false) => ask<MemoryBreakdown>('bench-memory', { collect }),
    pid: () => (child as ChildProcess | null)?.pid ?? 0,
    close: () => client.close(30_000),
  };
}

export interface SandboxProcess {
  url: string;
  close(): Promise<void>;
}

export function startSandboxProcess(options: SandboxOptions): Promise<SandboxProcess> {
  return sandboxInProcess(() => asUtility(forkTs(SANDBOX_ENTRY)), 30_000)(options);
}

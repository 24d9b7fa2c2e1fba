/**
 * The bench's engine process behind main's own client (`EngineClient`, its process protocol),
 * with the questions only the bench asks beside it (engine-entry.ts). Apart from processes.ts so
 * that a process playing main (drain-main.ts) can start it without the bench's bundler.
 */
import type { ChildProcess } from 'node:child_process';
import { EngineClient } from '../src/main/engine-client';
import type {
  BenchEngineConfig,
  FromBenchEngine,
  MirrorState,
  ToBenchEngine,
} from './engine-entry';
import type { MemoryBreakdown } from './engine-memory';
import { asUtility, forkChild } from './utility-child';

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

/** The engine from its bundle `entry` (engineBundle()), behind main's EngineClient. */
export async function engineProcessOf(
  entry: string,
  dataDir: string,
  config: BenchEngineConfig = {},
): Promise<EngineProcess> {
  let child: ChildProcess | null = null;
  let nextId = 1;
  const answers = new Map<number, (value: FromBenchEngine['value']) => void>();
  const client = new EngineClient({
    fork: () => {
      // As JSON: the process playing main then deserializes as Electron's main does, keeping
      // nothing of a message past it (utility-child.ts, deserializers.ts).
      child = forkChild(entry, { BENCH_ENGINE: JSON.stringify(config) }, false, 'json');
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

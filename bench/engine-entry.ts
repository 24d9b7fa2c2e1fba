/**
 * The engine process of the UI benchmark: the app's own host (`serveEngine`, the protocol main
 * speaks) around an Engine with bench options from `BENCH_ENGINE` (JSON): no request budget for
 * the wall-time mirror, or a clock linked to the sandbox's for the rate-limited one
 * (engine-clock.ts). Beside the protocol, one question only the bench asks: `bench-index-idle`
 * answers once the search index drained, with how long that took in this process.
 */
import { Engine, type EngineOptions } from '../src/core/engine';
import { serveEngine } from '../src/core/host/engine-host';
import { KeychainSecretStore } from '../src/core/secrets';
import { parentPort, type ParentPort } from '../src/shared/process/parent-port';
import { SandboxLinkedClock } from './engine-clock';

export interface BenchEngineConfig {
  budgetLimit?: number;
  syncConcurrency?: number;
  autoStart?: boolean;
  /** The sandbox whose clock the engine's budget follows. */
  linkedClock?: string;
}

export type ToBenchEngine = { type: 'bench-index-idle'; id: number };
export type FromBenchEngine = { type: 'bench-answer'; id: number; value: number };

const config = JSON.parse(process.env['BENCH_ENGINE'] ?? '{}') as BenchEngineConfig;
const port = parentPort();
let engine: Engine | null = null;

async function indexIdle(): Promise<number> {
  const started = performance.now();
  const store = engine?.session.store;
  while (store && store.searchIndex.pending() > 0) {
    await store.searchIndex.idle();
    // idle() resolves when a drain ends; a write may have queued more meanwhile.
    if (store.searchIndex.pending() > 0) store.searchIndex.schedule();
  }
  return performance.now() - started;
}

const withBench: ParentPort = {
  postMessage: (message) => port.postMessage(message),
  onMessage: (listener) =>
    port.onMessage((raw) => {
      const message = raw as ToBenchEngine | { type: string };
      if (message.type !== 'bench-index-idle') return listener(raw);
      const { id } = message as ToBenchEngine;
      void indexIdle().then((value) =>
        port.postMessage({ type: 'bench-answer', id, value } satisfies FromBenchEngine),
      );
    }),
};

serveEngine(
  withBench,
  (options) => {
    const engineOptions: EngineOptions = {
      dataDir: options.dataDir,
      secrets: new KeychainSecretStore(),
      // No extra poll a few seconds after the bench's own writes.
      cadences: { afterActionMs: 10 * 60_000 },
      ...(config.budgetLimit ? { budgetLimit: config.budgetLimit } : {}),
      ...(config.syncConcurrency ? { syncConcurrency: config.syncConcurrency } : {}),
      ...(config.autoStart !== undefined ? { autoStart: config.autoStart } : {}),
      ...(config.linkedClock ? { clock: new SandboxLinkedClock(config.linkedClock) } : {}),
    };
    engine = new Engine(engineOptions);
    return engine;
  },
  (code) => process.exit(code),
);

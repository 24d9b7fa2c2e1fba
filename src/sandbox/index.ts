/**
 * The embedded sandbox of the researcher API: `startSandbox(options)` resolves to `{ url, close }`
 * once it accepts requests. See docs/sandbox.md.
 */
import type { AddressInfo } from 'node:net';
import { TriageAgent } from './agent';
import { SandboxClock } from './clock';
import type { SandboxEnv } from './env';
import { FaultInjector } from './faults';
import type { SandboxOptions } from './options';
import { resolveOptions } from './options';
import { Persistence } from './persistence';
import { RateLimiter } from './rate-limit';
import { apiRouter, controlRouter } from './routes';
import { createSandboxServer } from './server';
import { DiskBlobStore, MemoryBlobStore } from './state/blobs';
import { World } from './state/world';
import { RequestStats } from './stats';
import { seedWorld } from './world/seed';

export type { SandboxOptions } from './options';

export interface SandboxHandle {
  /** Base address, e.g. `http://127.0.0.1:4010` (the API is under `<url>/api`). */
  url: string;
  port: number;
  /** Direct access to the state, for benchmarks and white-box tests. */
  env: SandboxEnv;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  const opts = resolveOptions(options);
  const clock = new SandboxClock();
  const world = new World(clock);
  const blobs = opts.dataDir ? new DiskBlobStore(opts.dataDir) : new MemoryBlobStore();
  const persistence = opts.dataDir ? new Persistence(opts.dataDir, world) : undefined;
  const changed = (): void => persistence?.schedule();
  const limiter = new RateLimiter(clock, opts.rateLimits === 'spec');
  const faults = new FaultInjector();
  const stats = new RequestStats();
  const agent = new TriageAgent(world, clock, opts.agent, opts.agentDelaySeconds * 1000, changed);

  const env: SandboxEnv = {
    options: opts,
    clock,
    world,
    blobs,
    limiter,
    faults,
    stats,
    agent,
    changed,
    async reset() {
      world.clear();
      clock.reset();
      limiter.reset();
      faults.clear();
      stats.reset();
      await blobs.clear();
      await seedWorld(world, blobs);
      agent.rescan();
      changed();
    },
  };

  const loaded = persistence ? await persistence.load() : false;
  if (!loaded) {
    await seedWorld(world, blobs);
    changed();
  }
  agent.rescan();

  let url = '';
  const server = createSandboxServer(
    env,
    { api: apiRouter(), control: controlRouter() },
    () => url,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  url = `http://${host}:${port}`;
  agent.start(opts.agentTickMs);

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    env,
    close() {
      closing ??= (async () => {
        agent.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await persistence?.flush();
      })();
      return closing;
    },
  };
}

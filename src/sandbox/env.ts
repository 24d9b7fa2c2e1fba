/** Everything a route handler may use, passed around as one object. */
import type { TriageAgent } from './agent';
import type { SandboxClock } from './clock';
import type { FaultInjector } from './faults';
import type { ResolvedOptions } from './options';
import type { RateLimiter } from './rate-limit';
import type { BlobStore } from './state/blobs';
import type { World } from './state/world';
import type { RequestStats } from './stats';

export interface SandboxEnv {
  options: ResolvedOptions;
  clock: SandboxClock;
  world: World;
  blobs: BlobStore;
  limiter: RateLimiter;
  faults: FaultInjector;
  stats: RequestStats;
  agent: TriageAgent;
  /** Asks persistence to write a snapshot soon (no-op in memory). */
  changed(): void;
  /** Back to the seeded world (control route `reset`). */
  reset(): Promise<void>;
}

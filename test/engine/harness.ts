import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, type EngineOptions } from '../../src/core/engine';
import { KeychainSecretStore } from '../../src/core/secrets';
import type { BridgeEventName, BridgeEvents } from '../../src/shared/bridge/contract';
import {
  openSandbox,
  pickPrograms,
  writeKey,
  type SandboxClient,
  type WorldAccount,
} from '../support/sandbox-client';

import { FAST_RETRY } from './fast-retry';

export { FAST_RETRY };

export interface Harness {
  sandbox: SandboxClient;
  dataDir: string;
  account: WorldAccount;
  key: string;
  programs: ReturnType<typeof pickPrograms>;
  engine: Engine;
  events: { [E in BridgeEventName]?: BridgeEvents[E][] };
  /** A fresh engine on the same data folder (a restart). */
  restart(): Promise<Engine>;
  file(name: string, bytes: string | Buffer): Promise<string>;
  close(): Promise<void>;
}

export async function openHarness(
  account: { email_verified?: boolean; payments_status?: string } = {
    email_verified: true,
    payments_status: 'ready',
  },
  options: { rateLimits?: 'spec' | 'off'; engine?: Partial<EngineOptions> } = {},
): Promise<Harness> {
  const sandbox = await openSandbox({ rateLimits: options.rateLimits ?? 'spec' });
  const world = await sandbox.world();
  const created = await sandbox.newAccount(account);
  const dataDir = await mkdtemp(join(tmpdir(), 'engine-'));
  const events: Harness['events'] = {};
  const make = (): Engine => {
    const engine = new Engine({
      dataDir,
      secrets: new KeychainSecretStore(),
      retry: FAST_RETRY,
      // The scheduler's own timers stay slow: tests call syncNow to be deterministic.
      cadences: { afterActionMs: 60_000 },
      ...options.engine,
    });
    for (const name of [
      'report-changed',
      'needs-info',
      'decision',
      'payout-changed',
      'connectivity',
      'sync-error',
    ] as const) {
      engine.events.on(name, (payload) => {
        ((events[name] ??= []) as unknown[]).push(payload);
      });
    }
    return engine;
  };
  const harness: Harness = {
    sandbox,
    dataDir,
    account: created,
    key: writeKey(created),
    programs: pickPrograms(world),
    engine: make(),
    events,
    async restart() {
      await harness.engine.close();
      harness.engine = make();
      await harness.engine.open();
      return harness.engine;
    },
    async file(name, bytes) {
      const path = join(dataDir, name);
      await writeFile(path, bytes);
      return path;
    },
    async close() {
      await harness.engine.signOut().catch(() => undefined);
      await harness.engine.close();
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

export { COMPLETE_DESCRIPTION } from '../support/fixtures';

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { Engine, type EngineOptions } from '../../src/engine/commands';
import type { DraftContent } from '../../src/shared/bridge/views';
import { KeychainSecretStore } from '../../src/engine/secrets';
import type { BridgeEventName, BridgeEvents } from '../../src/shared/bridge/contract';
import {
  openSandbox,
  pickPrograms,
  type MessageList,
  type Report,
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

/** A harness signed in (`connect`), and with `sync` its first reports, account and programs. */
export async function openConnected(
  account?: Parameters<typeof openHarness>[0],
  options: Parameters<typeof openHarness>[1] & { sync?: boolean } = {},
): Promise<Harness> {
  const h = await openHarness(account, options);
  await h.engine.connect({ serverUrl: h.sandbox.url, apiKey: h.key });
  if (options.sync !== false) await h.engine.session.syncNow(['reports', 'account', 'programs']);
  return h;
}

/**
 * A connected harness for each test that asks for one, closed after it (`before` runs first, e.g.
 * to clear the sandbox's faults).
 */
export function harnessPerTest(
  before?: (h: Harness) => Promise<void>,
): (...args: Parameters<typeof openConnected>) => Promise<Harness> {
  return closedAfterEach(openConnected, before);
}

/** Like harnessPerTest, for tests that sign in their own way: the harness is not connected. */
export function bareHarnessPerTest(
  before?: (h: Harness) => Promise<void>,
): (...args: Parameters<typeof openHarness>) => Promise<Harness> {
  return closedAfterEach(openHarness, before);
}

function closedAfterEach<A extends unknown[]>(
  open: (...args: A) => Promise<Harness>,
  before?: (h: Harness) => Promise<void>,
): (...args: A) => Promise<Harness> {
  let current: Harness | null = null;
  afterEach(async () => {
    if (current) await before?.(current);
    await current?.close();
    current = null;
  });
  return async (...args) => (current = await open(...args));
}

/** One connected harness for the whole file (not synced yet), closed after it. */
export function harnessPerFile(opened: (h: Harness) => void): void {
  let current: Harness | null = null;
  beforeAll(async () => {
    current = await openConnected(undefined, { sync: false });
    opened(current);
  });
  afterAll(async () => {
    await current?.close();
  });
}

/** The report as the server holds it. */
/** How many requests the sandbox has answered on `route` (its stats' key: `PUT /api/reports/{report_id}`). */
export async function routeCount(h: Harness, route: string): Promise<number> {
  const stats = await h.sandbox.control<{ by_route: Record<string, number> }>(
    'GET',
    '/__sandbox/stats',
  );
  return stats.by_route[route] ?? 0;
}

export async function server(h: Harness, reportId: string): Promise<Report> {
  return (await h.sandbox.api<Report>('GET', `/api/reports/${reportId}`, { token: h.key })).body;
}

/** A file's bytes as the server holds them. */
export async function serverFile(h: Harness, reportId: string, fileId: string): Promise<Buffer> {
  const res = await fetch(new URL(`/api/reports/${reportId}/files/${fileId}`, h.sandbox.url), {
    headers: { authorization: `Bearer ${h.key}` },
  });
  return Buffer.from(await res.arrayBuffer());
}

/** The researcher's messages on the server, oldest first. */
export async function researcherMessages(h: Harness, reportId: string) {
  const res = await h.sandbox.api<MessageList>('GET', `/api/reports/${reportId}/messages`, {
    token: h.key,
  });
  return res.body.messages.filter((m) => m.author === 'researcher');
}

/** Another client (the website, a second device): a full save at the server's revision. */
export async function saveElsewhere(
  h: Harness,
  reportId: string,
  change: Partial<DraftContent>,
): Promise<void> {
  const current = await server(h, reportId);
  const res = await h.sandbox.api<Report>('PUT', `/api/reports/${reportId}`, {
    token: h.key,
    body: {
      program_id: current.program_id,
      title: current.title,
      asset: current.asset,
      description: current.description,
      cvss_vector: current.cvss_vector,
      ...change,
      revision: current.revision,
    },
  });
  expect(res.status).toBe(200);
}

export { COMPLETE_DESCRIPTION } from '../support/fixtures';

import { startSandbox } from '../../../src/sandbox';

import type { World, WorldAccount } from '../../../src/shared/api/sandbox-world';

export type { World, WorldAccount };

/** A running sandbox and its control routes, reached over HTTP like any other client would. */
export class SandboxHandle {
  private constructor(
    readonly url: string,
    private readonly stop: () => Promise<void>,
  ) {}

  static async start(): Promise<SandboxHandle> {
    const sandbox = await startSandbox({ port: 0, agent: 'manual', rateLimits: 'spec' });
    return new SandboxHandle(sandbox.url, () => sandbox.close());
  }

  close(): Promise<void> {
    return this.stop();
  }

  async control<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
    });
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }

  world(): Promise<World> {
    return this.control('GET', '/__sandbox/world');
  }

  /** A fresh account, so rate-limit windows and reports of one test never touch another's. */
  newAccount(
    fields: { email_verified?: boolean; payments_status?: string } = {},
  ): Promise<WorldAccount> {
    return this.control('POST', '/__sandbox/accounts', {
      email_verified: true,
      payments_status: 'ready',
      ...fields,
    });
  }

  faults(config: {
    rate: number;
    statuses?: number[];
    reset_connection?: boolean;
    latency_ms?: number;
    seed?: number;
  }) {
    return this.control('POST', '/__sandbox/faults', config);
  }

  clearFaults() {
    return this.control('DELETE', '/__sandbox/faults');
  }

  advanceClock(seconds: number) {
    return this.control('POST', '/__sandbox/clock', { advance_seconds: seconds });
  }

  async openProgramId(): Promise<string> {
    const { programs } = await this.world();
    const open = programs.find(
      (p) => p.intake === 'open' && !p.pool_paused && p.published && !p.private,
    );
    if (!open) throw new Error('the seeded world has no open public program');
    return open.id;
  }
}

export function keyOf(account: WorldAccount, scope: 'read' | 'write'): string {
  const key = account.keys.find((k) => k.scope === scope)?.key;
  if (!key) throw new Error(`account ${account.uid} has no ${scope} key`);
  return key;
}

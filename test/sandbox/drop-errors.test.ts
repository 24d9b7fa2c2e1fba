import { randomUUID } from '../support/random';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSandbox, pickAccounts, writeKey, type SandboxClient } from '../support/sandbox-client';

/** With `reset_connection` at rate 1, every answer is lost: error answers as well as successes. */
describe('sandbox faults: a dropped connection at rate 1 drops error answers too', () => {
  let sandbox: SandboxClient;
  let key: string;

  beforeAll(async () => {
    sandbox = await openSandbox({ rateLimits: 'off' });
    key = writeKey(pickAccounts(await sandbox.world()).ready);
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('no request gets an answer, whatever it would have been', async () => {
    await sandbox.faults({ rate: 1, reset_connection: true, seed: 11 });
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) {
      try {
        const res = await fetch(`${sandbox.url}/api/reports/${randomUUID()}`, {
          headers: { Authorization: `Bearer ${key}` },
        });
        outcomes.push(String(res.status));
      } catch {
        outcomes.push('dropped');
      }
    }
    await sandbox.clearFaults();
    expect(outcomes).toEqual(Array.from({ length: 12 }, () => 'dropped'));
    const after = await fetch(`${sandbox.url}/api/reports/${randomUUID()}`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(after.status).toBe(404);
  });
});

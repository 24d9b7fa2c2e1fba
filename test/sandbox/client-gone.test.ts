import { randomUUID } from '../support/random';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openSandbox,
  pickAccounts,
  pickPrograms,
  writeKey,
  type Report,
  type SandboxClient,
} from '../support/sandbox-client';

/**
 * A client that disconnects before the sandbox starts reading its upload (here: while an injected
 * latency holds the request) must not leave the file `uploading`: the same upload sent again has
 * to go through, not answer `409 file_busy` until the body timeout.
 */
describe('sandbox: an upload whose client left before its body was read', () => {
  let sandbox: SandboxClient;
  let key: string;
  let programId: string;

  beforeAll(async () => {
    sandbox = await openSandbox({ rateLimits: 'off' });
    const world = await sandbox.world();
    key = writeKey(pickAccounts(world).ready);
    programId = pickPrograms(world).open.id;
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('frees the file id at once', async () => {
    const reportId = randomUUID();
    const created = await sandbox.api<Report>('PUT', `/api/reports/${reportId}`, {
      token: key,
      body: { program_id: programId, title: 't', asset: 'a', description: 'd', revision: 0 },
    });
    expect(created.status).toBe(200);
    const revision = created.body.revision;
    const fileId = randomUUID();
    const path = `/api/reports/${reportId}/files/${fileId}?name=poc.txt&revision=${revision}`;

    await sandbox.faults({ rate: 1, latency_ms: 300, seed: 3 });
    await new Promise<void>((resolve) => {
      const url = new URL(path, sandbox.url);
      const req = request(url, {
        method: 'PUT',
        headers: {
          Authorization: `Bearer ${key}`,
          'Content-Type': 'text/plain',
          'Content-Length': '10',
        },
      });
      req.on('error', () => resolve());
      req.write('hello');
      // Gone while the sandbox still holds the request in its latency.
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50);
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    await sandbox.clearFaults();

    const now = await sandbox.api<Report>('GET', `/api/reports/${reportId}`, { token: key });
    const again = await sandbox.api<Report>('PUT', `/api/reports/${reportId}/files/${fileId}`, {
      token: key,
      rawBody: Buffer.from('0123456789'),
      contentType: 'text/plain',
      query: { name: 'poc.txt', revision: now.body.revision },
    });
    expect(again.status).toBe(200);
    expect(again.body.attachments[fileId]?.state).toBe('ready');
  });
});

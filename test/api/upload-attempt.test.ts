import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/engine/api/client';
import { sendUpload } from '../../src/engine/api/file-transfer';
import { fakeApiKey } from '../secrets/support';

/**
 * A server may answer an upload before it read the body (a 429, a 409 on a stale revision). The
 * file kept streaming from disk after that answer, and its progress callback ran after the
 * attempt ended — once after the session had closed the store it writes to (an uncaught
 * "database connection is not open" in CI). An attempt's progress ends with the attempt.
 */
describe('an upload attempt answered before its body was read', () => {
  let server: Server;
  let dir: string;
  let url: string;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '1' });
      res.end(JSON.stringify({ error: { code: 'rate_limited', message: 'slow down' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = await mkdtemp(join(tmpdir(), 'upload-attempt-'));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('reports no progress after the answer, and stops reading the file', async () => {
    const path = join(dir, 'capture.bin');
    await writeFile(path, Buffer.alloc(8 * 1024 * 1024, 7));
    const client = createApiClient({ serverUrl: url, apiKey: fakeApiKey() });
    let ended = false;
    const late: number[] = [];
    const outcome = await sendUpload(
      client,
      '4b8f2d0c-1c1e-4a57-9a53-3f1f6c2b9e10',
      '6f1d1c52-5b3a-4c8e-8f0e-2a4b7d9c1e33',
      {
        path,
        name: 'capture.bin',
        revision: 1,
        onProgress: (sent) => {
          if (ended) late.push(sent);
        },
      },
      new AbortController().signal,
    ).finally(() => (ended = true));
    expect(outcome.response.status).toBe(429);
    // Give a still-open file stream every chance to deliver its remaining chunks.
    for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(late).toEqual([]);
  });
});

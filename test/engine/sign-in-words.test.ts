import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Engine } from '../../src/engine/commands';
import { KeychainSecretStore } from '../../src/engine/secrets';
import { FAST_RETRY } from './fast-retry';

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

it('first run without a connection: says what to check, not that work is kept (there is none)', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'engine-sign-in-'));
  const engine = new Engine({ dataDir, secrets: new KeychainSecretStore(), retry: FAST_RETRY });
  try {
    const error = await engine
      .connect({
        serverUrl: `http://127.0.0.1:${await closedPort()}`,
        apiKey: `sbx_${'a'.repeat(43)}`,
      })
      .then(
        () => null,
        (e: unknown) => e as { field?: string; message: string },
      );
    expect(error?.field).toBe('serverUrl');
    expect(error?.message).toMatch(/Check the server URL and your connection\./);
    expect(error?.message).not.toMatch(/kept/i);
  } finally {
    await engine.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

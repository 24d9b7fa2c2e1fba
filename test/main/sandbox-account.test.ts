import { createServer, type Server } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/commands';
import { KeychainSecretStore } from '../../src/engine/secrets';
import { startSandbox } from '../../src/sandbox';
import { demoAccount, fetchWorldAccounts, SandboxAccount } from '../../src/main/sandbox-account';

// The sandbox account against a REAL sandbox and a REAL engine with the real keychain.

let userData: string;
const open: { engine: Engine; sandbox: SandboxAccount }[] = [];

function boot(): { engine: Engine; sandbox: SandboxAccount } {
  const engine = new Engine({
    dataDir: join(userData, 'data'),
    secrets: new KeychainSecretStore(),
  });
  const sandbox = new SandboxAccount({
    engine,
    dataDir: join(userData, 'sandbox'),
    choiceFile: join(userData, 'shell.json'),
    start: startSandbox,
  });
  open.push({ engine, sandbox });
  return { engine, sandbox };
}

/** Quit the app: the engine and the sandbox stop; the data folders stay. */
async function quit(app: { engine: Engine; sandbox: SandboxAccount }): Promise<void> {
  await app.engine.close();
  await app.sandbox.close();
}

beforeAll(async () => {
  userData = await mkdtemp(join(tmpdir(), 'bounty-desk-sandbox-account-'));
});

afterEach(async () => {
  for (const app of open.splice(0)) await quit(app);
});

afterAll(async () => {
  const app = boot();
  await app.sandbox.restore().catch(() => null);
  await app.engine.signOut();
  await quit(app);
  await rm(userData, { recursive: true, force: true });
});

describe('the demo user', () => {
  it('is the verified account with payments ready and a write key', async () => {
    const sandbox = await startSandbox({ port: 0, agent: 'manual', rateLimits: 'off' });
    try {
      const accounts = await fetchWorldAccounts(sandbox.url);
      const demo = demoAccount(accounts);
      expect(demo.uid).toBe('dana');
      expect(demo.key).toMatch(/^sbx_[A-Za-z0-9_-]{43}$/);
      expect(() => demoAccount(accounts.filter((a) => a.payments_status !== 'ready'))).toThrow(
        /no verified account/,
      );
    } finally {
      await sandbox.close();
    }
  });
});

describe('sandbox account across restarts', () => {
  let firstUrl: string;
  let draftId: string;

  it('first run: connect starts the sandbox on 127.0.0.1 and signs in as the demo user', async () => {
    const app = boot();
    expect(await app.engine.open()).toBeNull();
    const account = await app.sandbox.connect();
    firstUrl = account.serverUrl;
    expect(account).toMatchObject({ sandbox: true, scope: 'write', me: { uid: 'dana' } });
    expect(firstUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const stored = await readFile(join(userData, 'shell.json'), 'utf8');
    expect(JSON.parse(stored)).toEqual({ sandbox: { port: Number(new URL(firstUrl).port) } });
    expect(stored).not.toMatch(/sbx_/);
    // Something the next start must find again: a local draft.
    await app.engine.calls.syncNow();
    draftId = (await app.engine.calls.createDraft('sandbox-playground')).reportId;
  });

  it('next start: the sandbox comes back first (same port when free), then the account', async () => {
    const app = boot();
    const account = await app.sandbox.restore();
    expect(account).toMatchObject({ sandbox: true, serverUrl: firstUrl, me: { uid: 'dana' } });
    expect(app.sandbox.url).toBe(firstUrl);
    const reports = await app.engine.calls.listReports({});
    expect(reports.items.map((r) => r.id)).toContain(draftId);
  });

  it('when the old port is taken, it signs in again at the new URL with the same demo key', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) =>
      blocker.listen(Number(new URL(firstUrl).port), '127.0.0.1', resolve),
    );
    try {
      const app = boot();
      const account = await app.sandbox.restore();
      expect(account?.sandbox).toBe(true);
      expect(account?.me?.uid).toBe('dana');
      expect(account?.serverUrl).not.toBe(firstUrl);
      expect(account?.serverUrl).toBe(app.sandbox.url);
      expect((await app.engine.getAccount())?.serverUrl).toBe(app.sandbox.url);
      // The choice now remembers the new port.
      const stored = JSON.parse(await readFile(join(userData, 'shell.json'), 'utf8')) as {
        sandbox: { port: number };
      };
      expect(stored.sandbox.port).toBe(Number(new URL(account?.serverUrl ?? '').port));
      // The local mirror is the same one: the draft of the first run is still there.
      const reports = await app.engine.calls.listReports({});
      expect(reports.items.map((r) => r.id)).toContain(draftId);
      // The sandbox's own state (its dataDir) survived: the server still knows ada.
      expect((await fetchWorldAccounts(app.sandbox.url ?? '')).map((a) => a.uid)).toContain('ada');
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('forget (sign-out or a real server) removes the choice; the next start restores nothing', async () => {
    const app = boot();
    await app.sandbox.restore();
    await app.engine.signOut();
    await app.sandbox.forget();
    expect(app.sandbox.url).toBeNull();
    await quit(app);
    const again = boot();
    expect(await again.sandbox.restore()).toBeNull();
    expect(again.sandbox.url).toBeNull();
  });
});

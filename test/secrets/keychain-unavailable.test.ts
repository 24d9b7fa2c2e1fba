import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fakeApiKey, uniqueServerUrl } from './support';

const run = promisify(execFile);
const child = join(import.meta.dirname, 'fixtures', 'store-key-child.ts');

interface ChildResult {
  ok: boolean;
  name?: string;
  message?: string;
  inspected?: string;
  stack?: string;
}

/** Runs the real store in a child process whose environment decides which keychain it can reach. */
async function storeKeyInChild(
  env: NodeJS.ProcessEnv,
  key: string,
  wrap: string[] = [],
): Promise<ChildResult> {
  const [file, ...args] = [
    ...wrap,
    process.execPath,
    '--import',
    'tsx',
    child,
    uniqueServerUrl(),
    key,
  ];
  const { stdout } = await run(file ?? process.execPath, args, { env, timeout: 20_000 });
  const lastLine = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(lastLine) as ChildResult;
}

function withoutSessionBus(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  return env;
}

function expectClearUnavailableError(result: ChildResult, key: string): void {
  expect(result.ok).toBe(false);
  expect(result.name).toBe('KeychainUnavailableError');
  expect(result.message).toMatch(/No OS keychain is available/);
  expect(result.message).toMatch(/apt-get install gnome-keyring"/);
  expect(result.message).toMatch(/never written to disk in plain text/);
  for (const text of [result.message, result.inspected, result.stack])
    expect(text).not.toContain(key);
}

describe('without a usable keychain (real child processes)', () => {
  it('explains what to install when there is no D-Bus session at all', async () => {
    const key = fakeApiKey();
    expectClearUnavailableError(await storeKeyInChild(withoutSessionBus(), key), key);
  });

  it('explains what to install when the session bus address leads nowhere', async () => {
    const key = fakeApiKey();
    const env = {
      ...withoutSessionBus(),
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bounty-desk-bus',
    };
    expectClearUnavailableError(await storeKeyInChild(env, key), key);
  });

  it('explains what to install when the session has no unlocked keyring', async () => {
    // A fresh D-Bus session and HOME: the Secret Service may be activated but holds no unlocked
    // collection, the state of a headless login.
    const home = await mkdtemp(join(tmpdir(), 'bounty-desk-nokeyring-'));
    try {
      const key = fakeApiKey();
      const env = { ...withoutSessionBus(), HOME: home, XDG_DATA_HOME: join(home, 'data') };
      expectClearUnavailableError(await storeKeyInChild(env, key, ['dbus-run-session', '--']), key);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

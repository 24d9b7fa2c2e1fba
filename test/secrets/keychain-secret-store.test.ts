import { afterEach, describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import { AsyncEntry } from '@napi-rs/keyring';
import {
  InvalidApiKeyError,
  KEYCHAIN_SERVICE,
  KeychainSecretStore,
  KeychainUnavailableError,
} from '../../src/engine/secrets';
import { normalizeServerUrl } from '../../src/shared/api/server-url';
import { fakeApiKey, uniqueServerUrl } from './support';

// These run against the real Secret Service: `bash scripts/with-keyring.sh npx vitest run test/secrets`.
const store = new KeychainSecretStore();
/** The binding's own entry, pinned to the Secret Service as the store pins it. */
function entryOf(url: string): AsyncEntry {
  return new AsyncEntry(KEYCHAIN_SERVICE, normalizeServerUrl(url), {
    linux: { store: 'secret-service' },
  });
}
const used: string[] = [];
function server(): string {
  const url = uniqueServerUrl();
  used.push(url);
  return url;
}

afterEach(async () => {
  for (const url of used.splice(0)) await store.delete(url);
});

describe('KeychainSecretStore on the real keychain', () => {
  it('stores, reads and deletes a key per server', async () => {
    const a = server();
    const b = server();
    const keyA = fakeApiKey();
    const keyB = fakeApiKey();
    await store.set(a, keyA);
    await store.set(b, keyB);
    expect(await store.get(a)).toBe(keyA);
    expect(await store.get(b)).toBe(keyB);
    expect(await store.delete(a)).toBe(true);
    expect(await store.get(a)).toBeNull();
    expect(await store.delete(a)).toBe(false);
    expect(await store.get(b)).toBe(keyB);
  });

  it('files the key under the service name and the normalized server URL', async () => {
    const url = server();
    const key = fakeApiKey();
    await store.set(`${url.toUpperCase().replace('HTTPS', 'https')}:443/`, key);
    expect(await entryOf(url).getPassword()).toBe(key);
    expect(await store.get(`${url}/`)).toBe(key);
  });

  it('replaces an existing key', async () => {
    const url = server();
    const second = fakeApiKey();
    await store.set(url, fakeApiKey());
    await store.set(url, second);
    expect(await store.get(url)).toBe(second);
  });

  it('trims whitespace picked up when pasting', async () => {
    const url = server();
    const key = fakeApiKey();
    await store.set(url, `  ${key}\n`);
    expect(await store.get(url)).toBe(key);
  });

  it('rejects a key of the wrong shape without storing it or echoing it', async () => {
    const url = server();
    const almost = fakeApiKey().slice(0, -1); // one character short
    const error = await store.set(url, almost).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidApiKeyError);
    const e = error as Error;
    expect(e.message).toContain(`has ${almost.length} characters`);
    for (const text of [e.message, String(e), inspect(e), e.stack ?? '', JSON.stringify(e)]) {
      expect(text).not.toContain(almost);
    }
    expect(await entryOf(url).getPassword()).toBeNull();
  });

  it('ignores a foreign value filed under its name instead of sending it as a key', async () => {
    const url = server();
    await entryOf(url).setPassword('not a key');
    expect(await store.get(url)).toBeNull();
  });

  it('confirms the keychain is usable', async () => {
    await expect(store.checkAvailable()).resolves.toBeUndefined();
  });

  it('reports a keychain library that cannot be loaded as unavailable', async () => {
    const broken = new KeychainSecretStore({
      loadKeyring: async () =>
        (await import(/* @vite-ignore */ `${'@napi-rs/keyring'}-missing-module`)) as never,
      platform: 'linux',
    });
    const error = await broken.get(server()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeychainUnavailableError);
    expect((error as Error).message).toMatch(/the keychain library could not be loaded/);
    expect((error as Error).message).toMatch(/apt-get install gnome-keyring"/);
  });

  it('does not show the store or a key in inspect output', () => {
    expect(inspect(store)).not.toMatch(/_[A-Za-z0-9_-]{43}/);
    expect(String(store)).toBe('KeychainSecretStore(bounty-desk)');
  });
});

describe('error messages never carry the key', () => {
  it('removes the key from a keychain failure reason', () => {
    const key = fakeApiKey();
    const other = fakeApiKey();
    const error = new KeychainUnavailableError(
      `failed to store ${key} (also ${other})`,
      'linux',
      key,
    );
    const texts = [
      error.message,
      error.reason,
      String(error),
      inspect(error),
      error.stack ?? '',
      JSON.stringify(error),
    ];
    for (const text of texts) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(other);
    }
    expect(error.message).toContain('[redacted]');
  });

  it('gives platform advice', () => {
    expect(new KeychainUnavailableError('x', 'linux').message).toMatch(
      /Secret Service.*apt-get install gnome-keyring"/,
    );
    expect(new KeychainUnavailableError('x', 'darwin').message).toMatch(/login keychain/);
    expect(new KeychainUnavailableError('x', 'win32').message).toMatch(/Credential Manager/);
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(new KeychainUnavailableError('x', platform).message).toMatch(
        /never written to disk in plain text/,
      );
    }
  });
});

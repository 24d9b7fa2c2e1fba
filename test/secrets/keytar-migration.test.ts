import { afterEach, describe, expect, it } from 'vitest';
import { AsyncEntry } from '@napi-rs/keyring';
import {
  CredentialManagerKeytarItems,
  defaultKeytarItems,
  KEYCHAIN_SERVICE,
  KeychainSecretStore,
  type OpenTarget,
} from '../../src/engine/secrets';
import { normalizeServerUrl } from '../../src/shared/api/server-url';
import { keytarFormat } from './keytar-format';
import { fakeApiKey, uniqueServerUrl } from './support';

// Keys that earlier versions stored with keytar, written in keytar's own format (keytar-format.ts:
// no keytar, no libsecret headers), read by the store built on @napi-rs/keyring, on the real
// keychain: the Secret Service here (`bash scripts/with-keyring.sh npx vitest run test/secrets`),
// the Credential Manager and the macOS Keychain where the release workflow runs `npm test`.
const keytar = keytarFormat();
const MAC = process.platform === 'darwin';
const used: string[] = [];
function server(): string {
  const url = uniqueServerUrl();
  used.push(url);
  return url;
}
function account(url: string): string {
  return normalizeServerUrl(url);
}
function newEntry(url: string): AsyncEntry {
  return new AsyncEntry(KEYCHAIN_SERVICE, account(url), { linux: { store: 'secret-service' } });
}

afterEach(async () => {
  for (const url of used.splice(0)) {
    await keytar.deletePassword(KEYCHAIN_SERVICE, account(url));
    await newEntry(url).deletePassword();
  }
});

describe('keys stored by keytar', () => {
  it('are a different item from the new binding’s, so they must be moved (the same on macOS)', async () => {
    const url = server();
    const key = fakeApiKey();
    await keytar.setPassword(KEYCHAIN_SERVICE, account(url), key);
    expect(await newEntry(url).getPassword()).toBe(MAC ? key : null);
    expect(defaultKeytarItems(process.platform) === null).toBe(MAC);
  });
});

// On macOS keytar's item is the binding's own (the test above): there is nothing to move.
describe.runIf(!MAC)('keys stored by keytar where the binding does not see them', () => {
  it('are read by the new store, moved to its entry and removed from the old one', async () => {
    const url = server();
    const key = fakeApiKey();
    await keytar.setPassword(KEYCHAIN_SERVICE, account(url), key);

    expect(await new KeychainSecretStore().get(url)).toBe(key);
    expect(await newEntry(url).getPassword()).toBe(key);
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, account(url))).toBeNull();
    // A later start finds it in the new entry alone.
    expect(await new KeychainSecretStore().get(`${url}/`)).toBe(key);
  });

  it('leave a foreign value filed under the name where it is, unsent', async () => {
    const url = server();
    await keytar.setPassword(KEYCHAIN_SERVICE, account(url), 'not a key');
    expect(await new KeychainSecretStore().get(url)).toBeNull();
    expect(await newEntry(url).getPassword()).toBeNull();
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, account(url))).toBe('not a key');
  });

  it('do not outlive a new key stored for the same server', async () => {
    const url = server();
    const newer = fakeApiKey();
    await keytar.setPassword(KEYCHAIN_SERVICE, account(url), fakeApiKey());
    await new KeychainSecretStore().set(url, newer);
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, account(url))).toBeNull();
    expect(await new KeychainSecretStore().get(url)).toBe(newer);
  });

  it('are forgotten with the key when the researcher signs out', async () => {
    const url = server();
    await keytar.setPassword(KEYCHAIN_SERVICE, account(url), fakeApiKey());
    expect(await new KeychainSecretStore().delete(url)).toBe(true);
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, account(url))).toBeNull();
    expect(await new KeychainSecretStore().get(url)).toBeNull();
  });

  it('of other servers and of the new binding are not touched by the old-item reader', async () => {
    const url = server();
    const other = server();
    const key = fakeApiKey();
    await keytar.setPassword(KEYCHAIN_SERVICE, account(other), key);
    await newEntry(url).setPassword(fakeApiKey());
    const items = defaultKeytarItems(process.platform);
    if (!items) throw new Error(`no reader of keytar's keys on ${process.platform}`);
    expect(await items.read(KEYCHAIN_SERVICE, account(url))).toBeNull();
    expect(await items.remove(KEYCHAIN_SERVICE, account(url))).toBe(false);
    expect(await newEntry(url).getPassword()).not.toBeNull();
    expect(await items.read(KEYCHAIN_SERVICE, account(other))).toBe(key);
  });

  it('are not looked for where no old reader is configured', async () => {
    const url = server();
    await keytar.setPassword(KEYCHAIN_SERVICE, account(url), fakeApiKey());
    expect(await new KeychainSecretStore({ keytarItems: null }).get(url)).toBeNull();
  });

  // gnome-keyring answers a new connection's first call before it knows the caller, now and then
  // ("Method SearchItems is not implemented"; CI met it in the journey test): one look-up in
  // about 300 failed here while other connections came and went, before the store retried it.
  it('are looked up without a failure while many connections come and go at once', async () => {
    const lookups = Array.from({ length: 240 }, (_, i) => i);
    const failures: string[] = [];
    await Promise.all(
      lookups.map(async (i) => {
        const url = server();
        try {
          if (i % 4 === 0) {
            const store = new KeychainSecretStore();
            await store.set(url, fakeApiKey());
            expect(await store.delete(url)).toBe(true);
          } else {
            expect(await new KeychainSecretStore().get(url)).toBeNull();
          }
        } catch (error) {
          failures.push(String(error));
        }
      }),
    );
    expect(failures).toEqual([]);
  }, 120_000);
});

describe('keys keytar stored on Windows (a credential named service/account, UTF-8 bytes)', () => {
  // The Credential Manager cannot run here (the binding's `withTarget` names a Secret Service
  // collection on Linux), so a map of credentials by exact name stands in for it, holding bytes
  // as keytar_win.cc writes them. On Windows the release workflow's `npm test` runs the keytar
  // tests above against the real Credential Manager with this reader.
  function credentialManager() {
    const credentials = new Map<string, Uint8Array>();
    const open: OpenTarget = (target) => ({
      getSecret: () => Promise.resolve(credentials.get(target) ?? null),
      deletePassword: () => Promise.resolve(credentials.delete(target)),
    });
    return { credentials, items: new CredentialManagerKeytarItems(() => Promise.resolve(open)) };
  }

  it('are read as UTF-8 under keytar’s name, moved to the new entry and removed', async () => {
    const url = server();
    const key = fakeApiKey();
    const { credentials, items } = credentialManager();
    credentials.set(`bounty-desk/${account(url)}`, Buffer.from(key, 'utf8'));
    expect(await new KeychainSecretStore({ keytarItems: items }).get(url)).toBe(key);
    expect(await newEntry(url).getPassword()).toBe(key);
    expect(credentials.size).toBe(0);
  });

  it('are removed with a sign-out; a foreign value under the name stays, unsent', async () => {
    const url = server();
    const other = server();
    const { credentials, items } = credentialManager();
    credentials.set(`bounty-desk/${account(url)}`, Buffer.from(fakeApiKey(), 'utf8'));
    credentials.set(`bounty-desk/${account(other)}`, Buffer.from('not a key', 'utf8'));
    expect(await new KeychainSecretStore({ keytarItems: items }).delete(url)).toBe(true);
    expect([...credentials.keys()]).toEqual([`bounty-desk/${account(other)}`]);
    expect(await new KeychainSecretStore({ keytarItems: items }).get(other)).toBeNull();
    expect(credentials.size).toBe(1);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import keytar from 'keytar';
import { AsyncEntry } from '@napi-rs/keyring';
import {
  KEYCHAIN_SERVICE,
  KeychainSecretStore,
  SecretServiceKeytarItems,
} from '../../src/core/secrets';
import { normalizeServerUrl } from '../../src/shared/api/server-url';
import { fakeApiKey, uniqueServerUrl } from './support';

// Keys that earlier versions stored with keytar (kept as a devDependency only to write them
// here), read by the store built on @napi-rs/keyring, on the real Secret Service:
// `bash scripts/with-keyring.sh npx vitest run test/secrets`.
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
  it('are a different item from the new binding’s, so they must be moved', async () => {
    const url = server();
    await keytar.setPassword(KEYCHAIN_SERVICE, account(url), fakeApiKey());
    expect(await newEntry(url).getPassword()).toBeNull();
  });

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
    const items = new SecretServiceKeytarItems();
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
});

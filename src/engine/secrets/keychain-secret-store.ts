import { isApiKeyShape } from '@shared/api/api-key';
import { normalizeServerUrl } from '@shared/api/server-url';
import { InvalidApiKeyError, KeychainUnavailableError } from './errors';
import { CredentialManagerKeytarItems } from './keytar-credentials';
import { SecretServiceKeytarItems, type KeytarItems } from './keytar-items';
import { KEYCHAIN_SERVICE, type SecretStore } from './secret-store';

/** One keychain entry (service + account), as @napi-rs/keyring's AsyncEntry offers it. */
export interface KeyringEntry {
  getPassword(): Promise<string | null>;
  setPassword(password: string): Promise<void>;
  deletePassword(): Promise<boolean>;
}

/** Opens the entry of a service and account in the OS keychain. */
export type OpenKeyringEntry = (service: string, account: string) => KeyringEntry;

export interface KeychainSecretStoreOptions {
  /** How the keychain binding is loaded; the default imports @napi-rs/keyring on first use. */
  loadKeyring?: () => Promise<OpenKeyringEntry>;
  /** Where keys stored by keytar (earlier versions) are read once and moved from; null: nowhere. */
  keytarItems?: KeytarItems | null;
  platform?: NodeJS.Platform;
}

const PROBE_ACCOUNT = 'bounty-desk:keychain-probe';

async function importKeyring(): Promise<OpenKeyringEntry> {
  const { AsyncEntry } = await import('@napi-rs/keyring');
  // Only the Secret Service on Linux: the binding would otherwise fall back to the kernel
  // keyring, which forgets the key at the next reboot instead of saying no keychain is there.
  return (service, account) =>
    new AsyncEntry(service, account, { linux: { store: 'secret-service' } });
}

/**
 * Where keytar's keys are when the binding does not see them: Linux (other attributes) and Windows
 * (another credential name and encoding). On macOS both use the same generic-password item.
 */
export function defaultKeytarItems(platform: NodeJS.Platform): KeytarItems | null {
  if (platform === 'linux' || platform === 'freebsd') return new SecretServiceKeytarItems();
  if (platform === 'win32') return new CredentialManagerKeytarItems();
  return null;
}

/**
 * The API key in the OS keychain (macOS Keychain, Windows Credential Manager, Secret Service on
 * Linux) through @napi-rs/keyring. Account name = normalized server URL. Every keychain failure
 * becomes a KeychainUnavailableError; there is deliberately no plain-text fallback. A key that
 * keytar stored (versions up to 0.1) is moved to the new entry the first time it is asked for.
 */
export class KeychainSecretStore implements SecretStore {
  readonly #load: () => Promise<OpenKeyringEntry>;
  readonly #platform: NodeJS.Platform;
  readonly #keytarItems: KeytarItems | null;
  /** Accounts whose keytar item was already looked for: nothing writes one any more. */
  readonly #keytarChecked = new Set<string>();
  #open: Promise<OpenKeyringEntry> | undefined;

  constructor(options: KeychainSecretStoreOptions = {}) {
    this.#load = options.loadKeyring ?? importKeyring;
    this.#platform = options.platform ?? process.platform;
    this.#keytarItems =
      options.keytarItems === undefined ? defaultKeytarItems(this.#platform) : options.keytarItems;
  }

  async get(serverUrl: string): Promise<string | null> {
    const account = normalizeServerUrl(serverUrl);
    const stored =
      (await this.#call((open) => open(KEYCHAIN_SERVICE, account).getPassword())) ??
      (await this.#moveKeytarItem(account));
    // Something else filed under our name is not a key we can send.
    return stored !== null && isApiKeyShape(stored) ? stored : null;
  }

  async set(serverUrl: string, key: string): Promise<void> {
    const account = normalizeServerUrl(serverUrl);
    const cleaned = key.trim();
    if (!isApiKeyShape(cleaned)) throw new InvalidApiKeyError(cleaned.length);
    await this.#call((open) => open(KEYCHAIN_SERVICE, account).setPassword(cleaned), cleaned);
    // An older key keytar stored for this server must not outlive the one that replaced it.
    await this.#removeKeytarItem(account);
  }

  async delete(serverUrl: string): Promise<boolean> {
    const account = normalizeServerUrl(serverUrl);
    const removed = await this.#call((open) => open(KEYCHAIN_SERVICE, account).deletePassword());
    const removedOld = await this.#removeKeytarItem(account);
    return removed || removedOld;
  }

  /**
   * Writes, reads back and removes a throw-away entry. On Linux a missing or locked keyring still
   * answers "nothing stored" to a read, so only a write tells whether keys can be kept.
   */
  async checkAvailable(): Promise<void> {
    const marker = `probe-${Date.now()}`;
    await this.#call(async (open) => {
      const entry = open(KEYCHAIN_SERVICE, PROBE_ACCOUNT);
      await entry.setPassword(marker);
      const readBack = await entry.getPassword();
      await entry.deletePassword();
      if (readBack !== marker) throw new Error('the keychain did not return what was stored');
    });
  }

  toString(): string {
    return `KeychainSecretStore(${KEYCHAIN_SERVICE})`;
  }

  /** Moves keytar's item for this account into the new entry: written, read back, then removed. */
  async #moveKeytarItem(account: string): Promise<string | null> {
    const items = this.#keytarItems;
    if (items === null || this.#keytarChecked.has(account)) return null;
    const old = await this.#call(() => items.read(KEYCHAIN_SERVICE, account));
    // Something else filed under our name stays where it is, unsent.
    if (old !== null && isApiKeyShape(old)) {
      await this.#call(async (open) => {
        const entry = open(KEYCHAIN_SERVICE, account);
        await entry.setPassword(old);
        if ((await entry.getPassword()) !== old)
          throw new Error('the keychain did not return the key moved from the old entry');
        await items.remove(KEYCHAIN_SERVICE, account);
      }, old);
    }
    this.#keytarChecked.add(account);
    return old;
  }

  async #removeKeytarItem(account: string): Promise<boolean> {
    const items = this.#keytarItems;
    if (items === null) return false;
    const removed = await this.#call(() => items.remove(KEYCHAIN_SERVICE, account));
    this.#keytarChecked.add(account);
    return removed;
  }

  async #call<T>(operation: (open: OpenKeyringEntry) => Promise<T>, secret?: string): Promise<T> {
    let open: OpenKeyringEntry;
    try {
      this.#open ??= this.#load();
      open = await this.#open;
    } catch (error) {
      this.#open = undefined; // a later call may succeed once the library is installed
      throw new KeychainUnavailableError(
        `the keychain library could not be loaded: ${messageOf(error)}`,
        this.#platform,
      );
    }
    try {
      return await operation(open);
    } catch (error) {
      throw new KeychainUnavailableError(messageOf(error), this.#platform, secret);
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

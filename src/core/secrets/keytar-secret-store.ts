import { isApiKeyShape } from '../../shared/api/api-key';
import { normalizeServerUrl } from '../api/server-url';
import { InvalidApiKeyError, KeychainUnavailableError } from './errors';
import { KEYCHAIN_SERVICE, type SecretStore } from './secret-store';

/** The part of keytar this store uses. */
export interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export interface KeytarSecretStoreOptions {
  /** How keytar is loaded; the default imports the native module on first use. */
  loadKeytar?: () => Promise<KeytarApi>;
  platform?: NodeJS.Platform;
}

const PROBE_ACCOUNT = 'bounty-desk:keychain-probe';

async function importKeytar(): Promise<KeytarApi> {
  const mod = (await import('keytar')) as KeytarApi & { default?: KeytarApi };
  return mod.default ?? mod;
}

/**
 * The API key in the OS keychain (macOS Keychain, Windows Credential Manager, Secret Service on
 * Linux). Account name = normalized server URL. Every keychain failure becomes a
 * KeychainUnavailableError; there is deliberately no plain-text fallback.
 */
export class KeytarSecretStore implements SecretStore {
  readonly #load: () => Promise<KeytarApi>;
  readonly #platform: NodeJS.Platform;
  #keytar: Promise<KeytarApi> | undefined;

  constructor(options: KeytarSecretStoreOptions = {}) {
    this.#load = options.loadKeytar ?? importKeytar;
    this.#platform = options.platform ?? process.platform;
  }

  async get(serverUrl: string): Promise<string | null> {
    const account = normalizeServerUrl(serverUrl);
    const stored = await this.#call((k) => k.getPassword(KEYCHAIN_SERVICE, account));
    // Something else filed under our name is not a key we can send.
    return stored !== null && isApiKeyShape(stored) ? stored : null;
  }

  async set(serverUrl: string, key: string): Promise<void> {
    const account = normalizeServerUrl(serverUrl);
    const cleaned = key.trim();
    if (!isApiKeyShape(cleaned)) throw new InvalidApiKeyError(cleaned.length);
    await this.#call((k) => k.setPassword(KEYCHAIN_SERVICE, account, cleaned), cleaned);
  }

  async delete(serverUrl: string): Promise<boolean> {
    const account = normalizeServerUrl(serverUrl);
    return this.#call((k) => k.deletePassword(KEYCHAIN_SERVICE, account));
  }

  /**
   * Writes, reads back and removes a throw-away entry. On Linux a missing or locked keyring still
   * answers "nothing stored" to a read, so only a write tells whether keys can be kept.
   */
  async checkAvailable(): Promise<void> {
    const marker = `probe-${Date.now()}`;
    await this.#call(async (k) => {
      await k.setPassword(KEYCHAIN_SERVICE, PROBE_ACCOUNT, marker);
      const readBack = await k.getPassword(KEYCHAIN_SERVICE, PROBE_ACCOUNT);
      await k.deletePassword(KEYCHAIN_SERVICE, PROBE_ACCOUNT);
      if (readBack !== marker) throw new Error('the keychain did not return what was stored');
    });
  }

  toString(): string {
    return `KeytarSecretStore(${KEYCHAIN_SERVICE})`;
  }

  async #call<T>(operation: (keytar: KeytarApi) => Promise<T>, secret?: string): Promise<T> {
    let keytar: KeytarApi;
    try {
      this.#keytar ??= this.#load();
      keytar = await this.#keytar;
    } catch (error) {
      this.#keytar = undefined; // a later call may succeed once the library is installed
      throw new KeychainUnavailableError(
        `keytar could not be loaded: ${messageOf(error)}`,
        this.#platform,
      );
    }
    try {
      return await operation(keytar);
    } catch (error) {
      throw new KeychainUnavailableError(messageOf(error), this.#platform, secret);
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

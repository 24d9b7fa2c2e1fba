/** Where the API key of each server lives. The only implementation used by the app is the OS keychain. */
export interface SecretStore {
  /** The stored key for this server, or null when none is stored. */
  get(serverUrl: string): Promise<string | null>;
  /** Stores (or replaces) the key for this server; rejects keys of the wrong shape. */
  set(serverUrl: string, key: string): Promise<void>;
  /** Forgets the key for this server; false when there was none. */
  delete(serverUrl: string): Promise<boolean>;
  /** Fails with a clear error when no usable keychain is there (checked before a key is needed). */
  checkAvailable(): Promise<void>;
}

/** The keychain "service" under which every key of this app is filed. */
export const KEYCHAIN_SERVICE = 'bounty-desk';

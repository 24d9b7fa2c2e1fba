export { KEYCHAIN_SERVICE, type SecretStore } from './secret-store';
export {
  defaultKeytarItems,
  KeychainSecretStore,
  type KeychainSecretStoreOptions,
  type KeyringEntry,
  type OpenKeyringEntry,
} from './keychain-secret-store';
export { SecretServiceKeytarItems, type KeytarItems } from './keytar-items';
export { CredentialManagerKeytarItems, type OpenTarget } from './keytar-credentials';
export { InvalidApiKeyError, KeychainUnavailableError, keychainAdvice } from './errors';

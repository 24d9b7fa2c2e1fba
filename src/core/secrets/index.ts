export { KEYCHAIN_SERVICE, type SecretStore } from './secret-store';
export {
  KeytarSecretStore,
  type KeytarApi,
  type KeytarSecretStoreOptions,
} from './keytar-secret-store';
export { InvalidApiKeyError, KeychainUnavailableError, keychainAdvice } from './errors';
export { redactKeys, REDACTED } from './redact';

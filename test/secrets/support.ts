import { randomBytes } from '../support/random';
import { SANDBOX_KEY_PREFIX } from '../../src/shared/api/api-key';

/** A key of the documented shape: prefix, underscore, 43 URL-safe characters. */
export function fakeApiKey(): string {
  return `${SANDBOX_KEY_PREFIX}_${randomBytes(32).toString('base64url').slice(0, 43)}`;
}

/** A server address used by one test only, so runs never see each other's entries. */
export function uniqueServerUrl(): string {
  return `https://test-${randomBytes(4).toString('hex')}.example.org`;
}

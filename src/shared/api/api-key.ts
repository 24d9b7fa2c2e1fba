/**
 * API keys are `<KEY_PREFIX>_` followed by 43 characters (part 5 of the API document). The real
 * service's prefix is not published, so the client accepts any short alphanumeric prefix; the
 * sandbox issues keys with SANDBOX_KEY_PREFIX.
 */
export const SANDBOX_KEY_PREFIX = 'sbx';

export const API_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9]{0,15}_[A-Za-z0-9_-]{43}$/;

export function isApiKeyShape(candidate: string): boolean {
  return API_KEY_PATTERN.test(candidate);
}

/** The part of a key that may be shown to a person (the API's own `hint` is the first eight characters). */
export function keyHint(key: string): string {
  return key.slice(0, 8);
}

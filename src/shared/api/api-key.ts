/**
 * API keys are `<KEY_PREFIX>_` followed by 43 characters (part 5 of docs/researcher-api.md). That
 * is all the client checks before a request: the real service's prefix is not published (it may
 * be long, start with a digit or hold `_` itself, like `sk_live_`), so any prefix of visible ASCII
 * passes, and the server judges the rest. The sandbox issues keys with SANDBOX_KEY_PREFIX.
 */
export const SANDBOX_KEY_PREFIX = 'sbx';

/** Visible ASCII only: the key travels in an `Authorization` header. */
export const API_KEY_PATTERN = /^[!-~]+_[!-~]{43}$/;

export function isApiKeyShape(candidate: string): boolean {
  return API_KEY_PATTERN.test(candidate);
}

/** Keys the sandbox made: its own prefix and alphabet (it tells them from session tokens so). */
const SANDBOX_KEY_PATTERN = new RegExp(`^${SANDBOX_KEY_PREFIX}_[A-Za-z0-9_-]{43}$`);

export function isSandboxKeyShape(candidate: string): boolean {
  return SANDBOX_KEY_PATTERN.test(candidate);
}

/** The part of a key that may be shown to a person (the API's own `hint` is the first eight characters). */
export function keyHint(key: string): string {
  return key.slice(0, 8);
}

/**
 * Anything shaped like an API key inside a longer text (an error message, a log line, a bundle),
 * as a new global RegExp each call (a shared `g` pattern keeps `lastIndex` between texts): a
 * letter-led prefix, which may hold `_` itself (`sk_live_`), then `_` and exactly 43 characters,
 * standing alone (a digest after `file_` is longer, and stays). The exact known key is always
 * removed as well, whatever its shape.
 */
export function apiKeysInText(): RegExp {
  return /(?<![A-Za-z0-9_-])[A-Za-z][A-Za-z0-9_]{0,23}_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
}

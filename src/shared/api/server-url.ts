import { redactKeys } from './redact';
import { ENGINE_CODES } from '../errors/error-data';

/**
 * The one rule for a server address, used where it is typed (the first-run form, which checks it
 * before anything is sent), where it becomes a keychain account and where requests are built.
 * Returns the person-facing problem, or null when the address is usable.
 */
export function serverUrlProblem(serverUrl: string): string | null {
  const text = serverUrl.trim();
  if (!text) return 'Enter the address of the server, e.g. https://example.com.';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Use an http:// or https:// address.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return 'Use an http:// or https:// address.';
  }
  // Credentials in a URL would end up in the keychain account name and in logs.
  if (url.username || url.password) return 'Leave the user name and password out of the address.';
  return null;
}

/**
 * One spelling per server, so the keychain account, the budget and the base URL agree:
 * lower-case scheme and host (URL does that), no default port, no query or fragment,
 * no trailing slash. A base URL with a path (a reverse proxy prefix) keeps that path.
 */
export function normalizeServerUrl(serverUrl: string): string {
  const problem = serverUrlProblem(serverUrl);
  if (problem !== null) {
    const url = URL.canParse(serverUrl.trim()) ? new URL(serverUrl.trim()) : null;
    throw new InvalidServerUrlError(url && (url.username || url.password) ? null : serverUrl);
  }
  const url = new URL(serverUrl.trim());
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

export class InvalidServerUrlError extends Error {
  override readonly name = 'InvalidServerUrlError';
  readonly code = ENGINE_CODES.signInFailed;
  readonly field = 'serverUrl';
  /** `null` for an address holding credentials: it is not repeated at all. */
  constructor(serverUrl: string | null) {
    // A key pasted into the address field must not be echoed back into a log.
    const shown = serverUrl === null ? '(a URL with credentials)' : redactKeys(serverUrl);
    super(`Not a usable server address (http or https URL expected): ${shown}`);
  }
}

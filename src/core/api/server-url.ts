import { redactKeys } from '../secrets/redact';

/**
 * One spelling per server, so the keychain account, the budget and the base URL agree:
 * lower-case scheme and host (URL does that), no default port, no query or fragment,
 * no trailing slash. A base URL with a path (a reverse proxy prefix) keeps that path.
 */
export function normalizeServerUrl(serverUrl: string): string {
  let url: URL;
  try {
    url = new URL(serverUrl.trim());
  } catch {
    throw new InvalidServerUrlError(serverUrl);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new InvalidServerUrlError(serverUrl);
  }
  if (url.username || url.password) {
    // Credentials in a URL would end up in the keychain account name and in logs.
    throw new InvalidServerUrlError('(a URL with credentials)');
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

export class InvalidServerUrlError extends Error {
  override readonly name = 'InvalidServerUrlError';
  constructor(serverUrl: string) {
    // A key pasted into the address field must not be echoed back into a log.
    const shown = redactKeys(serverUrl);
    super(`Not a usable server address (http or https URL expected): ${shown}`);
  }
}

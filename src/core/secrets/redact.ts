/** Anything shaped like an API key (prefix, underscore, 43 characters), anywhere in a text. */
const KEY_LIKE = /[A-Za-z][A-Za-z0-9]{0,15}_[A-Za-z0-9_-]{43}/g;

export const REDACTED = '[redacted]';

/**
 * Removes API keys from a text that is about to become an error message or a log line: the known
 * secrets exactly, and anything key-shaped in case a server or library echoed one back.
 */
export function redactKeys(text: string, ...secrets: (string | null | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join(REDACTED);
  }
  return out.replace(KEY_LIKE, REDACTED);
}

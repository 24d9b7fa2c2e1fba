import { apiKeysInText } from './api-key';

/** What stands where a key was, in error messages, logs and the database. */
export const REDACTED = '[redacted]';

/** `Bearer <value>`: the scheme word stays readable, the value goes. */
const BEARER_VALUE = /\b(Bearer)\s+[^\s"',;]+/gi;

/**
 * Removes API keys from a text that is about to become an error message, a log line or a row of
 * the database: the known secrets exactly, bearer values, and anything key-shaped in case a server
 * or library echoed one back.
 */
export function redactKeys(text: string, ...secrets: (string | null | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join(REDACTED);
  }
  return out.replace(BEARER_VALUE, `$1 ${REDACTED}`).replace(apiKeysInText(), REDACTED);
}

/** JSON text of `value` with every key-shaped string scrubbed (what the store persists). */
export function redactedJson(value: unknown): string {
  return redactKeys(JSON.stringify(value) ?? 'null');
}

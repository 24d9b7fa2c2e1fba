/**
 * Free-form text the store persists (outbox errors, sync state) may come from error objects that
 * quoted a request. An API key must never reach the database, so such text is scrubbed first.
 */
const apiKeyLike =
  /(?<![A-Za-z0-9_-])[A-Za-z][A-Za-z0-9]{0,15}_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
const bearerHeader = /\b(Bearer)\s+[^\s"',;]+/gi;

export const REDACTED = '[redacted]';

export function redactSecrets(text: string): string {
  return text.replace(bearerHeader, `$1 ${REDACTED}`).replace(apiKeyLike, REDACTED);
}

/** JSON text of `value` with every key-shaped string scrubbed. */
export function redactedJson(value: unknown): string {
  return redactSecrets(JSON.stringify(value) ?? 'null');
}

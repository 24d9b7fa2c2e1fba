import { apiKeysInText } from './api-key';

/** What stands where a key was, in error messages, logs and the database. */
export const REDACTED = '[redacted]';

/**
 * `Bearer <value>`: the scheme word stays readable, the value goes. The value is a token on the
 * same line (spaces or tabs after the word, never a line break: `Bearer\nUser-Agent:` keeps the
 * next header's name) that starts with 8 token characters (RFC 6750's b64token), so prose ("Bearer
 * Token Usage"), placeholders (`Bearer <token>`) and marks (`Bearer [REDACTED:jwt]`) stay; it runs
 * to whitespace, a quote, a comma or a semicolon.
 */
const BEARER_VALUE = /\b(Bearer)[ \t]+(?=[A-Za-z0-9._~+/-]{8})[^\s"',;]+/gi;

/**
 * Removes API keys from a text that is about to become an error message, a log line or a row of
 * the database: the known secrets exactly, bearer values, and anything key-shaped in case a server
 * or library echoed one back. A text, never a serialized one: over JSON text the patterns would
 * eat escapes (`\"`, `\n`) and leave JSON no parser reads; see `redactedValue`.
 */
export function redactKeys(text: string, ...secrets: (string | null | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join(REDACTED);
  }
  return out.replace(BEARER_VALUE, `$1 ${REDACTED}`).replace(apiKeysInText(), REDACTED);
}

/**
 * A copy of `value` with every string (and every property name) passed through `redactKeys`:
 * what to serialize. Only plain data (what JSON keeps) is walked; the rest is left to
 * `JSON.stringify` as it would be (an Error's enumerable fields, a Date's `toJSON`).
 */
export function redactedValue(value: unknown, ...secrets: (string | null | undefined)[]): unknown {
  const walk = (v: unknown, seen: Set<object>): unknown => {
    if (typeof v === 'string') return redactKeys(v, ...secrets);
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) throw new TypeError('Converting circular structure to JSON');
    const toJson = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJson === 'function') return walk(toJson.call(v), seen);
    seen.add(v);
    try {
      if (Array.isArray(v)) return v.map((item) => walk(item, seen));
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(v))
        out[redactKeys(key, ...secrets)] = walk(item, seen);
      return out;
    } finally {
      seen.delete(v);
    }
  };
  return walk(value, new Set());
}

/**
 * JSON text of `value` with every key-shaped string scrubbed (what the store persists): the values
 * are redacted, then serialized, so the text always parses back.
 */
export function redactedJson(value: unknown): string {
  return JSON.stringify(redactedValue(value)) ?? 'null';
}

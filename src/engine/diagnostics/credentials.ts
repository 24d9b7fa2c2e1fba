/**
 * The credential check of a diagnostics bundle before it is written: the signed-in researcher's
 * own key, exactly, and the shapes a credential takes in what the app logs or keeps (API keys of
 * this service, bearer and basic authorization values, cookies, JSON Web Tokens). Each is replaced
 * by `[REDACTED:<kind>]` and counted, so the bundle says what was removed without repeating it.
 */
import { apiKeysInText } from '@shared/api/api-key';
import { holdsRedactionMark, redactionMark } from '@shared/evidence/redaction-mark';

export interface CredentialCount {
  kind: string;
  count: number;
}

export interface CheckedText {
  text: string;
  removed: CredentialCount[];
}

const SHAPES: readonly { kind: string; pattern: RegExp; group?: number }[] = [
  // `<prefix>_<43 characters>`: this service's API keys (docs/researcher-api.md, part 5).
  { kind: 'api-key', pattern: apiKeysInText() },
  { kind: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g },
  {
    kind: 'authorization',
    pattern: /\b(?:Bearer|Basic|token)\s+([A-Za-z0-9._~+/=-]{8,})/gi,
    group: 1,
  },
  {
    kind: 'authorization',
    pattern: /\bauthorization["']?\s*[:=]\s*["']?([^\s"',;]{8,})/gi,
    group: 1,
  },
  { kind: 'cookie', pattern: /\b(?:set-)?cookie["']?\s*[:=]\s*["']?([^\n"']+)/gi, group: 1 },
];

/** Removes the given secrets exactly, then every credential shape; counts what it removed. */
export function removeCredentials(text: string, ownKeys: readonly string[]): CheckedText {
  const counts = new Map<string, number>();
  const count = (kind: string, n = 1): void => void counts.set(kind, (counts.get(kind) ?? 0) + n);
  let out = text;
  for (const key of ownKeys) {
    if (key.length < 8) continue; // never a real key; splitting on it would shred the text
    const parts = out.split(key);
    if (parts.length > 1) {
      count('own-api-key', parts.length - 1);
      out = parts.join(redactionMark('own-api-key'));
    }
  }
  for (const { kind, pattern, group } of SHAPES) {
    out = out.replace(pattern, (match: string, ...rest: unknown[]) => {
      if (holdsRedactionMark(match)) return match;
      const value = group === undefined ? match : rest[group - 1];
      if (typeof value !== 'string' || holdsRedactionMark(value)) return match;
      count(kind);
      return match.replace(value, redactionMark(kind));
    });
  }
  return {
    text: out,
    removed: [...counts]
      .map(([kind, n]) => ({ kind, count: n }))
      .sort((a, b) => a.kind.localeCompare(b.kind)),
  };
}

/** Small conversions between API values and SQLite columns, shared by the repositories. */

/** Epoch milliseconds of an API timestamp, for ordering: text order breaks on mixed precision. */
export function timeMs(iso: string | null | undefined): number {
  if (!iso) return 0;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : 0;
}

export function bit(value: boolean | null | undefined): 0 | 1 {
  return value ? 1 : 0;
}

export function parseJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

/** SQLite's `IN (@s0, @s1, ...)` needs one parameter per value; `namedValues` binds them. */
export function namedPlaceholders(name: string, count: number): string {
  return Array.from({ length: count }, (_, i) => `@${name}${i}`).join(', ');
}

export function namedValues<T>(name: string, values: readonly T[]): Record<string, T> {
  return Object.fromEntries(values.map((value, i) => [`${name}${i}`, value]));
}

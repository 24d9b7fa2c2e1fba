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

/** `next_attempt_at` → `nextAttemptAt`, as a type. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;
export type CamelCased<Row> = {
  [K in keyof Row as K extends string ? CamelCase<K> : K]: Row[K];
};

const camelNames = new Map<string, string>();
function camelName(column: string): string {
  let name = camelNames.get(column);
  if (name === undefined) {
    name = column.replace(/_([a-z0-9])/g, (_, next: string) => next.toUpperCase());
    camelNames.set(column, name);
  }
  return name;
}

/**
 * A row's columns under the names the app uses (`report_id` → `reportId`), values unchanged: the
 * repositories' mappers then write out only the columns that need decoding (JSON, 0/1).
 */
export function camelCased<Row extends object>(row: Row): CamelCased<Row> {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) out[camelName(column)] = value;
  return out as CamelCased<Row>;
}

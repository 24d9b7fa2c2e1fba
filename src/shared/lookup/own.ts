/**
 * The value a table holds under a key that came from outside (a link, the server, the user):
 * only the table's own entries count, so `constructor`, `__proto__` or `toString` name nothing
 * instead of something of `Object.prototype`.
 */
export function ownValue<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

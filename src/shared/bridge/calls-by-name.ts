/**
 * An object with one function per name, each making `invoke(name, args)` with its arguments as
 * they are: a call surface derived from a table of names, never written out call by call. `T` is
 * the surface's type, derived from the same table (src/shared/bridge/calls.ts).
 */
export function callsByName<T, Name extends string = string>(
  names: readonly Name[],
  invoke: (name: Name, args: unknown[]) => Promise<unknown>,
): T {
  return Object.fromEntries(
    names.map((name) => [name, (...args: unknown[]) => invoke(name, args)]),
  ) as T;
}

import {
  ENGINE_ROUTES,
  type BridgeCalls,
  type EngineGroup,
  type EngineRoutedName,
  type ForwardedCallName,
  type GroupOf,
} from '@shared/bridge/calls';
import type { AccountSession } from './session';

/**
 * The engine's calls, routed by the bridge's one table (src/shared/bridge/calls.ts): a call goes
 * straight to the object that answers it, the engine itself or `session[group]`, whose method
 * bears the call's name. No member of the engine only passes a call on.
 */

/** The engine's calls that are no bridge call: `open` restores the signed-in account at start. */
const OWN_ROUTES = { open: 'engine' } as const;
const ROUTES: Readonly<Record<string, EngineGroup>> = { ...ENGINE_ROUTES, ...OWN_ROUTES };

export type EngineCallName = EngineRoutedName | keyof typeof OWN_ROUTES;
export const ENGINE_CALLS = Object.keys(ROUTES) as readonly EngineCallName[];

/** What routing reads of the engine: its own calls, and the signed-in session. */
export interface Routable {
  /** Throws NotSignedInError when nobody is signed in. */
  readonly session: AccountSession;
}

type Method = (...args: unknown[]) => unknown;

/**
 * The function answering `name`, bound to its object, or null for a name that is no call.
 * Reading it opens nothing: a call to a group while signed out throws NotSignedInError here.
 */
export function routeOf(engine: Routable, name: string): Method | null {
  if (!Object.hasOwn(ROUTES, name)) return null;
  const group = ROUTES[name] ?? 'engine';
  const target: object =
    group === 'engine' ? engine : group === 'session' ? engine.session : engine.session[group];
  const method = (target as Record<string, unknown>)[name];
  if (typeof method !== 'function') throw new Error(`The engine cannot answer ${name}.`);
  return (method as Method).bind(target);
}

// ---- types derived from the table --------------------------------------------------------

type Promised<M> = M extends (...args: infer A) => infer R
  ? (...args: A) => Promise<Awaited<R>>
  : { error: 'the group has no method of the call name' };

type GroupTarget<G> = G extends 'session'
  ? AccountSession
  : G extends keyof AccountSession
    ? AccountSession[G]
    : never;

type SessionRoutedName = {
  [K in EngineRoutedName]: GroupOf<K> extends 'engine' ? never : K;
}[EngineRoutedName];

/** The calls the session's groups answer, as the engine process receives them. */
export type SessionCalls = {
  [K in SessionRoutedName]: K extends keyof GroupTarget<GroupOf<K>>
    ? Promised<GroupTarget<GroupOf<K>>[K]>
    : { error: 'the group has no method of the call name' };
};

/** Calls the engine answers itself, by name (see Engine). */
export type EngineOwnName = Exclude<EngineCallName, SessionRoutedName>;

/** Compile-time: a call the engine answers as the page made it means the same on both sides. */
export type SameMeaning<Calls extends Record<ForwardedCallName, unknown>> = {
  [K in ForwardedCallName]: Calls[K] extends BridgeCalls[K] ? true : K;
}[ForwardedCallName];

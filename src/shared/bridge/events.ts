import type { Connectivity, ErrorView, StatusView } from './views';

/** The engine runs in its own process; while main restarts it, calls wait or fail clearly. */
export type EngineState = 'starting' | 'ready' | 'restarting';

/** The menu items and shortcuts main handles by asking the UI to act. */
export type MenuCommand =
  'new-report' | 'sync-now' | 'resync-everything' | 'toggle-theme' | 'focus-search';

/** One event: who emits it (the engine, or main itself); `P` is its payload, a type only. */
interface EventSpec<P, From extends 'engine' | 'main'> {
  readonly from: From;
  readonly payload?: P;
}

const engine = <P>(): EventSpec<P, 'engine'> => ({ from: 'engine' });
const main = <P>(): EventSpec<P, 'main'> => ({ from: 'main' });

/**
 * Every event the UI hears, defined once with its payload and who emits it. Main forwards the
 * engine's as they are and adds its own; the preload lets the page listen to these only.
 */
export const EVENTS = {
  'report-changed': engine<{ reportId: string }>(),
  'needs-info': engine<{ reportId: string; title: string }>(),
  decision: engine<{ reportId: string; title: string; outcome: string }>(),
  'payout-changed': engine<{
    reportId: string;
    title: string;
    status: string;
    amountCents: number;
  }>(),
  connectivity: engine<{ state: Connectivity }>(),
  status: engine<StatusView>(),
  'upload-progress': engine<{
    reportId: string;
    fileId: string;
    sentBytes: number;
    size: number;
  }>(),
  /** The credential scan of a large evidence file, bytes read so far. */
  'scan-progress': engine<{
    reportId: string;
    fileId: string;
    name: string;
    doneBytes: number;
    size: number;
  }>(),
  'sync-error': engine<ErrorView>(),
  /** The user clicked a notification or a `bountydesk://report/<id>` link: show this report. */
  'open-report': main<{ reportId: string }>(),
  /** A `bountydesk://program/<id>` link: show this program. */
  'open-program': main<{ programId: string }>(),
  /** A menu item or shortcut handled by main asks the UI to act. */
  command: main<{ name: MenuCommand }>(),
  engine: main<{ state: EngineState }>(),
};

export type BridgeEventName = keyof typeof EVENTS;
export type BridgeEvents = {
  [E in BridgeEventName]: NonNullable<(typeof EVENTS)[E]['payload']>;
};

/** The events the engine emits (main adds its own). */
export type EngineEventName = {
  [E in BridgeEventName]: (typeof EVENTS)[E]['from'] extends 'engine' ? E : never;
}[BridgeEventName];

const names = Object.keys(EVENTS) as BridgeEventName[];

export const BRIDGE_EVENTS: readonly BridgeEventName[] = names;
export const ENGINE_EVENTS = names.filter(
  (name): name is EngineEventName => EVENTS[name].from === 'engine',
);

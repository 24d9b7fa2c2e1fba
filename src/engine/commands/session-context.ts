import type { KeyScope } from '@shared/api';
import type { Clock, ResearcherApi } from '../api';
import type { Store } from '../store';
import { ReadOnlyError } from './errors';
import type { EngineEvents } from '../events/engine-events';

/** What the session's command and view modules share: the account's API, mirror and outbox. */
export interface SessionContext {
  readonly api: ResearcherApi;
  readonly store: Store;
  readonly scope: KeyScope;
  readonly clock: Clock;
  readonly events: EngineEvents;
  /** Something was queued: the outbox worker looks now. */
  kick(): void;
  /** The status (unsent, needs action) changed without an event of its own. */
  emitStatus(): void;
}

/** Every write starts here: a read key makes the whole app read-only. */
export function requireWritable(ctx: SessionContext): void {
  if (ctx.scope !== 'write') throw new ReadOnlyError();
}

export const USER = { priority: 'user' } as const;

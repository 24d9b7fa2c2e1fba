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

/**
 * A local write changed this report (a draft saved, a submit queued): its row in the list, its
 * open view and the status bar's unsent count follow now, not once the queue has sent it, which
 * offline is never (the row kept its old title, and "Draft" after a submit). The session answers
 * the event with one status for a burst of them.
 */
export function reportWritten(ctx: SessionContext, reportId: string): void {
  ctx.events.emit('report-changed', { reportId });
}

export const USER = { priority: 'user' } as const;

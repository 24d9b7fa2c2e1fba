import { releaseAbandonedMessageFiles } from '../outbox';
import { EngineInputError } from './errors';
import type { SessionContext } from './session-context';

/** The user's hand on the queue: retry a parked change, or give it up. */
export class OutboxCommands {
  readonly #ctx: SessionContext;

  constructor(ctx: SessionContext) {
    this.#ctx = ctx;
  }

  retryEntry(entryId: number): void {
    this.#requireOpen(entryId);
    this.#ctx.store.outbox.unpark(entryId, this.#ctx.clock.now());
    this.#ctx.kick();
  }

  /** A discarded message's files are released with it: reused if sent again, else deleted. */
  discardEntry(entryId: number): void {
    const { store } = this.#ctx;
    this.#requireOpen(entryId);
    const released = store.db.transaction(() => {
      store.outbox.cancel(entryId);
      return releaseAbandonedMessageFiles(store);
    });
    if (released > 0) this.#ctx.kick();
    this.#ctx.emitStatus();
  }

  /** An id the queue does not hold (made up, or sent or discarded meanwhile) is an error. */
  #requireOpen(entryId: number): void {
    const entry = this.#ctx.store.outbox.get(entryId);
    if (!entry || entry.state === 'done') {
      throw new EngineInputError(
        'entry_id',
        `there is no unsent change #${entryId}: it was sent or discarded already`,
      );
    }
  }
}

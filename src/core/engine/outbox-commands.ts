import type { SessionContext } from './session-context';

/** The user's hand on the queue: retry a parked change, or give it up. */
export class OutboxCommands {
  readonly #ctx: SessionContext;

  constructor(ctx: SessionContext) {
    this.#ctx = ctx;
  }

  retryEntry(entryId: number): void {
    this.#ctx.store.outbox.unpark(entryId, this.#ctx.clock.now());
    this.#ctx.kick();
  }

  discardEntry(entryId: number): void {
    this.#ctx.store.outbox.cancel(entryId);
    this.#ctx.emitStatus();
  }
}

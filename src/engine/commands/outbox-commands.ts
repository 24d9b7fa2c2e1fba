import { releaseAbandonedMessageFiles } from '../outbox';
import { EngineInputError } from './errors';
import type { SessionContext } from './session-context';
import type { OutboxEntry } from '../store';

/** The user's hand on the queue: retry a parked change, or give it up. */
export class OutboxCommands {
  readonly #ctx: SessionContext;

  constructor(ctx: SessionContext) {
    this.#ctx = ctx;
  }

  retryEntry(entryId: number): void {
    const entry = this.#requireOpen(entryId);
    this.#ctx.store.outbox.unpark(entryId, this.#ctx.clock.now());
    this.#ctx.kick();
    this.#changed(entry);
  }

  /**
   * A discarded message's files are released with it: reused if sent again, else deleted. A reply
   * that answered a question and is discarded unsent leaves the question waiting again.
   */
  discardEntry(entryId: number): void {
    const { store } = this.#ctx;
    const entry = this.#requireOpen(entryId);
    const released = store.db.transaction(() => {
      store.outbox.cancel(entryId);
      if (entry.kind === 'post_message' && entry.reportId)
        reopenQuestion(this.#ctx, entry.reportId);
      return releaseAbandonedMessageFiles(store);
    });
    if (released > 0) this.#ctx.kick();
    this.#changed(entry);
  }

  /** The report's row says "Unsent" and "Needs your action" from the queue: the list reads it again. */
  #changed(entry: OutboxEntry): void {
    this.#ctx.emitStatus();
    if (entry.reportId) this.#ctx.events.emit('report-changed', { reportId: entry.reportId });
  }

  /** An id the queue does not hold (made up, or sent or discarded meanwhile) is an error. */
  #requireOpen(entryId: number): OutboxEntry {
    const entry = this.#ctx.store.outbox.get(entryId);
    if (!entry || entry.state === 'done') {
      throw new EngineInputError(
        'entry_id',
        `there is no unsent change #${entryId}: it was sent or discarded already`,
      );
    }
    return entry;
  }
}

/**
 * The question of a report in needs_info waits again unless another reply to it is still queued
 * or one of the researcher's messages since it was asked is in the thread (that one answered it).
 */
function reopenQuestion(ctx: SessionContext, reportId: string): void {
  const { store } = ctx;
  const report = store.reports.getReport(reportId);
  if (report?.status !== 'needs_info') return;
  const queued = store.outbox
    .list({ reportId })
    .some((e) => e.kind === 'post_message' && e.state !== 'done');
  if (queued) return;
  const askedMs = Date.parse(report.updated_at ?? '') || 0;
  const answered = store.messages
    .listThread(reportId)
    .some((m) => m.author === 'researcher' && Date.parse(m.at ?? '') >= askedMs);
  if (!answered) store.reports.markNeedsInfoUnanswered(reportId);
}

import { randomUUID } from 'node:crypto';
import { validateMessage } from '../domain/validate';
import { messageFingerprint } from '../store';
import { EngineInputError } from './errors';
import type { EvidenceCommands } from './evidence-commands';
import { requireWritable, type SessionContext } from './session-context';

/** A report's life after the draft: submit, withdraw, the thread with the triage team. */
export class TriageCommands {
  readonly #ctx: SessionContext;
  readonly #evidence: EvidenceCommands;

  constructor(ctx: SessionContext, evidence: EvidenceCommands) {
    this.#ctx = ctx;
    this.#evidence = evidence;
  }

  submit(reportId: string): void {
    requireWritable(this.#ctx);
    const { store } = this.#ctx;
    if (!store.drafts.get(reportId) && !store.reports.getReport(reportId)) {
      throw new EngineInputError('report_id', 'unknown report');
    }
    store.outbox.enqueue({ reportId, kind: 'submit', payload: {} });
    this.#ctx.kick();
  }

  withdraw(reportId: string): void {
    requireWritable(this.#ctx);
    this.#ctx.store.outbox.enqueue({ reportId, kind: 'withdraw', payload: {} });
    this.#ctx.kick();
  }

  /** Files are uploaded as message evidence first; the message waits for them in the queue. */
  async postMessage(reportId: string, input: { body: string; filePaths: string[] }): Promise<void> {
    requireWritable(this.#ctx);
    const evidence = await this.#evidence.attachFiles(
      reportId,
      input.filePaths.map((path) => ({ path })),
      'message',
    );
    const files = evidence.map((e) => e.fileId);
    const first = validateMessage({ body: input.body, files })[0];
    if (first) throw new EngineInputError(first.field, first.message);
    this.#ctx.store.outbox.enqueue({
      reportId,
      kind: 'post_message',
      payload: { body: input.body, files },
      localId: randomUUID(),
      bodyHash: messageFingerprint(input.body, files),
    });
    this.#ctx.kick();
  }

  /** The researcher opened the report's thread: its question no longer needs their attention. */
  markThreadRead(reportId: string): void {
    this.#ctx.store.reports.markNeedsInfoSeen(reportId);
    this.#ctx.events.emit('report-changed', { reportId });
  }
}

import { randomUUID } from 'node:crypto';
import { isTerminalStatus, LIMITS } from '@shared/api';
import { validateMessage } from '../domain/validate';
import { reuseMessageFile } from '../outbox';
import { messageFingerprint, type Store } from '../store';
import { markThreadSeen } from '../sync';
import { EngineInputError } from './errors';
import { takeFiles, uploadPayload, type IncomingFile } from './incoming-files';
import { reportWritten, requireWritable, type SessionContext } from './session-context';

/** A report's life after the draft: submit, withdraw, the thread with the triage team. */
export class TriageCommands {
  readonly #ctx: SessionContext;

  constructor(ctx: SessionContext) {
    this.#ctx = ctx;
  }

  submit(reportId: string): void {
    requireWritable(this.#ctx);
    const { store } = this.#ctx;
    if (!store.drafts.get(reportId) && !store.reports.getReport(reportId)) {
      throw new EngineInputError('report_id', 'unknown report');
    }
    // A second submit while the first waits would send the report twice, the edits between
    // them as changes to a submitted report.
    const waiting = store.outbox.list({ reportId }).find((e) => e.kind === 'submit');
    if (waiting) {
      throw new EngineInputError(
        'report_id',
        waiting.state === 'parked'
          ? 'this report was submitted already and its submit waits in the unsent changes: retry or discard it there'
          : 'this report is being submitted already: it is sent when the server is reachable',
      );
    }
    store.outbox.enqueue({ reportId, kind: 'submit', payload: {} });
    this.#ctx.kick();
    reportWritten(this.#ctx, reportId);
  }

  withdraw(reportId: string): void {
    requireWritable(this.#ctx);
    this.#ctx.store.outbox.enqueue({ reportId, kind: 'withdraw', payload: {} });
    this.#ctx.kick();
    reportWritten(this.#ctx, reportId);
  }

  /**
   * Files are uploaded as message evidence first; the message waits for them in the queue. The
   * whole reply is checked before anything is kept (the report's state, the body, every file),
   * then its uploads and the message are queued in one transaction: a refused reply leaves
   * nothing to upload. A file with the content of one of our message files that no message
   * claims (a discarded reply's) is sent again instead of uploaded twice.
   */
  async postMessage(reportId: string, input: { body: string; filePaths: string[] }): Promise<void> {
    requireWritable(this.#ctx);
    const { store } = this.#ctx;
    requireOpenThread(store, reportId);
    // Only the number of files matters here; their ids are chosen once they are taken.
    const first = validateMessage({
      body: input.body,
      files: input.filePaths.map(() => randomUUID()),
    })[0];
    if (first) throw new EngineInputError(first.field, first.message);
    const incoming = await takeFiles(store, input.filePaths);
    store.db.transaction(() => {
      requireOpenThread(store, reportId);
      const reused = new Set<string>();
      const chosen = incoming.map((file) => {
        const again = reuseMessageFile(store, reportId, file, reused);
        if (again) reused.add(again.fileId);
        return { file, fileId: again?.fileId ?? null };
      });
      const uploads = chosen.filter((c) => c.fileId === null).length;
      const room = LIMITS.pendingMessageFiles - pendingMessageFileIds(store, reportId).size;
      if (uploads > room) {
        throw new EngineInputError(
          'files',
          `at most ${LIMITS.pendingMessageFiles} files can wait to be sent with a message; ` +
            `${Math.max(0, room)} more fit`,
        );
      }
      const files = chosen.map((c) => c.fileId ?? queueMessageFile(store, reportId, c.file));
      store.outbox.enqueue({
        reportId,
        kind: 'post_message',
        payload: { body: input.body, files },
        localId: randomUUID(),
        bodyHash: messageFingerprint(input.body, files),
      });
      // A reply answers the question (the server moves the report back to triage once it has it).
      store.reports.markNeedsInfoAnswered(reportId);
    });
    this.#ctx.kick();
    reportWritten(this.#ctx, reportId);
  }

  /**
   * The researcher opened the report's thread: its messages are read. A question stays waiting
   * until it is answered (postMessage), however often it is read.
   */
  markThreadRead(reportId: string): void {
    markThreadSeen(this.#ctx.store, reportId);
    reportWritten(this.#ctx, reportId);
  }
}

/**
 * Only a submitted report before its decision takes messages. A draft whose submit is queued
 * counts as submitted: the message goes out after the submit.
 */
function requireOpenThread(store: Store, reportId: string): void {
  const report = store.reports.getReport(reportId);
  const draft = store.drafts.get(reportId) !== null || report?.status === 'draft';
  if (!report && !draft) throw new EngineInputError('report_id', 'unknown report');
  if (draft) {
    const submitting = store.outbox
      .list({ reportId })
      .some((e) => e.kind === 'submit' && e.state !== 'parked');
    if (!submitting) {
      throw new EngineInputError('report_id', 'a draft takes no messages: submit it first');
    }
    return;
  }
  if (report && isTerminalStatus(report.status)) {
    throw new EngineInputError('report_id', `the report is ${report.status}: its thread is closed`);
  }
}

/** Message files waiting on the server or queued to go there (the server allows 10). */
function pendingMessageFileIds(store: Store, reportId: string): Set<string> {
  const attachments = store.reports.getReport(reportId)?.attachments ?? {};
  const ids = new Set(
    Object.entries(attachments)
      .filter(([, a]) => a.reply === true && !a.message_id)
      .map(([id]) => id),
  );
  for (const file of store.evidence.listForReport(reportId)) {
    if (file.purpose === 'message') ids.add(file.fileId);
  }
  return ids;
}

function queueMessageFile(store: Store, reportId: string, file: IncomingFile): string {
  const fileId = randomUUID();
  const evidence = store.evidence.link({ reportId, fileId, ...file, purpose: 'message' });
  store.outbox.enqueue({
    reportId,
    kind: 'upload_file',
    payload: uploadPayload(fileId, file, evidence),
  });
  return fileId;
}

import type { Message, Report } from '@shared/api';
import { isApiError } from '../api';
import { contentOf, sameContent } from '@shared/bridge/draft-content';
import type { OutboxEntry, OutboxKind } from '../store';
import { AGAIN, DONE, type OutboxContext, type Outcome } from './context';
import { acknowledgeReport, reconcileDraft, recordSent } from './reconcile';
import { markOf, postedSince } from './thread-mark';
import { sendableContent } from './sendable-content';

type Handler<K extends OutboxKind> = (
  ctx: OutboxContext,
  entry: OutboxEntry<K>,
  signal: AbortSignal,
) => Promise<Outcome>;

const OUTBOX = { priority: 'outbox' } as const;

/** The revision this client believes the server holds for a report. */
function knownRevision(ctx: OutboxContext, reportId: string): number {
  const draft = ctx.store.drafts.get(reportId);
  if (draft?.baseRevision != null) return draft.baseRevision;
  return ctx.store.reports.getReport(reportId)?.revision ?? 0;
}

function conflictCurrent(error: unknown): Report | null {
  if (isApiError(error) && error.code === 'revision_conflict' && error.current) {
    return error.current;
  }
  return null;
}

/**
 * Our revision was stale. Fold the server's state in; retry when nothing needs the user.
 * `needsDraft` writes (save, submit) cannot go on once the report left `draft`.
 */
function afterConflict(ctx: OutboxContext, current: Report, needsDraft: boolean): Outcome {
  const result = reconcileDraft(ctx.store, current);
  if (result.kind === 'conflict') {
    return {
      kind: 'park',
      error: {
        status: 409,
        code: 'merge_conflict',
        detail: conflictDetail(result.merge.conflicts.map((c) => c.field)),
      },
    };
  }
  if (result.kind === 'not-draft' && needsDraft) {
    return {
      kind: 'park',
      error: { status: 409, code: 'invalid_state', detail: `The report is now ${current.status}.` },
    };
  }
  return AGAIN;
}

function conflictDetail(fields: string[]): string {
  return `Both you and the server changed ${fields.join(', ')}: choose what to keep.`;
}

const saveReport: Handler<'save_report'> = async (ctx, entry, signal) => {
  const draft = ctx.store.drafts.get(entry.reportId);
  if (!draft) return DONE; // discarded locally before it was sent
  if (draft.conflict) {
    return {
      kind: 'park',
      error: {
        status: 409,
        code: 'merge_conflict',
        detail: conflictDetail(Object.keys(draft.conflict)),
      },
    };
  }
  const content = sendableContent(ctx.store, entry.reportId, contentOf(draft));
  const revision = draft.baseRevision ?? 0;
  if (draft.base && draft.baseRevision !== null && sameContent(draft.base, content)) return DONE;
  recordSent(ctx.store, entry.reportId, content, revision);
  try {
    await ctx.outgoing.checkDraft(entry.reportId, content);
    const report = await ctx.api.saveReport(
      entry.reportId,
      { program_id: draft.programId, ...content, revision },
      { ...OUTBOX, signal },
    );
    acknowledgeReport(ctx.store, report, content);
    return DONE;
  } catch (error) {
    const current = conflictCurrent(error);
    if (current) return afterConflict(ctx, current, true);
    throw error;
  }
};

/**
 * A draft file sent to a report that is no longer a draft would land as a pending message file
 * (what the server does with an upload after submission), a stray nobody sends: it waits for the
 * user instead.
 */
function notADraftAnyMore(status: string): Outcome {
  return {
    kind: 'park',
    error: {
      status: 409,
      code: 'invalid_state',
      detail: `The report is now ${status}; the file was not attached.`,
    },
  };
}

const uploadFile: Handler<'upload_file'> = async (ctx, entry, signal) => {
  const file = ctx.store.evidence.get(entry.payload.file_id);
  if (!file) return DONE; // removed locally before it was sent
  const report = ctx.store.reports.getReport(entry.reportId);
  // The file id is this client's own (a UUID it chose): no other writer can have made it ready.
  if (report?.attachments[file.fileId]?.state === 'ready') {
    ctx.store.evidence.setState(file.fileId, 'uploaded');
    return DONE;
  }
  if (file.purpose === 'report' && report && report.status !== 'draft') {
    return notADraftAnyMore(report.status);
  }
  ctx.store.evidence.setState(file.fileId, 'uploading');
  let lastEmit = 0;
  try {
    await ctx.outgoing.checkFile(entry.reportId, file.fileId);
    const updated = await ctx.api.uploadFile(
      entry.reportId,
      file.fileId,
      {
        path: ctx.store.evidence.blobPath(file.sha256),
        name: file.name,
        contentType: file.contentType,
        revision: knownRevision(ctx, entry.reportId),
        onProgress: (sentBytes, size) => {
          const now = Date.now();
          if (sentBytes < size && now - lastEmit < 100) return;
          lastEmit = now;
          ctx.store.evidence.setProgress(file.fileId, sentBytes);
          ctx.events.emit('upload-progress', {
            reportId: entry.reportId,
            fileId: file.fileId,
            sentBytes,
            size,
          });
        },
      },
      { ...OUTBOX, signal },
    );
    ctx.store.db.transaction(() => {
      acknowledgeReport(ctx.store, updated);
      ctx.store.evidence.setState(file.fileId, 'uploaded');
    });
    return DONE;
  } catch (error) {
    // The next try sends the file from its first byte: what this one sent is no progress.
    ctx.store.evidence.setProgress(file.fileId, 0);
    const current = conflictCurrent(error);
    if (current) {
      ctx.store.evidence.setState(file.fileId, 'queued');
      // An upload overwrites no content: after folding the server's state in, resend.
      reconcileDraft(ctx.store, current);
      if (file.purpose === 'report' && current.status !== 'draft') {
        return notADraftAnyMore(current.status);
      }
      return AGAIN;
    }
    ctx.store.evidence.setState(
      file.fileId,
      isApiError(error) && error.kind === 'http' && error.status < 500 && error.status !== 429
        ? 'failed'
        : 'queued',
    );
    throw error;
  }
};

/**
 * The mirror may not know the file (an upload whose answer was lost), so the DELETE is always
 * sent: 404 means the goal (no such file) already holds.
 */
const removeFile: Handler<'remove_file'> = async (ctx, entry, signal) => {
  const fileId = entry.payload.file_id;
  try {
    const updated = await ctx.api.deleteFile(
      entry.reportId,
      fileId,
      knownRevision(ctx, entry.reportId),
      {
        ...OUTBOX,
        signal,
      },
    );
    ctx.store.db.transaction(() => {
      acknowledgeReport(ctx.store, updated);
      ctx.store.evidence.remove(fileId);
    });
    return DONE;
  } catch (error) {
    const current = conflictCurrent(error);
    if (current) {
      reconcileDraft(ctx.store, current);
      return AGAIN;
    }
    if (isApiError(error) && error.code === 'not_found') {
      ctx.store.evidence.remove(fileId);
      return DONE;
    }
    if (isApiError(error) && error.code === 'invalid_state' && isMessageFile(ctx, entry)) {
      // A message file that was sent after all, or whose report is closed: it can no longer
      // change, and it no longer counts as pending. Nothing a retry could do.
      ctx.store.evidence.remove(fileId);
      return DONE;
    }
    throw error;
  }
};

function isMessageFile(ctx: OutboxContext, entry: OutboxEntry<'remove_file'>): boolean {
  const fileId = entry.payload.file_id;
  if (ctx.store.evidence.get(fileId)?.purpose === 'message') return true;
  return ctx.store.reports.getReport(entry.reportId)?.attachments[fileId]?.reply === true;
}

const submit: Handler<'submit'> = async (ctx, entry, signal) => {
  try {
    const report = await ctx.api.submitReport(entry.reportId, knownRevision(ctx, entry.reportId), {
      ...OUTBOX,
      signal,
    });
    acknowledgeReport(ctx.store, report);
    ctx.requestSync();
    return DONE;
  } catch (error) {
    const current = conflictCurrent(error);
    if (!current) throw error;
    if (current.submission) {
      // An earlier attempt went through and its answer was lost.
      acknowledgeReport(ctx.store, current);
      return DONE;
    }
    const result = reconcileDraft(ctx.store, current);
    if (result.kind === 'clean') {
      const draft = ctx.store.drafts.get(entry.reportId);
      // Submit only what the user saw: if our side still differs, it must be saved first.
      if (draft && draft.base && sameContent(draft.base, contentOf(draft))) return AGAIN;
    }
    return {
      kind: 'park',
      error: {
        status: 409,
        code: 'revision_conflict',
        detail: 'The report changed elsewhere. Review the merged draft, then submit again.',
      },
    };
  }
};

const withdraw: Handler<'withdraw'> = async (ctx, entry, signal) => {
  const report = await ctx.api.withdrawReport(entry.reportId, { ...OUTBOX, signal });
  acknowledgeReport(ctx.store, report);
  return DONE;
};

/**
 * Posting is not idempotent, and the website or another device may post the very same text. So
 * every attempt reads the thread first. After an attempt whose outcome is unknown (no answer, a
 * 500, a crash), only a researcher message with this body and these files posted after the point
 * recorded before that attempt can be it: an older one is someone else's. If there is none, the
 * point moves to the end of the thread just read, durably, and the message is sent.
 */
const postMessage: Handler<'post_message'> = async (ctx, entry, signal) => {
  const { body, files, threadMark } = entry.payload;
  const thread = await ctx.api.listMessages(entry.reportId, { ...OUTBOX, signal });
  if (threadMark && postedSince(thread.messages, threadMark, body, files)) {
    messageDelivered(ctx, entry, null, thread.messages);
    return DONE;
  }
  ctx.store.outbox.setPayload<'post_message'>(entry.id, {
    body,
    files,
    threadMark: markOf(thread.messages),
  });
  await ctx.outgoing.checkMessage(entry.reportId, body);
  const report = await ctx.api.postMessage(entry.reportId, { body, files }, { ...OUTBOX, signal });
  // The answer is the report; the thread (with our message and its files) is one more read.
  const after = await ctx.api.listMessages(entry.reportId, { ...OUTBOX, signal }).catch(() => null);
  messageDelivered(ctx, entry, report, after?.messages ?? null);
  ctx.requestSync();
  return DONE;
};

/** The message is on the server: mirror it; its files are sent and no longer local evidence. */
function messageDelivered(
  ctx: OutboxContext,
  entry: OutboxEntry<'post_message'>,
  report: Report | null,
  thread: Message[] | null,
): void {
  ctx.store.db.transaction(() => {
    if (report) ctx.store.reports.upsertReports([report]);
    // A mirror rebuilt after damage may not hold the report yet (the journal keeps only unsent
    // work): its thread comes with it from the sync, never in the way of marking this one sent.
    if (thread && ctx.store.reports.getStoredRow(entry.reportId)) {
      ctx.store.messages.replaceThread(entry.reportId, thread);
    }
    for (const fileId of entry.payload.files) ctx.store.evidence.remove(fileId);
  });
}

export const HANDLERS: { [K in OutboxKind]: Handler<K> } = {
  save_report: saveReport,
  upload_file: uploadFile,
  remove_file: removeFile,
  submit,
  withdraw,
  post_message: postMessage,
};

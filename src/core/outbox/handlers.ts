import type { Report } from '../../shared/api';
import { isApiError } from '../api';
import { contentOf, sameContent } from '../../shared/bridge/draft-content';
import type { DraftContent } from '../../shared/bridge/views';
import { findFileLinks, removeFileLinks } from '../../shared/rules';
import { messageFingerprint, type OutboxEntry, type OutboxKind } from '../store';
import { AGAIN, DONE, type OutboxContext, type Outcome } from './context';
import { acknowledgeReport, reconcileDraft, recordSent } from './reconcile';

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
  const content = sendableContent(ctx, entry.reportId, contentOf(draft));
  const revision = draft.baseRevision ?? 0;
  if (draft.base && draft.baseRevision !== null && sameContent(draft.base, content)) return DONE;
  recordSent(ctx.store, entry.reportId, content);
  try {
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
 * The draft as it may be sent now: a link to a file that is not a ready file on the server yet is
 * sent as plain text, and the save queued after that file's upload sends the link. So no save
 * ever links a file before it is ready, however the queue was coalesced.
 */
function sendableContent(
  ctx: OutboxContext,
  reportId: string,
  content: DraftContent,
): DraftContent {
  const attachments = ctx.store.reports.getReport(reportId)?.attachments ?? {};
  let description = content.description;
  const pending = new Set(
    findFileLinks(description)
      .filter((link) => link.reportId !== reportId || attachments[link.fileId]?.state !== 'ready')
      .map((link) => link.fileId),
  );
  for (const fileId of pending) description = removeFileLinks(description, fileId);
  return { ...content, description };
}

const uploadFile: Handler<'upload_file'> = async (ctx, entry, signal) => {
  const file = ctx.store.evidence.get(entry.payload.file_id);
  if (!file) return DONE; // removed locally before it was sent
  const report = ctx.store.reports.getReport(entry.reportId);
  if (report?.attachments[file.fileId]?.state === 'ready') {
    ctx.store.evidence.setState(file.fileId, 'uploaded');
    return DONE;
  }
  ctx.store.evidence.setState(file.fileId, 'uploading');
  let lastEmit = 0;
  try {
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
    const current = conflictCurrent(error);
    if (current) {
      ctx.store.evidence.setState(file.fileId, 'queued');
      // An upload overwrites no content: after folding the server's state in, resend.
      reconcileDraft(ctx.store, current);
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
    throw error;
  }
};

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
 * Posting is not idempotent. Before any resend (an earlier attempt may have reached the server
 * without us hearing back), read the thread and count this content's messages against the
 * entries already known to be delivered.
 */
const postMessage: Handler<'post_message'> = async (ctx, entry, signal) => {
  const fingerprint = entry.bodyHash ?? messageFingerprint(entry.payload.body, entry.payload.files);
  if (entry.attempts > 1) {
    const thread = await ctx.api.listMessages(entry.reportId, { ...OUTBOX, signal });
    ctx.store.messages.replaceThread(entry.reportId, thread.messages);
    const delivered = thread.messages.filter(
      (m) =>
        m.author === 'researcher' &&
        messageFingerprint(
          m.body,
          m.attachments.map((a) => a.id),
        ) === fingerprint,
    ).length;
    const claimed = ctx.store.outbox
      .list({ reportId: entry.reportId, includeDone: true })
      .filter(
        (e) => e.kind === 'post_message' && e.state === 'done' && e.bodyHash === fingerprint,
      ).length;
    if (delivered > claimed) return DONE;
  }
  const report = await ctx.api.postMessage(
    entry.reportId,
    { body: entry.payload.body, files: entry.payload.files },
    { ...OUTBOX, signal },
  );
  // The answer is the report; the thread (with our message and its files) is one more read.
  const thread = await ctx.api
    .listMessages(entry.reportId, { ...OUTBOX, signal })
    .catch(() => null);
  ctx.store.db.transaction(() => {
    ctx.store.reports.upsertReports([report]);
    if (thread) ctx.store.messages.replaceThread(entry.reportId, thread.messages);
    for (const fileId of entry.payload.files) ctx.store.evidence.remove(fileId);
  });
  ctx.requestSync();
  return DONE;
};

export const HANDLERS: { [K in OutboxKind]: Handler<K> } = {
  save_report: saveReport,
  upload_file: uploadFile,
  remove_file: removeFile,
  submit,
  withdraw,
  post_message: postMessage,
};

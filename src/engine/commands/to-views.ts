import type {
  DraftView,
  ErrorView,
  EvidenceView,
  OutboxEntryView,
  ReportListItemView,
} from '@shared/bridge/views';
import { contentOf, DRAFT_FIELDS } from '@shared/bridge/draft-content';
import { validateReportInput } from '../domain/validate';
import type { Draft, EvidenceFile, OutboxEntry, ReportListRow } from '../store';
import { describeError } from '@shared/errors/describe-error';

/** Mirror rows → what the renderer shows. Pure mapping, no I/O. */

export function toDraftView(
  draft: Draft,
  send: Pick<DraftView, 'unsent' | 'notOnServer'>,
  policyVersionAtStart: number | null = null,
): DraftView {
  const content = contentOf(draft);
  return {
    reportId: draft.reportId,
    programId: draft.programId,
    content,
    baseRevision: draft.baseRevision,
    conflicts: DRAFT_FIELDS.flatMap((field) => {
      const sides = draft.conflict?.[field];
      return sides ? [{ field, ...sides }] : [];
    }),
    ...send,
    issues: validateReportInput({ program_id: draft.programId, ...content, revision: 0 }),
    policyVersionAtStart,
  };
}

export function toEvidenceView(file: EvidenceFile): EvidenceView {
  return {
    fileId: file.fileId,
    name: file.name,
    size: file.size,
    contentType: file.contentType,
    sha256: file.sha256,
    state: file.state,
    sentBytes: file.state === 'uploaded' ? file.size : file.uploadedBytes,
    forMessage: file.purpose === 'message',
  };
}

/**
 * An outbox entry's stored error, as the UI shows it: any record with a code (status 0 when it
 * has none: a check that refused before sending, or a record an older version wrote).
 */
export function outboxErrorView(error: unknown): ErrorView | null {
  if (!error || typeof error !== 'object') return null;
  const e = error as { status?: number; code?: string; detail?: string; requestId?: string };
  if (typeof e.code !== 'string') return null;
  return describeError({
    status: e.status ?? 0,
    code: e.code,
    ...(e.detail ? { detail: e.detail } : {}),
    ...(e.requestId ? { requestId: e.requestId } : {}),
  });
}

/**
 * An error a request, the sync or a download threw, as the UI shows it: only one that carries an
 * API status and code (an ApiError); anything else (a disk or SQLite failure) is no API error.
 */
export function apiErrorView(error: unknown): ErrorView | null {
  if (error && typeof error === 'object' && 'code' in error && 'status' in error) {
    const e = error as { status: number; code: string; detail?: string; requestId?: string };
    return describeError(e);
  }
  return null;
}

export function toOutboxView(entry: OutboxEntry): OutboxEntryView {
  return {
    id: entry.id,
    reportId: entry.reportId,
    kind: entry.kind,
    state: entry.state,
    attempts: entry.attempts,
    error: outboxErrorView(entry.lastError),
  };
}

export function toListItemView(row: ReportListRow): ReportListItemView {
  return {
    id: row.id,
    programId: row.program_id,
    programName: row.program_name,
    status: row.status,
    displayStatus: row.display_status,
    // The list row carries the local draft's title: what the user expects to see.
    title: row.title,
    updatedAt: row.updated_at,
    unsent: row.unsent,
    conflict: row.conflict,
    needsAction: row.parked || row.needs_info_unseen,
    queuedAction: row.queued_action,
    severity: row.severity_score,
  };
}

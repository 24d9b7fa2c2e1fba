import { contentOf } from '../../shared/bridge/draft-content';
import type { Draft, EnqueueInput, Store } from '../store';

/**
 * A draft made elsewhere (the website, another device) as this client's merge base, without
 * writing anything: the report views show it as an editable draft.
 */
export function serverDraft(store: Store, reportId: string): Draft | null {
  const report = store.reports.getReport(reportId);
  if (!report || report.status !== 'draft') return null;
  const content = contentOf(report);
  return {
    reportId,
    programId: report.program_id,
    ...content,
    base: content,
    baseRevision: report.revision,
    conflict: null,
    localOnly: false,
    updatedAt: report.updated_at ?? new Date(0).toISOString(),
  };
}

/** The local draft, created from the mirror on the first edit of a draft made elsewhere. */
export function adoptDraft(store: Store, reportId: string): Draft | null {
  const local = store.drafts.get(reportId);
  if (local) return local;
  const server = serverDraft(store, reportId);
  if (!server) return null;
  return store.db.transaction(() => {
    store.drafts.setContent(reportId, server.programId, contentOf(server));
    store.drafts.acknowledge(reportId, contentOf(server), server.baseRevision ?? 0);
    return store.drafts.get(reportId);
  });
}

/**
 * Queues a change of a draft's content or files. A parked submit (it waits for the user to fix
 * its cause, e.g. incomplete_report) would otherwise hold the fix behind it in the report's
 * queue, so the submit moves behind the new entry, still parked with its error: retrying it
 * then submits the fixed draft.
 */
export function queueDraftChange<K extends 'save_report' | 'upload_file' | 'remove_file'>(
  store: Store,
  input: EnqueueInput<K>,
): void {
  store.db.transaction(() => {
    const parked = store.outbox
      .list({ reportId: input.reportId })
      .filter((e) => e.kind === 'submit' && e.state === 'parked');
    for (const entry of parked) store.outbox.cancel(entry.id);
    store.outbox.enqueue(input);
    for (const entry of parked) {
      const again = store.outbox.enqueue({ reportId: input.reportId, kind: 'submit', payload: {} });
      store.outbox.park(again.id, entry.lastError);
    }
  });
}

/** Queues the PUT of a report's local draft (coalesced with a pending one). */
export function queueSave(store: Store, reportId: string): void {
  queueDraftChange(store, { reportId, kind: 'save_report', payload: {} });
}

import { contentOf } from '@shared/bridge/draft-content';
import type { DraftView } from '@shared/bridge/views';
import { serverHasDraft } from '../outbox';
import type { Draft, EnqueueInput, Store } from '../store';

/** Where the draft's content stands with the server: queued, or kept here and not sent. */
export function draftSendState(
  store: Store,
  draft: Draft,
): Pick<DraftView, 'unsent' | 'notOnServer'> {
  const unsent = store.outbox.countUnsent(draft.reportId) > 0;
  return { unsent, notOnServer: !unsent && !serverHasDraft(store, draft) };
}

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

const policyKey = (reportId: string): string => `draft_policy_version.${reportId}`;

/** Keeps the program's policy version as the draft starts here (first one kept). */
export function rememberPolicyVersion(store: Store, reportId: string, programId: string): void {
  if (store.syncState.get<number>(policyKey(reportId)) !== null) return;
  const version = store.programs.getSummary(programId)?.policy_version;
  if (typeof version === 'number') store.syncState.set(policyKey(reportId), version);
}

/** The program's policy version when the draft was started here, if known. */
export function policyVersionAtStart(store: Store, reportId: string): number | null {
  return store.syncState.get<number>(policyKey(reportId));
}

/** The local draft, created from the mirror on the first edit of a draft made elsewhere. */
export function adoptDraft(store: Store, reportId: string): Draft | null {
  const local = store.drafts.get(reportId);
  if (local) return local;
  const server = serverDraft(store, reportId);
  if (!server) return null;
  return store.db.transaction(() => {
    rememberPolicyVersion(store, reportId, server.programId);
    store.drafts.setContent(reportId, server.programId, contentOf(server));
    store.drafts.acknowledge(reportId, contentOf(server), server.baseRevision ?? 0);
    return store.drafts.get(reportId);
  });
}

/**
 * Queues a change of a draft's content or files. The researcher changing the draft is the
 * answer to a change the server refused, so what is parked goes again without a manual Retry:
 * a parked save is replaced by the new one (a save sends the draft as it is now), a parked
 * upload or removal is retried. A parked submit (it waits for the user to fix its cause, e.g.
 * incomplete_report) would otherwise hold the fix behind it in the report's queue, so the submit
 * moves behind the new entry, still parked with its error: retrying it then submits the fixed
 * draft (submitting stays the researcher's decision).
 */
export function queueDraftChange<K extends 'save_report' | 'upload_file' | 'remove_file'>(
  store: Store,
  input: EnqueueInput<K>,
): void {
  store.db.transaction(() => {
    const open = store.outbox.list({ reportId: input.reportId });
    for (const entry of open) {
      if (entry.state !== 'parked' || entry.kind === 'submit') continue;
      if (entry.kind === 'save_report' && input.kind === 'save_report')
        store.outbox.cancel(entry.id);
      else if (entry.kind !== 'withdraw' && entry.kind !== 'post_message')
        store.outbox.unpark(entry.id);
    }
    const parked = open.filter((e) => e.kind === 'submit' && e.state === 'parked');
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

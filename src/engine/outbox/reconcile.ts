import type { Report } from '@shared/api';
import { contentOf, sameContent } from '@shared/bridge/draft-content';
import type { DraftContent } from '@shared/bridge/views';
import { conflictOf, mergeDraft, type MergeResult } from '../domain/merge';
import type { Draft, Store } from '../store';

export type ReconcileResult =
  | { kind: 'not-draft'; report: Report }
  | { kind: 'no-local-draft' }
  | { kind: 'clean'; merge: MergeResult }
  | { kind: 'conflict'; merge: MergeResult };

/**
 * The server holds `current`, newer than what this client acknowledged (409 revision_conflict, or
 * a poll). Folds it into the local draft with a three-way merge against the last acknowledged
 * content, in one transaction: `current` becomes the new base, the merged content the local one.
 * Conflicting fields keep the local text and are recorded for the user; nothing is sent for them.
 */
export function reconcileDraft(store: Store, current: Report): ReconcileResult {
  return store.db.transaction((): ReconcileResult => {
    store.reports.upsertReports([current]);
    const draft = store.drafts.get(current.id);
    if (!draft) return { kind: 'no-local-draft' };
    if (current.status !== 'draft') return { kind: 'not-draft', report: current };
    return foldIn(store, current, draft);
  });
}

/** `current` becomes the draft's base; what changed on the server since is merged into ours. */
function foldIn(store: Store, current: Report, draft: Draft): ReconcileResult {
  const theirs = contentOf(current);
  const ours = contentOf(draft);
  // The server may hold our own last save whose answer was lost (a dropped connection, a
  // crash). That is no foreign change: it becomes the base, and ours (which may have moved on
  // since) wins. Likewise a draft never acknowledged was created by this client.
  const ancestor = commonAncestor(
    sentSaves(store, current.id),
    draft.base,
    draft.baseRevision,
    theirs,
  );
  const merge = mergeDraft(ancestor, ours, theirs);
  // The server has moved past the revision every recorded save was sent with: none of them can
  // be carried out any more, so none may be taken for the server's content later on.
  store.syncState.delete(sentKey(current.id));
  store.drafts.acknowledge(current.id, theirs, current.revision);
  if (!sameContent(merge.merged, ours)) {
    store.drafts.setContent(current.id, draft.programId, merge.merged);
  }
  if (merge.conflicts.length === 0) {
    store.drafts.setConflict(current.id, null);
    return { kind: 'clean', merge };
  }
  // The common ancestor is kept with each field: the draft's base is `theirs` from now on, and
  // the conflict view must still show what both sides started from.
  store.drafts.setConflict(current.id, conflictOf(merge.conflicts));
  return { kind: 'conflict', merge };
}

/**
 * What ours and theirs both grew from. Usually the last acknowledged content; but the server may
 * hold a save of ours whose answer was lost (a dropped connection, a crash), alone or with another
 * writer's change made after it (the website's edit of another line). Such a save could only be
 * taken at the revision it was sent with, and it is in theirs when theirs already holds every
 * change it made: then it is the ancestor, and what the researcher typed since is merged on top of
 * it instead of conflicting with their own earlier words.
 */
function commonAncestor(
  saves: readonly SentSave[],
  base: DraftContent | null,
  baseRevision: number | null,
  theirs: DraftContent,
): DraftContent {
  if (!base) return theirs;
  for (const save of [...saves].reverse()) {
    if (save.revision !== (baseRevision ?? 0)) continue;
    if (sameContent(save.content, theirs)) return theirs;
    const landed = mergeDraft(base, save.content, theirs);
    if (landed.conflicts.length === 0 && sameContent(landed.merged, theirs)) return save.content;
  }
  return base;
}

const sentKey = (reportId: string): string => `outbox.sent.${reportId}`;

/** Saves sent without an answer since the last acknowledged write; a few are plenty. */
const SENT_KEPT = 8;

/** A save that left without an answer, with the revision it was sent with. */
interface SentSave {
  revision: number;
  content: DraftContent;
}

function sentSaves(store: Store, reportId: string): SentSave[] {
  return store.syncState.get<SentSave[]>(sentKey(reportId)) ?? [];
}

/**
 * Written (durably) just before a save goes out, so that after a lost answer or a crash the
 * reconcile recognises the server's content as our own write rather than someone else's. Every
 * unanswered save is kept (the user may type between the attempts), until one is acknowledged.
 * The revision narrows the match to what our save could have produced: the server takes a save
 * only at the revision it was sent with, so the server's content counts as ours only while the
 * draft's base is still that revision; another writer's identical content after that is theirs.
 */
export function recordSent(
  store: Store,
  reportId: string,
  content: DraftContent,
  revision: number,
): void {
  const sent = sentSaves(store, reportId);
  const save: SentSave = { revision, content: contentOf(content) };
  store.syncState.setAsWritten(sentKey(reportId), [...sent, save].slice(-SENT_KEPT));
}

/**
 * Drops the records of unanswered saves that nothing can need any more: a draft with no open
 * entry has no save in flight (a crash leaves its entry open), so no lost answer to reconcile.
 */
export function forgetIdleSentSaves(store: Store): void {
  store.db.transaction(() => {
    const busy = new Set(store.outbox.list().map((entry) => entry.reportId));
    for (const draft of store.drafts.list()) {
      if (!busy.has(draft.reportId)) store.syncState.delete(sentKey(draft.reportId));
    }
  });
}

/**
 * The server accepted a write: its report is mirrored and, for a draft, becomes the base. A save
 * answers with exactly the content sent. Any other write (a file uploaded or removed) answers with
 * the report as the server holds it now, which may carry another writer's edit: a repeated upload
 * is accepted at any revision. That content is merged into ours, as after a conflict; taken as
 * the base alone, the next save would undo the other writer's edit.
 */
export function acknowledgeReport(store: Store, report: Report, sent?: DraftContent): void {
  store.db.transaction(() => {
    store.reports.upsertReports([report]);
    const draft = store.drafts.get(report.id);
    if (!draft) {
      store.syncState.delete(sentKey(report.id));
      return;
    }
    if (report.status !== 'draft') {
      store.syncState.delete(sentKey(report.id));
      store.drafts.delete(report.id);
      return;
    }
    if (sent) {
      store.syncState.delete(sentKey(report.id));
      store.drafts.acknowledge(report.id, sent, report.revision);
      return;
    }
    foldIn(store, report, draft);
  });
}

/**
 * The researcher's inbox: what the triage side said that they have not read, and the reports
 * that wait for their answer (`needs_info`, until a reply is queued: reading the question does
 * not answer it). A thread counts as read only when the researcher opens it (`markThreadSeen`),
 * never because the app reloaded it in the background.
 *
 * "Read" is kept per report as the number of triage messages (agent or program team) the
 * researcher had when they last opened the thread, beside the number the thread holds now, both in
 * the mirror's `threads` (store/threads.ts: the counts are kept by triggers, and the unread threads
 * are indexed). A report mirrored for the first time counts as read (the first sync of an account
 * must not fill the inbox with its whole history), like the first-mirror rule of the
 * notifications.
 */
import type { InboxItem } from '@shared/bridge/views';
import type { Store } from '../store';

/** The researcher opened the report's thread: everything in it now is read. */
export function markThreadSeen(store: Store, reportId: string): void {
  store.threads.markRead(reportId);
}

/** The number of triage messages of a report's thread in the mirror. */
export function triageCount(store: Store, reportId: string): number {
  return store.threads.triage(reportId);
}

/**
 * Starts counting a report's thread, once: `known` is how many triage messages the mirror held
 * before this sync (null when the report is new to it: then its whole thread so far is history
 * and counts as read; a report this client sent knew no thread, so what comes is unread).
 */
export function startThreadCount(store: Store, reportId: string, known: number | null): void {
  if (store.threads.isCounted(reportId)) return;
  store.threads.start(reportId, known ?? store.threads.triage(reportId));
}

const computed = new WeakMap<Store, { version: number; items: InboxItem[] }>();

/**
 * Reports with unread triage messages or an unanswered `needs_info`, newest question first. Every
 * status the engine emits carries it, so it is computed again only when something it reads changed
 * (the store's `changes.inbox()` counter).
 */
export function inboxItems(store: Store): InboxItem[] {
  const version = store.changes.inbox();
  const known = computed.get(store);
  if (known?.version === version) return known.items;
  const items = computeInbox(store);
  computed.set(store, { version, items });
  return items;
}

function computeInbox(store: Store): InboxItem[] {
  const needsInfo = new Set(store.reports.listUnseenNeedsInfo());
  const unread = new Map(store.threads.unread().map((t) => [t.reportId, t.unread]));
  const items: InboxItem[] = [];
  for (const id of new Set([...needsInfo, ...unread.keys()])) {
    const row = store.reports.getStoredRow(id);
    if (!row) continue;
    items.push({
      reportId: id,
      title: row.title,
      unread: unread.get(id) ?? 0,
      needsInfo: needsInfo.has(id),
      updatedAt: row.updated_at,
    });
  }
  return items.sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''));
}

/**
 * The researcher's inbox: what the triage side said that they have not read, and the reports
 * that wait for their answer (`needs_info`). A thread counts as read only when the researcher
 * opens it (`markThreadSeen`), never because the app reloaded it in the background.
 *
 * "Read" is kept per report as the number of triage messages (agent or program team) the
 * researcher had when they last opened the thread, in the mirror's key-value state. A report
 * mirrored for the first time counts as read (the first sync of an account must not fill the
 * inbox with its whole history), like the first-mirror rule of the notifications.
 */
import type { InboxItem } from '../../shared/bridge/views';
import type { Store } from '../store';

const TRIAGE_AUTHORS = "('agent', 'founder')";

type Seen = Record<string, number>;

function triageCounts(store: Store, reportId?: string): Map<string, number> {
  const rows = store.db.sqlite
    .prepare<unknown[], { report_id: string; n: number }>(
      `SELECT report_id, COUNT(*) AS n FROM messages WHERE author IN ${TRIAGE_AUTHORS}
       ${reportId ? 'AND report_id = ?' : ''} GROUP BY report_id`,
    )
    .all(...(reportId ? [reportId] : []));
  return new Map(rows.map((r) => [r.report_id, r.n]));
}

function seen(store: Store): Seen {
  return store.threadSeen.all();
}

/** The researcher opened the report's thread: everything in it now is read. */
export function markThreadSeen(store: Store, reportId: string): void {
  store.threadSeen.mark(reportId, triageCount(store, reportId));
}

/** The number of triage messages of a report's thread in the mirror. */
export function triageCount(store: Store, reportId: string): number {
  return triageCounts(store, reportId).get(reportId) ?? 0;
}

/**
 * Starts counting a report's thread, once: `known` is how many triage messages the mirror held
 * before this sync (null when the report is new to it: then its whole thread so far is history
 * and counts as read; a report this client sent knew no thread, so what comes is unread).
 */
export function startThreadCount(store: Store, reportId: string, known: number | null): void {
  if (store.threadSeen.has(reportId)) return;
  store.threadSeen.start(reportId, known ?? triageCount(store, reportId));
}

const computed = new WeakMap<Store, { version: number; items: InboxItem[] }>();

/**
 * Reports with unread triage messages or an unanswered `needs_info`, newest question first. Every
 * status the engine emits carries it, so it is computed again only when something it reads changed
 * (the store's `changes.inbox()` counter): computing it reads every thread.
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
  const counts = triageCounts(store);
  const read = seen(store);
  const needsInfo = new Set(store.reports.listUnseenNeedsInfo());
  const ids = new Set(needsInfo);
  for (const [id, n] of counts) if (n > (read[id] ?? n)) ids.add(id);
  const items: InboxItem[] = [];
  for (const id of ids) {
    const row = store.reports.getListItem(id);
    if (!row) continue;
    items.push({
      reportId: id,
      title: row.title,
      unread: Math.max(0, (counts.get(id) ?? 0) - (read[id] ?? counts.get(id) ?? 0)),
      needsInfo: needsInfo.has(id),
      updatedAt: row.updated_at,
    });
  }
  return items.sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''));
}

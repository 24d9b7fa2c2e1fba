import type { Db } from './database';

/**
 * For the inbox (sync/inbox.ts): each report's thread with its count of triage messages, kept by
 * triggers on `messages`, and the count when the researcher last read it (migration 8). Reading
 * the inbox reads the unread threads only (a partial index holds them), whatever the mirror holds.
 */
export interface ThreadsRepository {
  /** Triage messages in the report's thread (0 without a thread). */
  triage(reportId: string): number;
  /** The researcher read the thread: everything in it now is read. */
  markRead(reportId: string): void;
  /** Starts counting a thread as read up to `seen` messages, unless it is counted already. */
  start(reportId: string, seen: number): void;
  isCounted(reportId: string): boolean;
  /** Counted threads with more triage messages than when last read. */
  unread(): { reportId: string; unread: number }[];
}

export function createThreadsRepository(db: Db): ThreadsRepository {
  const sqlite = db.sqlite;
  const selectTriage = sqlite
    .prepare<[string], number>('SELECT triage FROM threads WHERE report_id = ?')
    .pluck();
  const markRead = sqlite.prepare<[string]>(
    `INSERT INTO threads (report_id, triage, seen) VALUES (?, 0, 0)
     ON CONFLICT (report_id) DO UPDATE SET seen = triage`,
  );
  const start = sqlite.prepare<[string, number]>(
    `INSERT INTO threads (report_id, triage, seen) VALUES (?, 0, ?)
     ON CONFLICT (report_id) DO UPDATE SET seen = excluded.seen WHERE seen IS NULL`,
  );
  const counted = sqlite
    .prepare<[string], number>(
      'SELECT EXISTS (SELECT 1 FROM threads WHERE report_id = ? AND seen IS NOT NULL)',
    )
    .pluck();
  const selectUnread = sqlite.prepare<[], { reportId: string; unread: number }>(
    `SELECT report_id AS reportId, triage - seen AS unread FROM threads INDEXED BY threads_unread
     WHERE triage > seen`,
  );
  return {
    triage: (reportId) => selectTriage.get(reportId) ?? 0,
    markRead: (reportId) => void markRead.run(reportId),
    start: (reportId, seen) => void start.run(reportId, seen),
    isCounted: (reportId) => counted.get(reportId) === 1,
    unread: () => selectUnread.all(),
  };
}

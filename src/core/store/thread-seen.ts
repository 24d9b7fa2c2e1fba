import type { Db } from './database';

/**
 * For the inbox (sync/inbox.ts): how many triage messages each report's thread held when the
 * researcher last read it. One row per report (migration 6), so counting a new report's thread
 * during a sync is one insert; the JSON object in `sync_state` it replaces was read and written
 * whole for every report, 1.9 s of a 3,000-report mirror and growing with the square of it.
 */
export interface ThreadSeenRepository {
  all(): Record<string, number>;
  /** The thread was read with `n` triage messages in it. */
  mark(reportId: string, n: number): void;
  /** Starts counting a thread at `n`, unless it is counted already. */
  start(reportId: string, n: number): void;
  has(reportId: string): boolean;
}

export function createThreadSeenRepository(db: Db): ThreadSeenRepository {
  const sqlite = db.sqlite;
  const selectAll = sqlite
    .prepare<[], [string, number]>('SELECT report_id, n FROM thread_seen')
    .raw();
  const upsert = sqlite.prepare<[string, number]>(
    `INSERT INTO thread_seen (report_id, n) VALUES (?, ?)
     ON CONFLICT (report_id) DO UPDATE SET n = excluded.n`,
  );
  const insert = sqlite.prepare<[string, number]>(
    'INSERT INTO thread_seen (report_id, n) VALUES (?, ?) ON CONFLICT (report_id) DO NOTHING',
  );
  const exists = sqlite
    .prepare<[string], number>('SELECT EXISTS (SELECT 1 FROM thread_seen WHERE report_id = ?)')
    .pluck();
  return {
    all: () => Object.fromEntries(selectAll.all()),
    mark: (reportId, n) => void upsert.run(reportId, n),
    start: (reportId, n) => void insert.run(reportId, n),
    has: (reportId) => exists.get(reportId) === 1,
  };
}

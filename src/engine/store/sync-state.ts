import type { Db } from './database';
import type { Logger } from '../log/logger';
import { redactedJson } from '@shared/api/redact';

/** The polling cadences the sync keeps a "last run" time for. */
export type SyncCadence = 'reports' | 'payouts' | 'programs' | 'account' | (string & {});

export interface SyncStateRepository {
  /** null also for a row that cannot be read: it is dropped, with a log line. */
  get<T>(name: string): T | null;
  /** Stores `value` with every key-shaped string in it redacted (see `redactedJson`). */
  set(name: string, value: unknown): void;
  /**
   * Stores `value` exactly: for what the researcher wrote (a draft's content as it was sent), which
   * is compared with the server's copy later. Redacted, a bearer token in a report would make our
   * own save look like another writer's. The same text is in the drafts table as written.
   */
  setAsWritten(name: string, value: unknown): void;
  delete(name: string): void;
  /** The polling `since` of part 6: the newest `updated_at` seen. */
  getSince(): string | null;
  setSince(since: string | null): void;
  getLastSync(cadence: SyncCadence): string | null;
  setLastSync(cadence: SyncCadence, at: string): void;
  /**
   * Notify-once for needs_info: true the first time it is called for a report, false until the
   * report's mark is cleared. Survives restarts.
   */
  claimNeedsInfoNotification(reportId: string, at?: string): boolean;
  /** Clears the marks of reports no longer in needs_info, so a later needs_info notifies again. */
  forgetNeedsInfoNotLongerPending(): string[];
  notifiedNeedsInfo(): string[];
  /**
   * Threads the first mirror put off (decided and withdrawn reports new to the mirror: history
   * the researcher rarely needs first; sync/mirror.ts). Kept across restarts, newest first.
   */
  deferThreads(reportIds: readonly string[]): void;
  deferredThreads(limit?: number): string[];
  isThreadDeferred(reportId: string): boolean;
  /** The threads arrived (or their reports are gone). */
  forgetDeferredThreads(reportIds: readonly string[]): void;
}

const SINCE = 'reports.since';
const DEFERRED_THREADS = 'mirror.deferred_threads';
const lastSyncName = (cadence: string) => `last_sync.${cadence}`;

export function createSyncStateRepository(db: Db, log: Logger): SyncStateRepository {
  const sqlite = db.sqlite;
  const select = sqlite.prepare<[string], { value_json: string }>(
    'SELECT value_json FROM sync_state WHERE name = ?',
  );
  const upsert = sqlite.prepare<[string, string, string]>(
    `INSERT INTO sync_state (name, value_json, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (name) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`,
  );
  const deleteOne = sqlite.prepare<[string]>('DELETE FROM sync_state WHERE name = ?');
  const claim = sqlite.prepare<[string, string]>(
    'INSERT OR IGNORE INTO needs_info_notified (report_id, notified_at) VALUES (?, ?)',
  );
  const selectNoLongerPending = sqlite.prepare<[], { report_id: string }>(
    `SELECT report_id FROM needs_info_notified WHERE report_id NOT IN
       (SELECT id FROM reports WHERE status = 'needs_info')`,
  );
  const forget = sqlite.prepare<[string]>('DELETE FROM needs_info_notified WHERE report_id = ?');
  const selectNotified = sqlite.prepare<[], { report_id: string }>(
    'SELECT report_id FROM needs_info_notified ORDER BY notified_at, report_id',
  );

  function get<T>(name: string): T | null {
    const row = select.get(name);
    if (!row) return null;
    try {
      return JSON.parse(row.value_json) as T;
    } catch {
      // Kept, it would fail every reader the same way (a send, forever): the app learns it again.
      try {
        deleteOne.run(name);
      } catch {
        // A read-only mirror (another version holds it): read as absent all the same.
      }
      log.warn('store', 'unreadable-row-dropped', { table: 'sync_state', name });
      return null;
    }
  }
  function set(name: string, value: unknown): void {
    upsert.run(name, redactedJson(value), new Date().toISOString());
  }
  function setAsWritten(name: string, value: unknown): void {
    upsert.run(name, JSON.stringify(value) ?? 'null', new Date().toISOString());
  }

  // One JSON array in sync_state (a first mirror defers a few thousand at most), read once.
  let deferred: Set<string> | null = null;
  const deferredSet = (): Set<string> =>
    (deferred ??= new Set(get<string[]>(DEFERRED_THREADS) ?? []));
  const saveDeferred = (ids: Set<string>): void => {
    if (ids.size === 0) deleteOne.run(DEFERRED_THREADS);
    else set(DEFERRED_THREADS, [...ids]);
  };

  return {
    get,
    set,
    setAsWritten,
    delete: (name) => void deleteOne.run(name),
    getSince: () => get<string>(SINCE),
    setSince: (since) => (since === null ? void deleteOne.run(SINCE) : set(SINCE, since)),
    getLastSync: (cadence) => get<string>(lastSyncName(cadence)),
    setLastSync: (cadence, at) => set(lastSyncName(cadence), at),
    claimNeedsInfoNotification(reportId, at = new Date().toISOString()) {
      return claim.run(reportId, at).changes === 1;
    },
    forgetNeedsInfoNotLongerPending() {
      return db.transaction(() => {
        const ids = selectNoLongerPending.all().map((row) => row.report_id);
        for (const id of ids) forget.run(id);
        return ids;
      });
    },
    notifiedNeedsInfo: () => selectNotified.all().map((row) => row.report_id),
    deferThreads(reportIds) {
      if (reportIds.length === 0) return;
      // Newest first: the list pages come newest first, so ids keep the order they are added in.
      const ids = deferredSet();
      for (const id of reportIds) ids.add(id);
      saveDeferred(ids);
    },
    deferredThreads: (limit = Number.MAX_SAFE_INTEGER) => [...deferredSet()].slice(0, limit),
    isThreadDeferred: (reportId) => deferredSet().has(reportId),
    forgetDeferredThreads(reportIds) {
      const ids = deferredSet();
      let changed = false;
      for (const id of reportIds) changed = ids.delete(id) || changed;
      if (changed) saveDeferred(ids);
    },
  };
}

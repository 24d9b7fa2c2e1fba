import type { Db } from './database';

/**
 * Indexes the reports queued in `reports_fts_pending` (see migration 2): each queued report once,
 * in batches of one transaction each, ascending rowids (the cheapest order for FTS5).
 *
 * The triggers queue a report in the write's own transaction; after the write commits, the queue
 * is drained on the next turns of the event loop, one batch per turn, so a 10,000-report sync
 * never blocks the process for the whole indexing. Every search calls `flush()` first, so a search
 * made right after a write still finds it. A queue left by a crash is drained after the next open.
 */
export interface ReportIndexer {
  /** Reports waiting to be (re-)indexed. */
  pending(): number;
  /** Indexes up to `limit` queued reports in one transaction; returns how many. */
  indexBatch(limit?: number): number;
  /** Indexes everything queued, now (a search calls this first). */
  flush(): void;
  /** Drains the queue in the background, one batch per event-loop turn. */
  schedule(): void;
  /** Resolves once the background drain has emptied the queue (benchmarks, tests). */
  idle(): Promise<void>;
  /** Stops the background drain; what is still queued stays queued in the file. */
  stop(): void;
}

export const INDEX_BATCH = 1000;

interface PendingRow {
  seq: number;
  indexed: number;
  present: number;
}

export function createReportIndexer(db: Db): ReportIndexer {
  const sqlite = db.sqlite;
  const hasPending = sqlite.prepare<[], { n: number }>(
    'SELECT EXISTS (SELECT 1 FROM reports_fts_pending) AS n',
  );
  const countPending = sqlite.prepare<[], { n: number }>(
    'SELECT count(*) AS n FROM reports_fts_pending',
  );
  const selectBatch = sqlite.prepare<[number], PendingRow>(
    `SELECT p.seq, p.indexed, r.seq IS NOT NULL AS present
     FROM reports_fts_pending p LEFT JOIN reports r ON r.seq = p.seq
     ORDER BY p.seq LIMIT ?`,
  );
  const deleteIndexed = sqlite.prepare<[number]>('DELETE FROM reports_fts WHERE rowid = ?');
  const insertUpTo = sqlite.prepare<[number]>(
    `INSERT INTO reports_fts (rowid, title, description, messages)
     SELECT s.seq, s.title, s.description, s.messages
     FROM reports_fts_pending p JOIN report_fts_source s ON s.seq = p.seq
     WHERE p.seq <= ? ORDER BY p.seq`,
  );
  const dequeueUpTo = sqlite.prepare<[number]>('DELETE FROM reports_fts_pending WHERE seq <= ?');

  let timer: NodeJS.Immediate | null = null;
  let stopped = false;
  let waiters: (() => void)[] = [];

  // Not db.transaction: its commit listeners would schedule this drain again.
  const inTransaction = <T>(fn: () => T): T => sqlite.transaction(fn).immediate();

  function indexBatch(limit = INDEX_BATCH): number {
    return inTransaction(() => {
      const batch = selectBatch.all(Math.max(1, Math.trunc(limit)));
      const last = batch[batch.length - 1];
      if (!last) return 0;
      // Deletes first, then one insert: interleaving them makes FTS5 flush tiny segments.
      // A queued row whose report is gone already left the index through the delete trigger.
      for (const row of batch)
        if (row.indexed === 1 && row.present === 1) deleteIndexed.run(row.seq);
      insertUpTo.run(last.seq);
      dequeueUpTo.run(last.seq);
      return batch.length;
    });
  }

  function settle(): void {
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  }

  function step(): void {
    timer = null;
    if (stopped || !sqlite.open) return settle();
    try {
      if (indexBatch() > 0 && hasPending.get()?.n === 1) {
        timer = setImmediate(step);
        return;
      }
    } catch {
      // Busy or closing: the queue stays in the file; the next write, search or open retries.
    }
    settle();
  }

  return {
    pending: () => countPending.get()?.n ?? 0,
    indexBatch,
    flush() {
      while (hasPending.get()?.n === 1) indexBatch();
    },
    schedule() {
      if (stopped || timer) return;
      timer = setImmediate(step);
    },
    idle() {
      if (!timer) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    stop() {
      stopped = true;
      if (timer) clearImmediate(timer);
      timer = null;
      settle();
    },
  };
}

import type { Db } from './database';
import { indexKeySql } from './report-index-key';

/**
 * Indexes the reports queued in `reports_fts_pending` (see migration 2): each queued report once,
 * in batches of one transaction each, ascending rowids (the cheapest order for FTS5; a rowid is
 * the report's place in the list's order, report-index-key.ts).
 *
 * The triggers queue a report in the write's own transaction; after the write commits, the queue
 * is drained on the next turns of the event loop, one step per turn, so a 100,000-report queue
 * never blocks the engine for the whole indexing: a call that arrives meanwhile waits for one
 * step at most. A batch aims at `SLICE_MS` of work (its size follows the time the last one took:
 * a batch of 1,000 took up to 115 ms once the index held 100,000 reports). FTS5's own merging of
 * segments is off (migration 9): it ran inside whichever batch filled a level (20–230 ms at
 * 100,000 reports); after each batch a step of its own merges `MERGE_PAGES` pages, and merge
 * steps go on after the queue is empty until there is nothing left to merge. No search waits for
 * the drain: a search matches the rows still queued without the index (report-search.ts). A queue
 * left by a crash is drained after the next open.
 */
export interface ReportIndexer {
  /** Reports waiting to be (re-)indexed. */
  pending(): number;
  /** Indexes up to `limit` queued reports in one transaction; returns how many. */
  indexBatch(limit?: number): number;
  /** Indexes everything queued, now, in one stretch (tests and tools; no search calls it). */
  flush(): void;
  /** Drains the queue in the background, one batch or merge step per event-loop turn. */
  schedule(): void;
  /** Resolves once the background drain has emptied the queue and merged (benchmarks, tests). */
  idle(): Promise<void>;
  /** Stops the background drain; what is still queued stays queued in the file. */
  stop(): void;
}

/** The first batch of a drain; later ones grow or shrink towards `SLICE_MS`. */
export const INDEX_BATCH = 200;
export const SLICE_MS = 4;
/** Pages of segment merging per step: about 2–15 ms at 100,000 reports. */
export const MERGE_PAGES = 128;
const MIN_BATCH = 20;
const MAX_BATCH = 2_000;

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
  // A report is indexed under the key of its update time (report-index-key.ts); one queued with
  // its older version indexed has kept its bucket (a new bucket deletes the entry at once and
  // queues it as never indexed: migration 17), so the key is the report's current one.
  const deleteIndexed = sqlite.prepare<[number]>(
    `DELETE FROM reports_fts WHERE rowid = (SELECT ${indexKeySql('r')} FROM reports r WHERE r.seq = ?)`,
  );
  const insertUpTo = sqlite.prepare<[number]>(
    `INSERT INTO reports_fts (rowid, title, description, messages, facets, asset)
     SELECT ${indexKeySql('r')}, s.title, s.description, s.messages, s.facets, s.asset
     FROM reports_fts_pending p CROSS JOIN reports r ON r.seq = p.seq
       CROSS JOIN report_fts_source s ON s.seq = p.seq
     WHERE p.seq <= ? ORDER BY 1`,
  );
  const dequeueUpTo = sqlite.prepare<[number]>('DELETE FROM reports_fts_pending WHERE seq <= ?');
  const mergeStep = sqlite.prepare(
    `INSERT INTO reports_fts (reports_fts, rank) VALUES ('merge', ${MERGE_PAGES})`,
  );
  const totalChanges = sqlite.prepare<[], number>('SELECT total_changes()').pluck();

  let timer: NodeJS.Immediate | null = null;
  let stopped = false;
  let batchSize = INDEX_BATCH;
  let waiters: (() => void)[] = [];
  /** A batch was written since the index last had nothing to merge. */
  let mergeDue = false;
  let mergedLast = true;

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

  /**
   * One step of segment merging; false when there was nothing to merge (FTS5: fewer than two
   * rows changed).
   */
  function mergeOnce(): boolean {
    const before = totalChanges.get() ?? 0;
    inTransaction(() => mergeStep.run());
    return (totalChanges.get() ?? 0) - before >= 2;
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
      // Batches and merge steps take turns while both have work.
      const pending = hasPending.get()?.n === 1;
      if (mergeDue && (!pending || !mergedLast)) {
        mergeDue = mergeOnce();
        mergedLast = true;
      } else if (pending) {
        const started = performance.now();
        const indexed = indexBatch(batchSize);
        if (indexed === batchSize)
          batchSize = nextBatchSize(batchSize, performance.now() - started);
        mergeDue ||= indexed > 0;
        mergedLast = false;
      }
      if (mergeDue || hasPending.get()?.n === 1) {
        timer = setImmediate(step);
        return;
      }
      batchSize = INDEX_BATCH;
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
      while (mergeOnce());
      mergeDue = false;
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

/** Towards a batch of `SLICE_MS`, by at most half or double at a time (a merge makes one slow). */
function nextBatchSize(size: number, elapsedMs: number): number {
  const factor = Math.min(2, Math.max(0.5, SLICE_MS / Math.max(elapsedMs, 0.01)));
  return Math.min(MAX_BATCH, Math.max(MIN_BATCH, Math.round(size * factor)));
}

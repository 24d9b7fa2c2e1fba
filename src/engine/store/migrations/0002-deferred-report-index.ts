import { sqlStep } from './migration';
import { deleteMergeAtHalf, queueReport, queueReportOf } from './report-index-sql';

/**
 * Report search indexed outside the write. Indexing inside the triggers cost about 85% of a bulk
 * write: a new report was indexed twice (title on the reports row, then again with the document),
 * every message re-indexed its whole report, and each delete-then-insert flushed FTS5's pending
 * terms into a tiny segment. Now the triggers only queue the row (`reports_fts_pending`, written
 * in the same transaction, so a crash loses nothing) and `fts-index.ts` indexes each queued report
 * once, in batches, right after the write commits; a search first indexes whatever is still
 * queued, so it never misses a report. Deletes still happen at once.
 *
 * Invariant: every reports row is in `reports_fts`, or queued with `indexed = 0` (never indexed).
 * `indexed = 1` means the index holds an older version that must be deleted before re-indexing.
 * The upserts below keep a queued row's flag (see `queueReport`).
 */
const sql = `
DROP TRIGGER reports_fts_insert;
DROP TRIGGER reports_fts_update;
DROP TRIGGER report_documents_fts_insert;
DROP TRIGGER report_documents_fts_update;
DROP TRIGGER reports_fts_delete;
DROP TRIGGER messages_fts_insert;
DROP TRIGGER messages_fts_update;
DROP TRIGGER messages_fts_delete;

-- Merge a segment away once half its rows are deleted (default 10%). A re-index deletes before it
-- inserts, so at 10% a sync that re-indexes 10,000 reports in batches rewrote the big segment on
-- nearly every batch (1.9 s of the 2.5 s of indexing); tombstones cost a search little.
${deleteMergeAtHalf}

CREATE TABLE reports_fts_pending (
  seq INTEGER PRIMARY KEY,            -- reports.seq, the rowid in reports_fts
  indexed INTEGER NOT NULL            -- 1: an older version is in the index (delete it first)
);

CREATE TRIGGER reports_fts_queue_insert AFTER INSERT ON reports BEGIN
  ${queueReport('new.seq', 0)}
END;
CREATE TRIGGER reports_fts_queue_update AFTER UPDATE OF title ON reports
WHEN new.title IS NOT old.title BEGIN
  ${queueReport('new.seq', 1)}
END;
CREATE TRIGGER report_documents_fts_queue_insert AFTER INSERT ON report_documents BEGIN
  ${queueReport('new.seq', 1)}
END;
-- Only a changed description changes the index (payout or status updates do not).
CREATE TRIGGER report_documents_fts_queue_update AFTER UPDATE OF report_json ON report_documents
WHEN json_extract(new.report_json, '$.description')
  IS NOT json_extract(old.report_json, '$.description') BEGIN
  ${queueReport('new.seq', 1)}
END;
-- A deleted report leaves the index at once (unless it never reached it) and the queue.
CREATE TRIGGER reports_fts_delete AFTER DELETE ON reports BEGIN
  DELETE FROM reports_fts WHERE rowid = (SELECT old.seq WHERE NOT EXISTS
    (SELECT 1 FROM reports_fts_pending p WHERE p.seq = old.seq AND p.indexed = 0));
  DELETE FROM reports_fts_pending WHERE seq = old.seq;
END;

CREATE TRIGGER messages_fts_queue_insert AFTER INSERT ON messages BEGIN
  ${queueReportOf('new.report_id')}
END;
CREATE TRIGGER messages_fts_queue_update AFTER UPDATE OF body ON messages
WHEN new.body IS NOT old.body BEGIN
  ${queueReportOf('new.report_id')}
END;
CREATE TRIGGER messages_fts_queue_delete AFTER DELETE ON messages BEGIN
  ${queueReportOf('old.report_id')}
END;
`;

export const deferredReportIndex = sqlStep(2, 'report search indexed after the write', sql);

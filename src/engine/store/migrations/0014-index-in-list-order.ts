import { sqlStep } from './migration';
import { remakeReportIndex, requeueEveryReport, requeueOnUpdate } from './report-index-sql';
import { FIRST_BUCKET_SHIFT, orderBucketSql } from '../report-index-key';

/**
 * The report index's rowids follow the list's default order (report-index-key.ts): a new search's
 * first page reads about a page of hits in order instead of every hit (15 ms at 100,000 reports
 * for a word in a quarter of them). The rowid now changes with the update time, so
 * `reports_fts_rowids` keeps the one each report is indexed under (the drain and the delete trigger
 * delete by it), and a change of update time that moves a report to another bucket queues it
 * again. FTS5 cannot change rowids in place: the index is made again and every report queued, as
 * in migration 10 (searches answer meanwhile from what it holds and say how many they missed).
 */
const sql = `
${remakeReportIndex('asset')}

CREATE TABLE reports_fts_rowids (
  seq INTEGER PRIMARY KEY,            -- reports.seq
  fts_rowid INTEGER NOT NULL          -- its rowid in reports_fts
);

DROP TRIGGER reports_fts_delete;
CREATE TRIGGER reports_fts_delete AFTER DELETE ON reports BEGIN
  DELETE FROM reports_fts WHERE rowid = (SELECT k.fts_rowid FROM reports_fts_rowids k
    WHERE k.seq = old.seq AND NOT EXISTS
      (SELECT 1 FROM reports_fts_pending p WHERE p.seq = old.seq AND p.indexed = 0));
  DELETE FROM reports_fts_rowids WHERE seq = old.seq;
  DELETE FROM reports_fts_pending WHERE seq = old.seq;
END;

${requeueOnUpdate(
  'reports_fts_queue_order',
  'UPDATE OF updated_ms ON reports',
  `${orderBucketSql('new.updated_ms', FIRST_BUCKET_SHIFT)} IS NOT ${orderBucketSql(
    'old.updated_ms',
    FIRST_BUCKET_SHIFT,
  )}`,
)}

${requeueEveryReport}
`;

export const indexInListOrder = sqlStep(14, 'report index in the list order', sql);

import { sqlStep } from './migration';
import { remakeReportIndex, requeueEveryReport } from './report-index-sql';
import { indexKeySql, orderBucketSql } from '../report-index-key';

/** The index's entry of report `alias`, unless it is queued as never indexed (none then). */
const indexedKeyOf = (alias: string): string => `(SELECT ${indexKeySql(alias)} WHERE NOT EXISTS
    (SELECT 1 FROM reports_fts_pending p WHERE p.seq = ${alias}.seq AND p.indexed = 0))`;

/**
 * The report index's keys take the update time in buckets of about 4.7 hours instead of 4 s
 * (report-index-key.ts): nearly every hit of the index crossed a bucket and cost a 5-byte rowid
 * delta, and the index was 2.4 KB of the mirror's 5.4 KB a report at 10,000 reports (1.3 KB
 * now). The index is made again and every report queued, as in migration 14.
 *
 * `reports_fts_rowids` goes (18 bytes a report): a report's entry is now always under the key of
 * its current update time, unless it is queued as never indexed. An update that moves a report
 * to another bucket deletes its entry at once (under the key of the update time it had) and
 * queues it as never indexed; one inside its bucket keeps the key. So the drain and the delete
 * trigger compute the key they delete instead of looking it up.
 */
const sql = `
${remakeReportIndex('asset')}
DROP TABLE reports_fts_rowids;

DROP TRIGGER reports_fts_delete;
CREATE TRIGGER reports_fts_delete AFTER DELETE ON reports BEGIN
  DELETE FROM reports_fts WHERE rowid = ${indexedKeyOf('old')};
  DELETE FROM reports_fts_pending WHERE seq = old.seq;
END;

DROP TRIGGER reports_fts_queue_order;
CREATE TRIGGER reports_fts_queue_order AFTER UPDATE OF updated_ms ON reports
WHEN ${orderBucketSql('new.updated_ms')} IS NOT ${orderBucketSql('old.updated_ms')} BEGIN
  DELETE FROM reports_fts WHERE rowid = ${indexedKeyOf('old')};
  INSERT INTO reports_fts_pending (seq, indexed) VALUES (new.seq, 0)
  ON CONFLICT (seq) DO UPDATE SET indexed = 0;
END;

${requeueEveryReport}
`;

export const coarserIndexBuckets = sqlStep(17, 'report index keys in coarser buckets', sql);

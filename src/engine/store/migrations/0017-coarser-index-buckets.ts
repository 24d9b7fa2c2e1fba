import { sqlStep } from './migration';
import { remakeReportIndex, requeueEveryReport, requeueOnUpdate } from './report-index-sql';
import { orderBucketSql } from '../report-index-key';

/**
 * The report index's keys take the update time in buckets of about 4.7 hours instead of 4 s
 * (report-index-key.ts): nearly every hit of the index crossed a bucket and cost a 5-byte rowid
 * delta, and the index was 2.4 KB of the mirror's 5.4 KB a report at 10,000 reports (1.3 KB
 * now). The index is made again and every report queued, as in migration 14; the trigger that
 * queues a report whose update moves it to another bucket compares the new buckets. The keys kept
 * in `reports_fts_rowids` are of the index dropped: the drain writes them again.
 */
const sql = `
${remakeReportIndex('asset')}
DELETE FROM reports_fts_rowids;

DROP TRIGGER reports_fts_queue_order;
${requeueOnUpdate(
  'reports_fts_queue_order',
  'UPDATE OF updated_ms ON reports',
  `${orderBucketSql('new.updated_ms')} IS NOT ${orderBucketSql('old.updated_ms')}`,
)}

${requeueEveryReport}
`;

export const coarserIndexBuckets = sqlStep(17, 'report index keys in coarser buckets', sql);

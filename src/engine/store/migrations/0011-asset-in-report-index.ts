import { sqlStep } from './migration';
import {
  remakeReportIndexAndSource,
  requeueEveryReport,
  requeueOnUpdate,
} from './report-index-sql';

/**
 * The report index gains the asset: the search box promised "title, asset,
 * description" and a unique asset word found nothing. Added as the last column (FTS5 cannot add
 * one: the index is made again and every report queued, as in migration 10); a changed asset
 * queues its report as a changed description does.
 */
const sql = `
${remakeReportIndexAndSource('asset')}

DROP TRIGGER report_documents_fts_queue_update;
${requeueOnUpdate(
  'report_documents_fts_queue_update',
  'UPDATE OF report_json ON report_documents',
  `json_extract(new.report_json, '$.description')
  IS NOT json_extract(old.report_json, '$.description')
  OR json_extract(new.report_json, '$.asset') IS NOT json_extract(old.report_json, '$.asset')`,
)}

${requeueEveryReport}
`;

export const assetInReportIndex = sqlStep(11, 'report index holds the asset', sql);

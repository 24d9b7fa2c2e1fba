import { sqlStep } from './migration';
import { REPORT_DOCUMENT_SQL } from '../report-document';
import { createReportIndexSource, requeueOnUpdate } from './report-index-sql';

const newDocument = `${REPORT_DOCUMENT_SQL}(new.report_json)`;
const oldDocument = `${REPORT_DOCUMENT_SQL}(old.report_json)`;

/**
 * Report documents are stored deflated (report-document.ts): the JSON documents were the largest
 * table of the mirror (2.4 KB of 6.6 KB a report at 10,000 reports). The search index's view and
 * the trigger that compares a document's indexed fields read documents through
 * `report_document()`, which decodes either form; rows stored before stay JSON text until their
 * report is written again (rewriting them all here would hold a start for seconds at 100,000
 * reports and fill the WAL for nothing: the file keeps its size until a VACUUM).
 */
const sql = `
DROP VIEW report_fts_source;
${createReportIndexSource('asset', `${REPORT_DOCUMENT_SQL}(d.report_json)`)}

DROP TRIGGER report_documents_fts_queue_update;
${requeueOnUpdate(
  'report_documents_fts_queue_update',
  'UPDATE OF report_json ON report_documents',
  `json_extract(${newDocument}, '$.description') IS NOT json_extract(${oldDocument}, '$.description')
  OR json_extract(${newDocument}, '$.asset') IS NOT json_extract(${oldDocument}, '$.asset')`,
)}
`;

export const deflatedReportDocuments = sqlStep(16, 'report documents stored deflated', sql);

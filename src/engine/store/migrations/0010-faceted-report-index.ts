import { sqlStep } from './migration';
import {
  remakeReportIndexAndSource,
  requeueEveryReport,
  requeueOnUpdate,
} from './report-index-sql';

/**
 * The report index gains a `facets` column: each report's status and program as tokens
 * (report-facets.ts), so that FTS5 intersects a search with the list's filter. FTS5 cannot add a
 * column: the index is made again and every report queued for it; the background drain fills it
 * (about 12 s at 100,000 reports) while searches answer from what it holds and say how many
 * reports they could not see yet. A change of status or program queues its report again.
 */
const sql = `
${remakeReportIndexAndSource('facets')}

${requeueOnUpdate(
  'reports_fts_queue_facets',
  'UPDATE OF status, program_id ON reports',
  'new.status IS NOT old.status OR new.program_id IS NOT old.program_id',
)}

${requeueEveryReport}
`;

export const facetedReportIndex = sqlStep(10, 'report index holds status and program', sql);

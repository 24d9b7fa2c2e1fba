import { sqlStep } from './migration';
import { noAutomerge } from './report-index-sql';

/**
 * The report index merges its segments in steps of its own (fts-index.ts), not inside whichever
 * indexing batch happens to fill a level: at 100,000 reports those batches took 20–230 ms, and a
 * call waited for them.
 */
const sql = `
${noAutomerge}
`;

export const indexMergedInSteps = sqlStep(9, 'report index merged in steps of its own', sql);

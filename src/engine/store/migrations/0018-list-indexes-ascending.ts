import { sqlStep } from './migration';

/**
 * The list's indexes that walk the newest update first hold the update time ascending and are read
 * backwards: the same orders (each term reversed, so SQLite walks them from the end with no
 * sort), but a report written now lands at the end of its range instead of at its start. SQLite
 * splits a page that fills at the end of a B-tree into a full page and a new one; one filled at
 * the start was split in halves: written in the order of their updates, the first four were half
 * empty at 10,000 reports (217 of their 496 bytes a report), the program's two at 100,000 (120
 * of 274), and a page deep in the list skipped twice the pages. Made again, they are also packed
 * now. Same names: the list's statements name them (report-list/sql.ts).
 */
const sql = `
DROP INDEX reports_list;
CREATE INDEX reports_list ON reports (updated_ms, id DESC, status);
DROP INDEX reports_by_status;
CREATE INDEX reports_by_status ON reports (status, updated_ms, id DESC);
DROP INDEX reports_by_status_rank;
CREATE INDEX reports_by_status_rank ON reports (status_rank DESC, updated_ms, id DESC, status,
  program_id);
DROP INDEX reports_by_severity;
CREATE INDEX reports_by_severity ON reports (severity_score, updated_ms, id DESC, status,
  program_id);
DROP INDEX reports_by_program_name;
CREATE INDEX reports_by_program_name ON reports (program_name COLLATE NOCASE DESC,
  program_id DESC, updated_ms, id DESC, status);
DROP INDEX reports_by_program;
CREATE INDEX reports_by_program ON reports (program_id, updated_ms, id DESC, status);
`;

export const listIndexesAscending = sqlStep(18, 'list indexes ascending, read backwards', sql);

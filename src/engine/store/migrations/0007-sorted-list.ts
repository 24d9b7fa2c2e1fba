import type Database from 'better-sqlite3';
import type { Migration } from './migration';
import { cvssScore, statusRankSql, UNKNOWN_STATUS_RANK } from '../report-order';

/**
 * The reports list sorted by status, program or severity and filtered by program, in SQL at
 * 100,000 reports (report-list/). Each order walks an index that holds its keys and the
 * filtered columns, so a page skips rows in the index alone:
 * - `status_rank`: the status's place in the list's status order (report-order.ts), set by the
 *   upserts; `reports_by_status_rank` orders by it.
 * - `cvss_score`: the CVSS 3.1 base score of the mirrored report's own vector (NULL without a
 *   valid one), set by the full upsert; `drafts.cvss_score` is the local draft's.
 *   `severity_score` is what the list sorts by: the local draft's score while one exists (what
 *   the researcher last typed), else the report's. Triggers on `drafts` keep it, and the upserts
 *   read the draft's. `reports_by_severity` orders by it, highest first, no score last.
 * - `reports_by_program_name` orders by program; `reports_by_program` serves the program filter
 *   (newest first within a program).
 * - `report_program_counts` (program, status, count), kept by triggers like
 *   `report_status_counts`: a program's total and the program list are read, not counted.
 * The scores of what the file already holds are computed here, once.
 */
function sortedList(sqlite: Database.Database): void {
  sqlite.exec(`
ALTER TABLE reports ADD COLUMN status_rank INTEGER NOT NULL DEFAULT ${UNKNOWN_STATUS_RANK};
ALTER TABLE reports ADD COLUMN cvss_score REAL;
ALTER TABLE reports ADD COLUMN severity_score REAL;
ALTER TABLE drafts ADD COLUMN cvss_score REAL;
UPDATE reports SET status_rank = ${statusRankSql('status')};
`);
  const documents = sqlite
    .prepare<[], { seq: number; vector: unknown }>(
      `SELECT seq, json_extract(report_json, '$.cvss_vector') AS vector FROM report_documents`,
    )
    .all();
  const setReport = sqlite.prepare<[number, number, number]>(
    'UPDATE reports SET cvss_score = ?, severity_score = ? WHERE seq = ?',
  );
  for (const { seq, vector } of documents) {
    const score = cvssScore(typeof vector === 'string' ? vector : null);
    if (score !== null) setReport.run(score, score, seq);
  }
  const drafts = sqlite
    .prepare<[], { report_id: string; cvss_vector: string }>(
      'SELECT report_id, cvss_vector FROM drafts',
    )
    .all();
  const setDraft = sqlite.prepare<[number | null, string]>(
    'UPDATE drafts SET cvss_score = ? WHERE report_id = ?',
  );
  for (const draft of drafts) setDraft.run(cvssScore(draft.cvss_vector), draft.report_id);
  sqlite.exec(`
UPDATE reports SET severity_score = (SELECT d.cvss_score FROM drafts d WHERE d.report_id = reports.id)
WHERE id IN (SELECT report_id FROM drafts);

CREATE INDEX reports_by_status_rank ON reports (status_rank, updated_ms DESC, id, status, program_id);
CREATE INDEX reports_by_severity ON reports (severity_score DESC, updated_ms DESC, id, status,
  program_id);
CREATE INDEX reports_by_program_name ON reports (program_name COLLATE NOCASE, program_id,
  updated_ms DESC, id, status);
CREATE INDEX reports_by_program ON reports (program_id, updated_ms DESC, id, status);

CREATE TRIGGER drafts_severity_insert AFTER INSERT ON drafts BEGIN
  UPDATE reports SET severity_score = new.cvss_score
  WHERE id = new.report_id AND severity_score IS NOT new.cvss_score;
END;
CREATE TRIGGER drafts_severity_update AFTER UPDATE OF cvss_score ON drafts
WHEN new.cvss_score IS NOT old.cvss_score BEGIN
  UPDATE reports SET severity_score = new.cvss_score WHERE id = new.report_id;
END;
CREATE TRIGGER drafts_severity_delete AFTER DELETE ON drafts BEGIN
  UPDATE reports SET severity_score = cvss_score
  WHERE id = old.report_id AND severity_score IS NOT cvss_score;
END;

CREATE TABLE report_program_counts (
  program_id TEXT NOT NULL,
  status TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (program_id, status)
) WITHOUT ROWID;
INSERT INTO report_program_counts (program_id, status, n)
  SELECT program_id, status, count(*) FROM reports GROUP BY program_id, status;

CREATE TRIGGER report_program_counts_insert AFTER INSERT ON reports BEGIN
  INSERT INTO report_program_counts (program_id, status, n) VALUES (new.program_id, new.status, 1)
  ON CONFLICT (program_id, status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER report_program_counts_update AFTER UPDATE OF status, program_id ON reports
WHEN new.status IS NOT old.status OR new.program_id IS NOT old.program_id BEGIN
  UPDATE report_program_counts SET n = n - 1
  WHERE program_id = old.program_id AND status = old.status;
  INSERT INTO report_program_counts (program_id, status, n) VALUES (new.program_id, new.status, 1)
  ON CONFLICT (program_id, status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER report_program_counts_delete AFTER DELETE ON reports BEGIN
  UPDATE report_program_counts SET n = n - 1
  WHERE program_id = old.program_id AND status = old.status;
END;
`);
}

export const sortedListStep: Migration = {
  version: 7,
  name: 'reports list sorted and filtered by program',
  up: sortedList,
};

import { sqlStep } from './migration';
import { createOutboxTable, outboxKindsAfterSave } from './outbox-sql';
import { createReportIndex, createReportIndexSource, ftsOptions } from './report-index-sql';

/** Indexes the report(s) `where` selects at once: this step's triggers indexed inside the write. */
function indexNow(where: string): string {
  return `INSERT INTO reports_fts (rowid, title, description, messages)
  SELECT seq, title, description, messages FROM report_fts_source WHERE ${where};`;
}

/**
 * The first schema: the mirrored programs and reports with their documents, attachments and
 * threads, the account, sync state, local drafts, the outbox, evidence, and full-text search kept
 * in step by triggers inside each write (migration 2 moved the report index out of the write).
 */
const sql = `
CREATE TABLE programs (
  seq INTEGER PRIMARY KEY,            -- stable rowid for programs_fts (VACUUM keeps it)
  id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  intake TEXT NOT NULL,
  private INTEGER NOT NULL,
  pool_paused INTEGER NOT NULL,
  demo INTEGER NOT NULL,
  policy_version INTEGER NOT NULL,
  updated_at TEXT,
  updated_ms INTEGER NOT NULL,        -- parsed updated_at, for ordering (0 when null)
  summary_json TEXT NOT NULL,         -- ProgramSummary as last listed
  program_json TEXT,                  -- full Program with its policy; NULL until fetched
  detail_stale INTEGER NOT NULL DEFAULT 1,
  listed_at TEXT NOT NULL,
  fetched_at TEXT
);
CREATE INDEX programs_by_update ON programs (updated_ms DESC, id);

CREATE TABLE reports (
  seq INTEGER PRIMARY KEY,            -- stable rowid for reports_fts
  id TEXT NOT NULL UNIQUE,
  program_id TEXT NOT NULL,
  program_name TEXT NOT NULL,
  status TEXT NOT NULL,
  display_status TEXT NOT NULL,
  title TEXT NOT NULL,
  revision INTEGER NOT NULL,
  created_at TEXT,
  updated_at TEXT,
  updated_ms INTEGER NOT NULL,
  submitted_at TEXT,
  withdrawn_at TEXT,
  has_payout INTEGER NOT NULL DEFAULT 0,
  payout_status TEXT,
  needs_info_seen INTEGER NOT NULL DEFAULT 0,
  stale INTEGER NOT NULL DEFAULT 1,   -- 1: the list knows a newer state than the document
  has_full INTEGER NOT NULL DEFAULT 0,
  fetched_at TEXT
);
CREATE INDEX reports_by_update ON reports (updated_ms DESC, id);
CREATE INDEX reports_by_status ON reports (status, updated_ms DESC, id);
CREATE INDEX reports_stale ON reports (id) WHERE stale = 1;

-- The full Report as the API returned it, apart from the list columns: list pages then read
-- small rows only (many per page) instead of multi-kilobyte ones.
CREATE TABLE report_documents (
  seq INTEGER PRIMARY KEY REFERENCES reports (seq) ON DELETE CASCADE,
  report_json TEXT NOT NULL
);

-- Server-side attachments of each report, replaced with every full report write.
CREATE TABLE report_attachments (
  report_id TEXT NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
  file_id TEXT NOT NULL,
  name TEXT NOT NULL,
  size INTEGER NOT NULL,
  content_type TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  state TEXT NOT NULL,
  uploaded_at TEXT,
  reply INTEGER,
  message_id TEXT,
  PRIMARY KEY (report_id, file_id)
) WITHOUT ROWID;

CREATE TABLE messages (
  report_id TEXT NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  position INTEGER NOT NULL,          -- index in the thread, oldest first
  author TEXT NOT NULL,
  body TEXT NOT NULL,
  at TEXT,
  attachments_json TEXT NOT NULL,
  fingerprint TEXT NOT NULL,          -- sha256 of body + file ids: the outbox's resend check
  PRIMARY KEY (report_id, id)
) WITHOUT ROWID;
CREATE INDEX messages_by_fingerprint ON messages (report_id, fingerprint);

CREATE TABLE account (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  server_url TEXT,
  key_scope TEXT CHECK (key_scope IN ('read', 'write')),
  me_json TEXT,
  me_fetched_at TEXT,
  payments_json TEXT,
  payments_fetched_at TEXT
);

CREATE TABLE sync_state (
  name TEXT PRIMARY KEY,
  value_json TEXT NOT NULL,
  updated_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE needs_info_notified (
  report_id TEXT PRIMARY KEY,
  notified_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE drafts (
  report_id TEXT PRIMARY KEY,
  program_id TEXT NOT NULL,
  title TEXT NOT NULL,
  asset TEXT NOT NULL,
  description TEXT NOT NULL,
  cvss_vector TEXT NOT NULL,
  base_json TEXT,                     -- last content the server acknowledged
  base_revision INTEGER,              -- its revision; NULL while never acknowledged
  conflict_json TEXT,
  local_only INTEGER NOT NULL DEFAULT 1,
  updated_at TEXT NOT NULL
) WITHOUT ROWID;

${createOutboxTable('outbox', ['save_draft', ...outboxKindsAfterSave])}
CREATE INDEX outbox_open_by_report ON outbox (report_id, id) WHERE state <> 'done';

CREATE TABLE evidence_blobs (
  sha256 TEXT PRIMARY KEY,
  size INTEGER NOT NULL,
  created_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE evidence (
  file_id TEXT PRIMARY KEY,
  report_id TEXT NOT NULL,
  purpose TEXT NOT NULL DEFAULT 'report' CHECK (purpose IN ('report', 'message')),
  name TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL REFERENCES evidence_blobs (sha256),
  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'uploading', 'uploaded', 'failed')),
  uploaded_bytes INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX evidence_by_report ON evidence (report_id, state);
CREATE INDEX evidence_by_blob ON evidence (sha256);

-- Full-text search. Contentless tables (the text already lives in the rows above) kept in sync
-- by triggers, so no repository can forget to index. Triggers delete, then insert: inside a
-- trigger fired by an UPSERT, FTS5's INSERT OR REPLACE keeps the old tokens.
${createReportIndex('messages')}
CREATE VIRTUAL TABLE programs_fts USING fts5 (name, customer, summary, policy, ${ftsOptions},
  prefix='2 3');

${createReportIndexSource('messages')}

CREATE TRIGGER reports_fts_insert AFTER INSERT ON reports BEGIN
  ${indexNow('seq = new.seq')}
END;
CREATE TRIGGER reports_fts_update AFTER UPDATE OF title ON reports
WHEN new.title IS NOT old.title BEGIN
  DELETE FROM reports_fts WHERE rowid = new.seq;
  ${indexNow('seq = new.seq')}
END;
CREATE TRIGGER report_documents_fts_insert AFTER INSERT ON report_documents BEGIN
  DELETE FROM reports_fts WHERE rowid = new.seq;
  ${indexNow('seq = new.seq')}
END;
-- Only a changed description changes the index (payout or status updates do not).
CREATE TRIGGER report_documents_fts_update AFTER UPDATE OF report_json ON report_documents
WHEN json_extract(new.report_json, '$.description')
  IS NOT json_extract(old.report_json, '$.description') BEGIN
  DELETE FROM reports_fts WHERE rowid = new.seq;
  ${indexNow('seq = new.seq')}
END;
CREATE TRIGGER reports_fts_delete AFTER DELETE ON reports BEGIN
  DELETE FROM reports_fts WHERE rowid = old.seq;
END;

CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
  DELETE FROM reports_fts WHERE rowid = (SELECT seq FROM reports WHERE id = new.report_id);
  ${indexNow('id = new.report_id')}
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF body ON messages
WHEN new.body IS NOT old.body BEGIN
  DELETE FROM reports_fts WHERE rowid = (SELECT seq FROM reports WHERE id = new.report_id);
  ${indexNow('id = new.report_id')}
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
  DELETE FROM reports_fts WHERE rowid = (SELECT seq FROM reports WHERE id = old.report_id);
  ${indexNow('id = old.report_id')}
END;

CREATE VIEW program_fts_source AS
SELECT seq, id, name,
  coalesce(json_extract(coalesce(program_json, summary_json), '$.customer_name'), '') AS customer,
  coalesce(json_extract(coalesce(program_json, summary_json), '$.summary'), '') AS summary,
  coalesce((SELECT group_concat(value, char(10)) FROM json_each(program_json)
    WHERE key IN ('description', 'scope', 'exclusions', 'rules', 'eligibility', 'disclosure')), '')
    AS policy
FROM programs;

CREATE TRIGGER programs_fts_insert AFTER INSERT ON programs BEGIN
  INSERT INTO programs_fts (rowid, name, customer, summary, policy)
  SELECT seq, name, customer, summary, policy FROM program_fts_source WHERE seq = new.seq;
END;
CREATE TRIGGER programs_fts_update AFTER UPDATE OF name, summary_json, program_json ON programs
WHEN new.name IS NOT old.name OR new.summary_json IS NOT old.summary_json
  OR new.program_json IS NOT old.program_json BEGIN
  DELETE FROM programs_fts WHERE rowid = new.seq;
  INSERT INTO programs_fts (rowid, name, customer, summary, policy)
  SELECT seq, name, customer, summary, policy FROM program_fts_source WHERE seq = new.seq;
END;
CREATE TRIGGER programs_fts_delete AFTER DELETE ON programs BEGIN
  DELETE FROM programs_fts WHERE rowid = old.seq;
END;
`;

export const initialSchema = sqlStep(1, 'initial schema', sql);

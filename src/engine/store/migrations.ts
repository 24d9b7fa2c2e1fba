import type Database from 'better-sqlite3';
import { cvssScore, statusRankSql, UNKNOWN_STATUS_RANK } from './report-order';
import { orderBucketSql } from './report-index-key';

/**
 * Forward-only schema steps. Version N is `migrations[N - 1]`; `PRAGMA user_version` records the
 * last applied step. Never edit a released step: add a new one.
 *
 * Secrets policy: no table has a column for the API key or any other credential. The account
 * table keeps only the key's scope; `test/store/schema.test.ts` checks every column name.
 */
export interface Migration {
  version: number;
  name: string;
  up(sqlite: Database.Database): void;
}

// Diacritics folded ("café" finds "cafe"). The report index has no prefix index: it doubled the
// cost of a bulk write, and prefix queries over one account's reports stay fast without it.
const ftsOptions = `content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'`;

const initialSchema = `
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

CREATE TABLE outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  report_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN
    ('save_draft', 'upload_file', 'remove_file', 'submit', 'withdraw', 'post_message')),
  payload_json TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'in_flight', 'done', 'parked')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL DEFAULT 0,   -- epoch ms
  last_error_json TEXT,
  local_id TEXT,                      -- post_message: client id of the message
  body_hash TEXT,                     -- post_message: fingerprint to look for in the thread
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
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
CREATE VIRTUAL TABLE reports_fts USING fts5 (title, description, messages, ${ftsOptions});
CREATE VIRTUAL TABLE programs_fts USING fts5 (name, customer, summary, policy, ${ftsOptions},
  prefix='2 3');

CREATE VIEW report_fts_source AS
SELECT r.seq, r.id, r.title,
  coalesce(json_extract(d.report_json, '$.description'), '') AS description,
  coalesce((SELECT group_concat(body, char(10)) FROM messages m WHERE m.report_id = r.id), '')
    AS messages
FROM reports r LEFT JOIN report_documents d ON d.seq = r.seq;

CREATE TRIGGER reports_fts_insert AFTER INSERT ON reports BEGIN
  INSERT INTO reports_fts (rowid, title, description, messages)
  SELECT seq, title, description, messages FROM report_fts_source WHERE seq = new.seq;
END;
CREATE TRIGGER reports_fts_update AFTER UPDATE OF title ON reports
WHEN new.title IS NOT old.title BEGIN
  DELETE FROM reports_fts WHERE rowid = new.seq;
  INSERT INTO reports_fts (rowid, title, description, messages)
  SELECT seq, title, description, messages FROM report_fts_source WHERE seq = new.seq;
END;
CREATE TRIGGER report_documents_fts_insert AFTER INSERT ON report_documents BEGIN
  DELETE FROM reports_fts WHERE rowid = new.seq;
  INSERT INTO reports_fts (rowid, title, description, messages)
  SELECT seq, title, description, messages FROM report_fts_source WHERE seq = new.seq;
END;
-- Only a changed description changes the index (payout or status updates do not).
CREATE TRIGGER report_documents_fts_update AFTER UPDATE OF report_json ON report_documents
WHEN json_extract(new.report_json, '$.description')
  IS NOT json_extract(old.report_json, '$.description') BEGIN
  DELETE FROM reports_fts WHERE rowid = new.seq;
  INSERT INTO reports_fts (rowid, title, description, messages)
  SELECT seq, title, description, messages FROM report_fts_source WHERE seq = new.seq;
END;
CREATE TRIGGER reports_fts_delete AFTER DELETE ON reports BEGIN
  DELETE FROM reports_fts WHERE rowid = old.seq;
END;

CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
  DELETE FROM reports_fts WHERE rowid = (SELECT seq FROM reports WHERE id = new.report_id);
  INSERT INTO reports_fts (rowid, title, description, messages)
  SELECT seq, title, description, messages FROM report_fts_source WHERE id = new.report_id;
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF body ON messages
WHEN new.body IS NOT old.body BEGIN
  DELETE FROM reports_fts WHERE rowid = (SELECT seq FROM reports WHERE id = new.report_id);
  INSERT INTO reports_fts (rowid, title, description, messages)
  SELECT seq, title, description, messages FROM report_fts_source WHERE id = new.report_id;
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
  DELETE FROM reports_fts WHERE rowid = (SELECT seq FROM reports WHERE id = old.report_id);
  INSERT INTO reports_fts (rowid, title, description, messages)
  SELECT seq, title, description, messages FROM report_fts_source WHERE id = old.report_id;
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

/**
 * Report search indexed outside the write. Indexing inside the triggers cost about 85% of a bulk
 * write: a new report was indexed twice (title on the reports row, then again with the document),
 * every message re-indexed its whole report, and each delete-then-insert flushed FTS5's pending
 * terms into a tiny segment. Now the triggers only queue the row (`reports_fts_pending`, written
 * in the same transaction, so a crash loses nothing) and `fts-index.ts` indexes each queued report
 * once, in batches, right after the write commits; a search first indexes whatever is still
 * queued, so it never misses a report. Deletes still happen at once.
 *
 * Invariant: every reports row is in `reports_fts`, or queued with `indexed = 0` (never indexed).
 * `indexed = 1` means the index holds an older version that must be deleted before re-indexing.
 * The upserts below use ON CONFLICT DO NOTHING so that a queued row keeps its flag (inside a
 * trigger, an OR IGNORE / OR REPLACE would be overridden by the outer statement's conflict policy).
 */
const deferredReportIndex = `
DROP TRIGGER reports_fts_insert;
DROP TRIGGER reports_fts_update;
DROP TRIGGER report_documents_fts_insert;
DROP TRIGGER report_documents_fts_update;
DROP TRIGGER reports_fts_delete;
DROP TRIGGER messages_fts_insert;
DROP TRIGGER messages_fts_update;
DROP TRIGGER messages_fts_delete;

-- Merge a segment away once half its rows are deleted (default 10%). A re-index deletes before it
-- inserts, so at 10% a sync that re-indexes 10,000 reports in batches rewrote the big segment on
-- nearly every batch (1.9 s of the 2.5 s of indexing); tombstones cost a search little.
INSERT INTO reports_fts (reports_fts, rank) VALUES ('deletemerge', 50);

CREATE TABLE reports_fts_pending (
  seq INTEGER PRIMARY KEY,            -- reports.seq, the rowid in reports_fts
  indexed INTEGER NOT NULL            -- 1: an older version is in the index (delete it first)
);

CREATE TRIGGER reports_fts_queue_insert AFTER INSERT ON reports BEGIN
  INSERT INTO reports_fts_pending (seq, indexed) VALUES (new.seq, 0)
  ON CONFLICT (seq) DO NOTHING;
END;
CREATE TRIGGER reports_fts_queue_update AFTER UPDATE OF title ON reports
WHEN new.title IS NOT old.title BEGIN
  INSERT INTO reports_fts_pending (seq, indexed) VALUES (new.seq, 1)
  ON CONFLICT (seq) DO NOTHING;
END;
CREATE TRIGGER report_documents_fts_queue_insert AFTER INSERT ON report_documents BEGIN
  INSERT INTO reports_fts_pending (seq, indexed) VALUES (new.seq, 1)
  ON CONFLICT (seq) DO NOTHING;
END;
-- Only a changed description changes the index (payout or status updates do not).
CREATE TRIGGER report_documents_fts_queue_update AFTER UPDATE OF report_json ON report_documents
WHEN json_extract(new.report_json, '$.description')
  IS NOT json_extract(old.report_json, '$.description') BEGIN
  INSERT INTO reports_fts_pending (seq, indexed) VALUES (new.seq, 1)
  ON CONFLICT (seq) DO NOTHING;
END;
-- A deleted report leaves the index at once (unless it never reached it) and the queue.
CREATE TRIGGER reports_fts_delete AFTER DELETE ON reports BEGIN
  DELETE FROM reports_fts WHERE rowid = (SELECT old.seq WHERE NOT EXISTS
    (SELECT 1 FROM reports_fts_pending p WHERE p.seq = old.seq AND p.indexed = 0));
  DELETE FROM reports_fts_pending WHERE seq = old.seq;
END;

CREATE TRIGGER messages_fts_queue_insert AFTER INSERT ON messages BEGIN
  INSERT INTO reports_fts_pending (seq, indexed)
  SELECT seq, 1 FROM reports WHERE id = new.report_id
  ON CONFLICT (seq) DO NOTHING;
END;
CREATE TRIGGER messages_fts_queue_update AFTER UPDATE OF body ON messages
WHEN new.body IS NOT old.body BEGIN
  INSERT INTO reports_fts_pending (seq, indexed)
  SELECT seq, 1 FROM reports WHERE id = new.report_id
  ON CONFLICT (seq) DO NOTHING;
END;
CREATE TRIGGER messages_fts_queue_delete AFTER DELETE ON messages BEGIN
  INSERT INTO reports_fts_pending (seq, indexed)
  SELECT seq, 1 FROM reports WHERE id = old.report_id
  ON CONFLICT (seq) DO NOTHING;
END;
`;

/**
 * One word per thing: the queued PUT of a draft is `save_report` (the API's operation), and it
 * carries no payload (the worker always sent the draft as it was at send time). A conflict is
 * `{ base, ours, theirs }` per field, as the merge and the UI name it. SQLite cannot change a
 * CHECK constraint in place, so the outbox is copied (ids and the AUTOINCREMENT counter kept).
 */
const oneVocabulary = `
CREATE TABLE outbox_next (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  report_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN
    ('save_report', 'upload_file', 'remove_file', 'submit', 'withdraw', 'post_message')),
  payload_json TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'in_flight', 'done', 'parked')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL DEFAULT 0,   -- epoch ms
  last_error_json TEXT,
  local_id TEXT,                      -- post_message: client id of the message
  body_hash TEXT,                     -- post_message: fingerprint to look for in the thread
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
INSERT INTO outbox_next
  SELECT id, report_id,
    CASE kind WHEN 'save_draft' THEN 'save_report' ELSE kind END,
    CASE kind WHEN 'save_draft' THEN '{}' ELSE payload_json END,
    state, attempts, next_attempt_at, last_error_json, local_id, body_hash, created_at, updated_at
  FROM outbox;
DELETE FROM sqlite_sequence WHERE name = 'outbox_next';
INSERT INTO sqlite_sequence (name, seq) SELECT 'outbox_next', seq FROM sqlite_sequence
  WHERE name = 'outbox';
DROP TABLE outbox;
ALTER TABLE outbox_next RENAME TO outbox;
CREATE INDEX outbox_open_by_report ON outbox (report_id, id) WHERE state <> 'done';

UPDATE drafts SET conflict_json = (
  SELECT json_group_object(c.key, json_object(
    'base', coalesce(json_extract(c.value, '$.base'), json_extract(drafts.base_json, '$.' || c.key), ''),
    'ours', json_extract(c.value, '$.local'),
    'theirs', json_extract(c.value, '$.remote')))
  FROM json_each(drafts.conflict_json) c)
WHERE conflict_json IS NOT NULL;
`;

/**
 * The reports list is paged, filtered and counted in SQL (report-list.ts), at 100,000 reports:
 * - `reports_list` replaces `reports_by_update`: the same order, plus the status, so a page deep in
 *   a list filtered by several statuses skips rows in the index alone (a temporary sort of every
 *   matching row took 44 ms at 100,000); the rowid (seq) in every index entry serves the search.
 * - `report_status_counts` is kept by triggers, so the total and the count of each status are
 *   read, not counted (a GROUP BY over 100,000 rows took 6 ms on every call). Upserts inside
 *   triggers as in migration 2; a status the API adds later gets its row on first use.
 */
const pagedList = `
CREATE INDEX reports_list ON reports (updated_ms DESC, id, status);
DROP INDEX reports_by_update;

CREATE TABLE report_status_counts (
  status TEXT PRIMARY KEY,
  n INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO report_status_counts (status, n) SELECT status, count(*) FROM reports GROUP BY status;

CREATE TRIGGER report_status_counts_insert AFTER INSERT ON reports BEGIN
  INSERT INTO report_status_counts (status, n) VALUES (new.status, 1)
  ON CONFLICT (status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER report_status_counts_update AFTER UPDATE OF status ON reports
WHEN new.status IS NOT old.status BEGIN
  UPDATE report_status_counts SET n = n - 1 WHERE status = old.status;
  INSERT INTO report_status_counts (status, n) VALUES (new.status, 1)
  ON CONFLICT (status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER report_status_counts_delete AFTER DELETE ON reports BEGIN
  UPDATE report_status_counts SET n = n - 1 WHERE status = old.status;
END;
`;

/**
 * A counter the triggers bump whenever something the inbox shows changes (a message, a report's
 * status, title or update time, whether a needs_info was seen, the threads read), so the inbox is
 * computed again only then (sync/inbox.ts). It was computed on every status the engine emits
 * (every saved draft, every report a sync writes): 34 ms at 10,000 reports, growing with them.
 */
const changeCounters = `
CREATE TABLE change_counters (
  name TEXT PRIMARY KEY,
  n INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO change_counters (name, n) VALUES ('inbox', 0);

CREATE TRIGGER inbox_changed_message_insert AFTER INSERT ON messages BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'inbox';
END;
CREATE TRIGGER inbox_changed_message_delete AFTER DELETE ON messages BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'inbox';
END;
CREATE TRIGGER inbox_changed_message_update AFTER UPDATE OF author, report_id ON messages BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'inbox';
END;
CREATE TRIGGER inbox_changed_report_insert AFTER INSERT ON reports BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'inbox';
END;
CREATE TRIGGER inbox_changed_report_delete AFTER DELETE ON reports BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'inbox';
END;
CREATE TRIGGER inbox_changed_report_update AFTER UPDATE ON reports
WHEN new.status IS NOT old.status OR new.needs_info_seen IS NOT old.needs_info_seen
  OR new.title IS NOT old.title OR new.updated_at IS NOT old.updated_at BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'inbox';
END;
CREATE TRIGGER inbox_changed_seen_insert AFTER INSERT ON sync_state
WHEN new.name = 'inbox.thread_seen' BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'inbox';
END;
CREATE TRIGGER inbox_changed_seen_update AFTER UPDATE ON sync_state
WHEN new.name = 'inbox.thread_seen' OR old.name = 'inbox.thread_seen' BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'inbox';
END;
CREATE TRIGGER inbox_changed_seen_delete AFTER DELETE ON sync_state
WHEN old.name = 'inbox.thread_seen' BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'inbox';
END;
`;

/**
 * The inbox's threads read, one row per report instead of one JSON object in `sync_state` that
 * was read and written whole for every report a sync wrote (thread-seen.ts). The counter of
 * migration 5 follows the table instead of the object.
 */
const threadSeen = `
CREATE TABLE thread_seen (
  report_id TEXT PRIMARY KEY,
  n INTEGER NOT NULL                  -- triage messages in the thread when it was last read
) WITHOUT ROWID;
INSERT INTO thread_seen (report_id, n)
  SELECT key, value FROM json_each(
    (SELECT value_json FROM sync_state WHERE name = 'inbox.thread_seen'))
  WHERE typeof(value) = 'integer';
DELETE FROM sync_state WHERE name = 'inbox.thread_seen';

DROP TRIGGER inbox_changed_seen_insert;
DROP TRIGGER inbox_changed_seen_update;
DROP TRIGGER inbox_changed_seen_delete;
CREATE TRIGGER inbox_changed_thread_seen_insert AFTER INSERT ON thread_seen BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'inbox';
END;
CREATE TRIGGER inbox_changed_thread_seen_update AFTER UPDATE ON thread_seen
WHEN new.n IS NOT old.n BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'inbox';
END;
CREATE TRIGGER inbox_changed_thread_seen_delete AFTER DELETE ON thread_seen BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'inbox';
END;
`;

/**
 * The reports list sorted by status, program or severity and filtered by program, in SQL at
 * 100,000 reports (report-list.ts). Each order walks an index that holds its keys and the
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

/**
 * The inbox reads only what is in it. Each report's thread carries its count of triage messages
 * (agent or program team), kept by triggers on `messages`, beside the count when it was last read
 * (`thread_seen` becomes `threads`); a partial index holds the unread threads. Computing the inbox
 * grouped every message by report and read every thread's row: 300 ms at 100,000 reports, again
 * after every saved draft the outbox sent (its update time changed). The authors counted are
 * those of sync/inbox.ts.
 */
const threadCounts = `
CREATE TABLE threads (
  report_id TEXT PRIMARY KEY,
  triage INTEGER NOT NULL DEFAULT 0,  -- messages from the agent or the program team
  seen INTEGER                        -- triage messages when last read; NULL until counted
) WITHOUT ROWID;
INSERT INTO threads (report_id, triage, seen)
  SELECT k.report_id, coalesce(c.n, 0), s.n
  FROM (SELECT report_id FROM thread_seen
        UNION SELECT report_id FROM messages WHERE author IN ('agent', 'founder')) k
  LEFT JOIN (SELECT report_id, count(*) AS n FROM messages
             WHERE author IN ('agent', 'founder') GROUP BY report_id) c ON c.report_id = k.report_id
  LEFT JOIN thread_seen s ON s.report_id = k.report_id;
DROP TRIGGER inbox_changed_thread_seen_insert;
DROP TRIGGER inbox_changed_thread_seen_update;
DROP TRIGGER inbox_changed_thread_seen_delete;
DROP TABLE thread_seen;
CREATE INDEX threads_unread ON threads (report_id) WHERE triage > seen;

CREATE TRIGGER threads_message_insert AFTER INSERT ON messages
WHEN new.author IN ('agent', 'founder') BEGIN
  INSERT INTO threads (report_id, triage) VALUES (new.report_id, 1)
  ON CONFLICT (report_id) DO UPDATE SET triage = triage + 1;
END;
CREATE TRIGGER threads_message_delete AFTER DELETE ON messages
WHEN old.author IN ('agent', 'founder') BEGIN
  UPDATE threads SET triage = triage - 1 WHERE report_id = old.report_id;
END;
CREATE TRIGGER threads_message_update AFTER UPDATE OF author, report_id ON messages BEGIN
  UPDATE threads SET triage = triage - 1
  WHERE report_id = old.report_id AND old.author IN ('agent', 'founder');
  INSERT INTO threads (report_id, triage)
  SELECT new.report_id, 1 WHERE new.author IN ('agent', 'founder')
  ON CONFLICT (report_id) DO UPDATE SET triage = triage + 1;
END;
CREATE TRIGGER inbox_changed_thread_read AFTER UPDATE OF seen ON threads
WHEN new.seen IS NOT old.seen BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'inbox';
END;
CREATE TRIGGER inbox_changed_thread_counted AFTER INSERT ON threads
WHEN new.seen IS NOT NULL BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'inbox';
END;
`;

/**
 * The report index merges its segments in steps of its own (fts-index.ts), not inside whichever
 * indexing batch happens to fill a level: at 100,000 reports those batches took 20–230 ms, and a
 * call waited for them.
 */
const indexMergedInSteps = `
INSERT INTO reports_fts (reports_fts, rank) VALUES ('automerge', 0);
`;

/**
 * The report index gains a `facets` column: each report's status and program as tokens
 * (report-facets.ts), so that FTS5 intersects a search with the list's filter. FTS5 cannot add a
 * column: the index is made again and every report queued for it; the background drain fills it
 * (about 12 s at 100,000 reports) while searches answer from what it holds and say how many
 * reports they could not see yet. A change of status or program queues its report again.
 */
const facetedReportIndex = `
DROP TABLE reports_fts;
CREATE VIRTUAL TABLE reports_fts USING fts5 (title, description, messages, facets, ${ftsOptions});
INSERT INTO reports_fts (reports_fts, rank) VALUES ('deletemerge', 50);
INSERT INTO reports_fts (reports_fts, rank) VALUES ('automerge', 0);

DROP VIEW report_fts_source;
CREATE VIEW report_fts_source AS
SELECT r.seq, r.id, r.title,
  coalesce(json_extract(d.report_json, '$.description'), '') AS description,
  coalesce((SELECT group_concat(body, char(10)) FROM messages m WHERE m.report_id = r.id), '')
    AS messages,
  's' || lower(hex(r.status)) || ' p' || lower(hex(r.program_id)) AS facets
FROM reports r LEFT JOIN report_documents d ON d.seq = r.seq;

CREATE TRIGGER reports_fts_queue_facets AFTER UPDATE OF status, program_id ON reports
WHEN new.status IS NOT old.status OR new.program_id IS NOT old.program_id BEGIN
  INSERT INTO reports_fts_pending (seq, indexed) VALUES (new.seq, 1)
  ON CONFLICT (seq) DO NOTHING;
END;

DELETE FROM reports_fts_pending;
INSERT INTO reports_fts_pending (seq, indexed) SELECT seq, 0 FROM reports;
`;

/**
 * The report index gains the asset (issue 20): the search box promised "title, asset,
 * description" and a unique asset word found nothing. Added as the last column (FTS5 cannot add
 * one: the index is made again and every report queued, as in migration 10); a changed asset
 * queues its report as a changed description does.
 */
const assetInReportIndex = `
DROP TABLE reports_fts;
CREATE VIRTUAL TABLE reports_fts USING fts5 (title, description, messages, facets, asset,
  ${ftsOptions});
INSERT INTO reports_fts (reports_fts, rank) VALUES ('deletemerge', 50);
INSERT INTO reports_fts (reports_fts, rank) VALUES ('automerge', 0);

DROP VIEW report_fts_source;
CREATE VIEW report_fts_source AS
SELECT r.seq, r.id, r.title,
  coalesce(json_extract(d.report_json, '$.description'), '') AS description,
  coalesce((SELECT group_concat(body, char(10)) FROM messages m WHERE m.report_id = r.id), '')
    AS messages,
  's' || lower(hex(r.status)) || ' p' || lower(hex(r.program_id)) AS facets,
  coalesce(json_extract(d.report_json, '$.asset'), '') AS asset
FROM reports r LEFT JOIN report_documents d ON d.seq = r.seq;

DROP TRIGGER report_documents_fts_queue_update;
CREATE TRIGGER report_documents_fts_queue_update AFTER UPDATE OF report_json ON report_documents
WHEN json_extract(new.report_json, '$.description')
  IS NOT json_extract(old.report_json, '$.description')
  OR json_extract(new.report_json, '$.asset') IS NOT json_extract(old.report_json, '$.asset') BEGIN
  INSERT INTO reports_fts_pending (seq, indexed) VALUES (new.seq, 1)
  ON CONFLICT (seq) DO NOTHING;
END;

DELETE FROM reports_fts_pending;
INSERT INTO reports_fts_pending (seq, indexed) SELECT seq, 0 FROM reports;
`;

/** Issue 25: the researcher's own description templates (names unique, any case). */
const researcherTemplates = `
CREATE TABLE templates (
  id         TEXT PRIMARY KEY,
  name       TEXT NOT NULL,
  body       TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX templates_by_name ON templates (name COLLATE NOCASE);
`;

/**
 * The mirror's counts (listed, stored in full, current, threads to fetch) as the status bar shows
 * them: counting them reads every report (78 ms of each draft save at 100,000 reports, since every
 * save emits the status). The counter moves when what they count changes, so the counts are kept
 * until then (store/reports.ts `countMirrored`).
 */
const mirrorCounter = `
INSERT INTO change_counters (name, n) VALUES ('mirror', 0);
CREATE TRIGGER mirror_changed_report_insert AFTER INSERT ON reports BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'mirror';
END;
CREATE TRIGGER mirror_changed_report_delete AFTER DELETE ON reports BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'mirror';
END;
CREATE TRIGGER mirror_changed_report_update AFTER UPDATE ON reports
WHEN new.has_full IS NOT old.has_full OR new.stale IS NOT old.stale
  OR new.status IS NOT old.status OR new.submitted_at IS NOT old.submitted_at BEGIN
  UPDATE change_counters SET n = n + 1 WHERE name = 'mirror';
END;
`;

/**
 * The report index's rowids follow the list's default order (report-index-key.ts): a new search's
 * first page reads about a page of hits in order instead of every hit (15 ms at 100,000 reports
 * for a word in a quarter of them). The rowid now changes with the update time, so
 * `reports_fts_rowids` keeps the one each report is indexed under (the drain and the delete trigger
 * delete by it), and a change of update time that moves a report to another bucket queues it
 * again. FTS5 cannot change rowids in place: the index is made again and every report queued, as
 * in migration 10 (searches answer meanwhile from what it holds and say how many they missed).
 */
const indexInListOrder = `
DROP TABLE reports_fts;
CREATE VIRTUAL TABLE reports_fts USING fts5 (title, description, messages, facets, asset,
  ${ftsOptions});
INSERT INTO reports_fts (reports_fts, rank) VALUES ('deletemerge', 50);
INSERT INTO reports_fts (reports_fts, rank) VALUES ('automerge', 0);

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

CREATE TRIGGER reports_fts_queue_order AFTER UPDATE OF updated_ms ON reports
WHEN ${orderBucketSql('new.updated_ms')} IS NOT ${orderBucketSql('old.updated_ms')} BEGIN
  INSERT INTO reports_fts_pending (seq, indexed) VALUES (new.seq, 1)
  ON CONFLICT (seq) DO NOTHING;
END;

DELETE FROM reports_fts_pending;
INSERT INTO reports_fts_pending (seq, indexed) SELECT seq, 0 FROM reports;
`;

export const migrations: readonly Migration[] = [
  { version: 1, name: 'initial schema', up: (sqlite) => sqlite.exec(initialSchema) },
  {
    version: 2,
    name: 'report search indexed after the write',
    up: (sqlite) => sqlite.exec(deferredReportIndex),
  },
  { version: 3, name: 'one vocabulary', up: (sqlite) => sqlite.exec(oneVocabulary) },
  { version: 4, name: 'reports list paged in SQL', up: (sqlite) => sqlite.exec(pagedList) },
  { version: 5, name: 'change counters', up: (sqlite) => sqlite.exec(changeCounters) },
  { version: 6, name: 'threads read, one row each', up: (sqlite) => sqlite.exec(threadSeen) },
  { version: 7, name: 'reports list sorted and filtered by program', up: sortedList },
  {
    version: 8,
    name: 'threads count their triage messages',
    up: (sqlite) => sqlite.exec(threadCounts),
  },
  {
    version: 9,
    name: 'report index merged in steps of its own',
    up: (sqlite) => sqlite.exec(indexMergedInSteps),
  },
  {
    version: 10,
    name: 'report index holds status and program',
    up: (sqlite) => sqlite.exec(facetedReportIndex),
  },
  {
    version: 11,
    name: 'report index holds the asset',
    up: (sqlite) => sqlite.exec(assetInReportIndex),
  },
  // issue 25
  { version: 12, name: 'researcher templates', up: (sqlite) => sqlite.exec(researcherTemplates) },
  // issue 21
  { version: 13, name: 'mirror counts kept', up: (sqlite) => sqlite.exec(mirrorCounter) },
  {
    version: 14,
    name: 'report index in the list order',
    up: (sqlite) => sqlite.exec(indexInListOrder),
  },
];

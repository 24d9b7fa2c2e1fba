/**
 * The outbox table, written once: migration 3 copies it under another name to change the CHECK
 * on `kind` (SQLite cannot change one in place). The text is what users' `sqlite_master` holds.
 */
export function createOutboxTable(table: string, kinds: readonly string[]): string {
  const kindList = kinds.map((kind) => `'${kind}'`).join(', ');
  return `CREATE TABLE ${table} (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  report_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN
    (${kindList})),
  payload_json TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'in_flight', 'done', 'parked')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL DEFAULT 0,   -- epoch ms
  last_error_json TEXT,
  local_id TEXT,                      -- post_message: client id of the message
  body_hash TEXT,                     -- post_message: fingerprint to look for in the thread
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);`;
}

/** The kinds of queued call other than saving the report, named the same in every version. */
export const outboxKindsAfterSave = [
  'upload_file',
  'remove_file',
  'submit',
  'withdraw',
  'post_message',
] as const;

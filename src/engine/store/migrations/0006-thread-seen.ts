import { bumpCounterOn } from './counter-sql';
import { sqlStep } from './migration';

/**
 * The inbox's threads read, one row per report instead of one JSON object in `sync_state` that
 * was read and written whole for every report a sync wrote (thread-seen.ts). The counter of
 * migration 5 follows the table instead of the object.
 */
const sql = `
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
${bumpCounterOn('inbox', [
  { trigger: 'inbox_changed_thread_seen_insert', after: 'INSERT ON thread_seen' },
  {
    trigger: 'inbox_changed_thread_seen_update',
    after: 'UPDATE ON thread_seen',
    when: 'new.n IS NOT old.n',
  },
  { trigger: 'inbox_changed_thread_seen_delete', after: 'DELETE ON thread_seen' },
])}
`;

export const threadSeen = sqlStep(6, 'threads read, one row each', sql);

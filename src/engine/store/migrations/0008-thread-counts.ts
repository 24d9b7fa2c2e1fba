import { bumpCounterOn } from './counter-sql';
import { sqlStep } from './migration';

/**
 * The inbox reads only what is in it. Each report's thread carries its count of triage messages
 * (agent or program team), kept by triggers on `messages`, beside the count when it was last read
 * (`thread_seen` becomes `threads`); a partial index holds the unread threads. Computing the inbox
 * grouped every message by report and read every thread's row: 300 ms at 100,000 reports, again
 * after every saved draft the outbox sent (its update time changed). The authors counted are
 * those of sync/inbox.ts.
 */
const sql = `
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
${bumpCounterOn('inbox', [
  {
    trigger: 'inbox_changed_thread_read',
    after: 'UPDATE OF seen ON threads',
    when: 'new.seen IS NOT old.seen',
  },
  {
    trigger: 'inbox_changed_thread_counted',
    after: 'INSERT ON threads',
    when: 'new.seen IS NOT NULL',
  },
])}
`;

export const threadCounts = sqlStep(8, 'threads count their triage messages', sql);

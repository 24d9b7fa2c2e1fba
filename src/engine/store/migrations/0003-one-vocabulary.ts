import { sqlStep } from './migration';
import { createOutboxTable, outboxKindsAfterSave } from './outbox-sql';

/**
 * One word per thing: the queued PUT of a draft is `save_report` (the API's operation), and it
 * carries no payload (the worker always sent the draft as it was at send time). A conflict is
 * `{ base, ours, theirs }` per field, as the merge and the UI name it. SQLite cannot change a
 * CHECK constraint in place, so the outbox is copied (ids and the AUTOINCREMENT counter kept).
 */
const sql = `
${createOutboxTable('outbox_next', ['save_report', ...outboxKindsAfterSave])}
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

export const oneVocabulary = sqlStep(3, 'one vocabulary', sql);

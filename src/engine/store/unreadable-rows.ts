import type { Logger } from '../log/logger';
import type { Db } from './database';
import { PAYLOAD_IS_EMPTY, type OutboxKind } from './outbox';

/**
 * Rows of JSON an older version wrote unreadable (its redaction ran over JSON text and ate
 * escapes): read as they are, each made every later send fail the same way, forever. At opening
 * they are repaired where what they held can be rebuilt, dropped where it cannot, each with a log
 * line; nothing else reads them first.
 *
 * - `sync_state`: a cache of what the app can learn again (unanswered saves, polling marks, kept
 *   findings): dropped.
 * - `outbox.last_error_json`: why the last attempt failed: cleared (the entry is tried again).
 * - `outbox.payload_json`: a save, submit or withdraw carries nothing (`{}`); any other kind
 *   cannot be rebuilt and is dropped (its report shows the file or message as not sent).
 */
export function repairUnreadableRows(db: Db, log: Logger): number {
  const sqlite = db.sqlite;
  const badState = sqlite
    .prepare<[], { name: string }>('SELECT name FROM sync_state WHERE NOT json_valid(value_json)')
    .all();
  const badErrors = sqlite
    .prepare<[], { id: number; report_id: string; kind: string }>(
      `SELECT id, report_id, kind FROM outbox
       WHERE last_error_json IS NOT NULL AND NOT json_valid(last_error_json)`,
    )
    .all();
  const badPayloads = sqlite
    .prepare<[], { id: number; report_id: string; kind: string }>(
      'SELECT id, report_id, kind FROM outbox WHERE NOT json_valid(payload_json)',
    )
    .all();
  if (badState.length + badErrors.length + badPayloads.length === 0) return 0;
  db.transaction(() => {
    const dropState = sqlite.prepare<[string]>('DELETE FROM sync_state WHERE name = ?');
    for (const { name } of badState) {
      dropState.run(name);
      log.warn('store', 'unreadable-row-dropped', { table: 'sync_state', name });
    }
    const clearError = sqlite.prepare<[number]>(
      'UPDATE outbox SET last_error_json = NULL WHERE id = ?',
    );
    for (const row of badErrors) {
      clearError.run(row.id);
      log.warn('store', 'unreadable-row-repaired', {
        table: 'outbox',
        column: 'last_error_json',
        entry: row.id,
        kind: row.kind,
        report: row.report_id,
      });
    }
    const emptyPayload = sqlite.prepare<[number]>(
      "UPDATE outbox SET payload_json = '{}' WHERE id = ?",
    );
    const dropEntry = sqlite.prepare<[number]>('DELETE FROM outbox WHERE id = ?');
    for (const row of badPayloads) {
      const fields = { table: 'outbox', entry: row.id, kind: row.kind, report: row.report_id };
      if (PAYLOAD_IS_EMPTY[row.kind as OutboxKind] === true) {
        emptyPayload.run(row.id);
        log.warn('store', 'unreadable-row-repaired', { ...fields, column: 'payload_json' });
      } else {
        dropEntry.run(row.id);
        log.warn('store', 'unreadable-row-dropped', fields);
      }
    }
  });
  return badState.length + badErrors.length + badPayloads.length;
}

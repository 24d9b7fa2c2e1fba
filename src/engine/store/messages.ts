import { createHash } from 'node:crypto';
import type { Db } from './database';
import type { Message, MessageFile } from './api-types';

/**
 * Identity of a message's content: sha256 over the body and the sorted file ids. Posting a
 * message is not idempotent, so before resending the outbox looks for this fingerprint among the
 * researcher's messages posted since its last attempt left (outbox/thread-mark.ts). Anywhere in
 * the thread is not enough: the website may have posted the same text before.
 */
export function messageFingerprint(body: string, fileIds: readonly string[]): string {
  const files = [...fileIds].sort().join(',');
  return createHash('sha256').update(body, 'utf8').update('\u0000').update(files).digest('hex');
}

/**
 * A fingerprint as `messages.fingerprint` holds it: the digest's 32 bytes, not its 64 hex
 * characters (about 60 bytes a report on disk at 10,000 bench reports). Rows written before stay
 * hex until their message changes; nothing compares stored fingerprints (the outbox fingerprints
 * the thread it has just fetched: outbox/thread-mark.ts), and `hex()` gives either form as hex.
 */
const storedFingerprint = (hex: string): Buffer => Buffer.from(hex, 'hex');

export interface MessagesRepository {
  /** The thread as GET /api/reports/{id}/messages returned it (oldest first), replacing the old one. */
  replaceThread(reportId: string, messages: readonly Message[]): void;
  /** Oldest first. */
  listThread(reportId: string): Message[];
}

interface MessageRow {
  id: string;
  author: Message['author'];
  body: string;
  at: string | null;
  attachments_json: string;
}

export function createMessagesRepository(db: Db): MessagesRepository {
  const sqlite = db.sqlite;
  const selectIds = sqlite.prepare<[string], { id: string }>(
    'SELECT id FROM messages WHERE report_id = ?',
  );
  const deleteOne = sqlite.prepare<[string, string]>(
    'DELETE FROM messages WHERE report_id = ? AND id = ?',
  );
  // Skips unchanged rows so a re-synced, unchanged thread does not re-index the report.
  const upsert = sqlite.prepare(`
    INSERT INTO messages (report_id, id, position, author, body, at, attachments_json, fingerprint)
    VALUES (@report_id, @id, @position, @author, @body, @at, @attachments_json, @fingerprint)
    ON CONFLICT (report_id, id) DO UPDATE SET
      position = excluded.position, author = excluded.author, body = excluded.body,
      at = excluded.at, attachments_json = excluded.attachments_json,
      fingerprint = excluded.fingerprint
    WHERE messages.position IS NOT excluded.position OR messages.author IS NOT excluded.author
      OR messages.body IS NOT excluded.body OR messages.at IS NOT excluded.at
      OR messages.attachments_json IS NOT excluded.attachments_json`);
  const selectThread = sqlite.prepare<[string], MessageRow>(
    'SELECT id, author, body, at, attachments_json FROM messages WHERE report_id = ? ORDER BY position',
  );

  return {
    replaceThread(reportId, messages) {
      db.transaction(() => {
        const keep = new Set(messages.map((message) => message.id));
        for (const { id } of selectIds.all(reportId))
          if (!keep.has(id)) deleteOne.run(reportId, id);
        messages.forEach((message, position) => {
          upsert.run({
            report_id: reportId,
            id: message.id,
            position,
            author: message.author,
            body: message.body,
            at: message.at,
            attachments_json: JSON.stringify(message.attachments),
            fingerprint: storedFingerprint(
              messageFingerprint(
                message.body,
                message.attachments.map((file) => file.id),
              ),
            ),
          });
        });
      });
    },

    listThread(reportId) {
      return selectThread.all(reportId).map((row) => ({
        id: row.id,
        author: row.author,
        body: row.body,
        at: row.at,
        attachments: JSON.parse(row.attachments_json) as MessageFile[],
      }));
    },
  };
}

/**
 * The `report_attachments` rows of the mirror: each mirrored report's files as the server lists
 * them, written again whole with every full report.
 */
import type Database from 'better-sqlite3';
import type { AttachmentState, Report } from './api-types';
import { bit } from './sql-values';

export interface StoredAttachment {
  report_id: string;
  file_id: string;
  name: string;
  size: number;
  content_type: string;
  sha256: string;
  state: AttachmentState;
  uploaded_at: string | null;
  reply: boolean | null;
  message_id: string | null;
}

export interface AttachmentRows {
  /** Replaces a report's rows with the attachments of its full form. */
  write(report: Report): void;
  list(reportId: string): StoredAttachment[];
}

/**
 * A file's SHA-256 as the row holds it: a digest in lowercase hex (what the API sends) as its 32
 * bytes, half the size (32 bytes a report at 10,000 bench reports); anything else, and rows
 * written before, as the text it is. `digestText` gives either back as the server sent it.
 */
const HEX_DIGEST = /^[0-9a-f]{64}$/;
const storedDigest = (sha256: string): string | Buffer =>
  HEX_DIGEST.test(sha256) ? Buffer.from(sha256, 'hex') : sha256;
const digestText = (stored: string | Uint8Array): string =>
  typeof stored === 'string' ? stored : Buffer.from(stored).toString('hex');

export function createAttachmentRows(sqlite: Database.Database): AttachmentRows {
  const deleteAttachments = sqlite.prepare<[string]>(
    'DELETE FROM report_attachments WHERE report_id = ?',
  );
  const insertAttachment = sqlite.prepare(`
    INSERT INTO report_attachments (report_id, file_id, name, size, content_type, sha256, state,
      uploaded_at, reply, message_id)
    VALUES (@report_id, @file_id, @name, @size, @content_type, @sha256, @state, @uploaded_at,
      @reply, @message_id)`);
  const selectAttachments = sqlite.prepare<
    [string],
    Omit<StoredAttachment, 'sha256' | 'reply'> & {
      sha256: string | Uint8Array;
      reply: number | null;
    }
  >('SELECT * FROM report_attachments WHERE report_id = ? ORDER BY name, file_id');
  return {
    write(report) {
      deleteAttachments.run(report.id);
      for (const [fileId, file] of Object.entries(report.attachments ?? {})) {
        insertAttachment.run({
          report_id: report.id,
          file_id: fileId,
          name: file.name,
          size: file.size,
          content_type: file.content_type,
          sha256: storedDigest(file.sha256),
          state: file.state,
          uploaded_at: file.uploaded_at ?? null,
          reply: file.reply === undefined || file.reply === null ? null : bit(file.reply),
          message_id: file.message_id ?? null,
        });
      }
    },
    list(reportId) {
      return selectAttachments.all(reportId).map((row) => ({
        ...row,
        sha256: digestText(row.sha256),
        reply: row.reply === null ? null : row.reply === 1,
      }));
    },
  };
}

/**
 * Evidence files of a report (part 4, Files). Attachment states chosen by the sandbox:
 * `uploading` while the body streams in, then `ready`; a client-side failure (too large, empty,
 * timeout, disconnect) removes the attachment again; a storage failure, or a restart in the middle
 * of an upload, leaves it `failed` (upload again under the same id, or delete it); `deleting` while
 * the bytes are removed.
 */
import type { Attachment } from '../api-types';
import { ApiError, invalidState, notFound } from '../errors';
import { isoOf } from '../clock';
import { findFileLinks } from '@shared/rules';
import { revisionConflict } from './reports';
import type { ReportRecord } from './types';
import { isTerminalStatus } from '@shared/api';
import type { World } from './world';

export const FILE_LIMITS = { draft: 10, pendingMessage: 10, total: 40 };

/** A folder separator or a control character (C0, DEL, C1). */
function hasSeparatorOrControl(name: string): boolean {
  for (const ch of name) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '/' || ch === '\\' || code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/** `name` query: 1 to 180 characters, no folder separator or control character. */
export function checkFileName(name: string | null): string {
  if (name === null) throw new ApiError(422, 'validation_error', 'name: is required');
  if (name.length < 1 || name.length > 180) {
    throw new ApiError(422, 'validation_error', 'name: must be 1 to 180 characters');
  }
  if (hasSeparatorOrControl(name) || name === '.' || name === '..') {
    throw new ApiError(
      422,
      'invalid_filename',
      'name: must not contain a folder separator or a control character',
    );
  }
  return name;
}

export const busy = (): ApiError =>
  new ApiError(409, 'file_busy', 'Another operation on this file is still running.');

export const isPendingMessageFile = (a: Attachment): boolean => !!a.reply && !a.message_id;

/** Checks before a new file id starts uploading; throws the matching error. */
export function checkNewUpload(r: ReportRecord, fileId: string, revision: number): void {
  if (r.revision !== revision) throw revisionConflict(r);
  const all = Object.entries(r.attachments).filter(([id]) => id !== fileId);
  const files = all.map(([, a]) => a);
  if (files.length >= FILE_LIMITS.total) {
    throw new ApiError(409, 'file_limit', `A report holds at most ${FILE_LIMITS.total} files.`);
  }
  if (r.status === 'draft' && files.length >= FILE_LIMITS.draft) {
    throw new ApiError(409, 'file_limit', `A draft holds at most ${FILE_LIMITS.draft} files.`);
  }
  if (
    r.status !== 'draft' &&
    files.filter(isPendingMessageFile).length >= FILE_LIMITS.pendingMessage
  ) {
    throw new ApiError(
      409,
      'file_limit',
      `At most ${FILE_LIMITS.pendingMessage} message files can wait to be sent.`,
    );
  }
}

export function checkUploadTarget(r: ReportRecord): void {
  if (isTerminalStatus(r.status)) {
    throw invalidState(`The report is ${r.status}; files can no longer be added.`);
  }
}

/** Starts an upload: the attachment appears as `uploading` and the revision increases. */
export function beginUpload(
  world: World,
  r: ReportRecord,
  fileId: string,
  name: string,
  contentType: string,
): Attachment {
  const ms = world.stamp();
  const attachment: Attachment = {
    name,
    size: 0,
    content_type: contentType,
    sha256: '',
    storage_path: '',
    state: 'uploading',
    started_at: isoOf(ms),
    uploaded_at: null,
    generation: null,
    reply: r.status !== 'draft',
    message_id: null,
  };
  r.attachments[fileId] = attachment;
  r.revision += 1;
  world.touch(r, ms);
  return attachment;
}

/** A generation: microseconds of the sandbox clock, unique per world. */
export function newGeneration(world: World, ms: number): string {
  return `${ms}${String(world.nextSeq() % 1000).padStart(3, '0')}`;
}

export const storagePathOf = (reportId: string, fileId: string, generation: string): string =>
  `reports/${reportId}/files/${fileId}/${generation}`;

export function completeUpload(
  world: World,
  r: ReportRecord,
  a: Attachment,
  result: { size: number; sha256: string; generation: string; storagePath: string },
): void {
  const ms = world.stamp();
  a.size = result.size;
  a.sha256 = result.sha256;
  a.generation = result.generation;
  a.storage_path = result.storagePath;
  a.uploaded_at = isoOf(ms);
  a.state = 'ready';
  r.revision += 1;
  world.touch(r, ms);
}

/** A failed upload: removed (client's fault) or kept as `failed` (storage's fault). */
export function failUpload(world: World, r: ReportRecord, fileId: string, keep: boolean): void {
  const a = r.attachments[fileId];
  if (!a) return;
  if (keep) a.state = 'failed';
  else removeAttachment(r, fileId);
  r.revision += 1;
  world.touch(r);
}

/** Checks for `DELETE .../files/{file_id}`; returns the attachment to remove. */
export function checkDelete(r: ReportRecord, fileId: string, revision: number): Attachment {
  const a = r.attachments[fileId];
  if (!a) throw notFound('File not found.');
  if (r.status !== 'draft') {
    if (isTerminalStatus(r.status) || !isPendingMessageFile(a)) {
      throw invalidState('Submitted files and sent files do not change.');
    }
  }
  if (a.state === 'uploading' || a.state === 'deleting') throw busy();
  if (r.revision !== revision) throw revisionConflict(r);
  if (r.status === 'draft' && findFileLinks(r.description).some((l) => l.fileId === fileId)) {
    throw new ApiError(
      409,
      'file_referenced',
      'Remove the links to this file from the description first.',
    );
  }
  return a;
}

function removeAttachment(r: ReportRecord, fileId: string): void {
  r.attachments = Object.fromEntries(Object.entries(r.attachments).filter(([id]) => id !== fileId));
}

export function finishDelete(world: World, r: ReportRecord, fileId: string): void {
  removeAttachment(r, fileId);
  r.revision += 1;
  world.touch(r);
}

/** A ready file of the report (draft file, submitted file or message file). */
export function readyFile(r: ReportRecord, fileId: string): Attachment | undefined {
  const a = r.attachments[fileId] ?? r.submission?.attachments[fileId];
  return a && a.state === 'ready' ? a : undefined;
}

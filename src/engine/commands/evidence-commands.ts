import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { LIMITS } from '@shared/api';
import { contentOf } from '@shared/bridge/draft-content';
import type { EvidenceImageView } from '@shared/bridge/evidence-views';
import type { EvidenceView } from '@shared/bridge/views';
import { rasterTypeOf } from '../evidence/images';
import { insertFileLink, removeFileLinks } from '@shared/rules';
import type { Store } from '../store';
import { EngineInputError } from './errors';
import { takeFiles, uploadPayload } from './incoming-files';
import { adoptDraft, queueDraftChange, queueSave, serverDraft } from './local-drafts';
import { requireWritable, USER, type SessionContext } from './session-context';
import { toEvidenceView } from './to-views';

/** A file the user handed over, and where its link goes in the description. */
export interface FileInput {
  path: string;
  insertAt?: number;
}

/** Evidence files: copied and hashed locally, uploaded by the outbox, removed, downloaded. */
export class EvidenceCommands {
  readonly #ctx: SessionContext;

  constructor(ctx: SessionContext) {
    this.#ctx = ctx;
  }

  /**
   * Copies evidence into the local store (hashing it), links it in the description at `insertAt`
   * when given, and queues the uploads before the save that carries the links. Every file is
   * checked first and everything is queued in one transaction: a call that fails leaves nothing
   * queued, nothing linked and nothing to upload.
   */
  async attachFiles(reportId: string, files: FileInput[]): Promise<EvidenceView[]> {
    requireWritable(this.#ctx);
    const { store } = this.#ctx;
    const draftNow = (): void => {
      if (!store.drafts.get(reportId) && !serverDraft(store, reportId)) {
        throw new EngineInputError('report_id', 'only a draft takes evidence');
      }
    };
    draftNow();
    const incoming = await takeFiles(
      store,
      files.map((f) => f.path),
    );
    const added = store.db.transaction(() => {
      draftNow();
      const room = LIMITS.draftFiles - draftFileIds(store, reportId).size;
      if (incoming.length > room) {
        throw new EngineInputError(
          'files',
          `a draft holds at most ${LIMITS.draftFiles} files; ${Math.max(0, room)} more fit`,
        );
      }
      const draft = adoptDraft(store, reportId);
      if (!draft) throw new EngineInputError('report_id', 'only a draft takes evidence');
      let description = draft.description;
      const linked = incoming.map((file, i) => {
        const fileId = randomUUID();
        const evidence = store.evidence.link({ reportId, fileId, ...file, purpose: 'report' });
        queueDraftChange(store, {
          reportId,
          kind: 'upload_file',
          payload: uploadPayload(fileId, file, evidence),
        });
        const insertAt = files[i]?.insertAt;
        if (insertAt !== undefined) {
          description = insertFileLink(description, insertAt, {
            name: file.name,
            reportId,
            fileId,
            image: file.contentType.startsWith('image/'),
          });
        }
        return toEvidenceView(evidence);
      });
      if (description !== draft.description) {
        store.drafts.setContent(reportId, draft.programId, { ...contentOf(draft), description });
        queueSave(store, reportId);
      }
      return linked;
    });
    this.#ctx.kick();
    return added;
  }

  /** Links go first (a save), then the file: the server refuses to remove a linked file. */
  removeFile(reportId: string, fileId: string): void {
    requireWritable(this.#ctx);
    const { store } = this.#ctx;
    store.db.transaction(() => {
      const draft = adoptDraft(store, reportId);
      if (draft) {
        const description = removeFileLinks(draft.description, fileId);
        if (description !== draft.description) {
          store.drafts.setContent(reportId, draft.programId, { ...contentOf(draft), description });
          queueSave(store, reportId);
        }
      }
      // A file never tried only needs its queued upload cancelled. Once an attempt was made, the
      // server may hold the file even though no answer came back (a dropped connection after
      // the upload was carried out), so the removal must be sent.
      const queuedUpload = store.outbox
        .list({ reportId })
        .find(
          (e) =>
            e.kind === 'upload_file' &&
            e.state === 'pending' &&
            e.attempts === 0 &&
            (e.payload as { file_id: string }).file_id === fileId,
        );
      const onServer = store.reports.getReport(reportId)?.attachments[fileId];
      if (queuedUpload && !onServer) {
        store.outbox.cancel(queuedUpload.id);
        store.evidence.remove(fileId);
        return;
      }
      queueDraftChange(store, { reportId, kind: 'remove_file', payload: { file_id: fileId } });
    });
    this.#ctx.kick();
  }

  /** Saves a file to `destination`. Evidence may be hostile: it is never opened. */
  async downloadFile(
    reportId: string,
    fileId: string,
    destination: string,
  ): Promise<{ savedTo: string }> {
    const result = await this.#ctx.api.downloadFile(reportId, fileId, destination, USER);
    return { savedTo: result.path };
  }

  /**
   * The local copy of an evidence image, for the page to show as a `data:` URL. Only bytes that
   * are PNG, JPEG, GIF or WebP are returned, whatever the file's name or declared type: an SVG
   * (or anything else) is never handed to the page as an image.
   */
  async getEvidenceImage(reportId: string, fileId: string): Promise<EvidenceImageView | null> {
    const file = this.#ctx.store.evidence.get(fileId);
    if (!file || file.reportId !== reportId) return null;
    const bytes = await readFile(this.#ctx.store.evidence.blobPath(file.sha256)).catch(() => null);
    const contentType = bytes ? rasterTypeOf(bytes) : null;
    if (!bytes || !contentType) return null;
    return { contentType, base64: bytes.toString('base64') };
  }
}

/**
 * The draft's files as far as this client knows: those on the server (the mirror) and those
 * queued to go there, less those queued for removal. The server allows 10 on a draft.
 */
function draftFileIds(store: Store, reportId: string): Set<string> {
  const attachments = store.reports.getReport(reportId)?.attachments ?? {};
  const ids = new Set(
    Object.entries(attachments)
      .filter(([, a]) => a.reply !== true)
      .map(([id]) => id),
  );
  for (const file of store.evidence.listForReport(reportId)) {
    if (file.purpose === 'report') ids.add(file.fileId);
  }
  for (const entry of store.outbox.list({ reportId })) {
    if (entry.kind === 'remove_file') ids.delete((entry.payload as { file_id: string }).file_id);
  }
  return ids;
}

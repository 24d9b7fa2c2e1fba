import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { contentOf } from '../../shared/bridge/draft-content';
import type { EvidenceView } from '../../shared/bridge/views';
import { insertFileLink, removeFileLinks } from '../../shared/rules';
import { validateFile } from '../domain/validate';
import { contentTypeFor } from './content-type';
import { EngineInputError } from './errors';
import { adoptDraft, queueDraftChange, queueSave } from './local-drafts';
import { requireWritable, USER, type SessionContext } from './session-context';
import { toEvidenceView } from './views';

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
   * when given, and queues the upload before the save that carries the link.
   */
  async attachFiles(
    reportId: string,
    files: FileInput[],
    purpose: 'report' | 'message' = 'report',
  ): Promise<EvidenceView[]> {
    requireWritable(this.#ctx);
    const { store } = this.#ctx;
    const draft = adoptDraft(store, reportId);
    if (purpose === 'report' && !draft)
      throw new EngineInputError('report_id', 'only a draft takes evidence');
    const added: EvidenceView[] = [];
    for (const file of files) {
      const name = basename(file.path);
      const info = await stat(file.path);
      const first = validateFile({ name, size: info.size })[0];
      if (first) throw new EngineInputError(`file "${name}"`, first.message);
      const fileId = randomUUID();
      const evidence = await store.evidence.add({
        reportId,
        fileId,
        name,
        contentType: contentTypeFor(name),
        sourcePath: file.path,
        purpose,
      });
      store.db.transaction(() => {
        queueDraftChange(store, {
          reportId,
          kind: 'upload_file',
          payload: {
            file_id: fileId,
            name,
            content_type: evidence.contentType,
            size: evidence.size,
            sha256: evidence.sha256,
          },
        });
        const current = store.drafts.get(reportId);
        if (purpose === 'report' && current && file.insertAt !== undefined) {
          const description = insertFileLink(current.description, file.insertAt, {
            name,
            reportId,
            fileId,
            image: evidence.contentType.startsWith('image/'),
          });
          store.drafts.setContent(reportId, current.programId, {
            ...contentOf(current),
            description,
          });
          queueSave(store, reportId);
        }
      });
      added.push(toEvidenceView(evidence));
    }
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
}

import type { EvidenceFile, OutboxEntry, Store, StoredBlob } from '../store';

/**
 * Message evidence (files uploaded to wait as "pending message files" until a message sends them)
 * belongs to the open message that lists it. The server keeps at most 10 pending message files
 * per report, so a file no open message will send must not stay there: it is reused when the
 * user sends the same content again, and otherwise deleted.
 */

const ofKind =
  <K extends OutboxEntry['kind']>(kind: K) =>
  (entry: OutboxEntry): entry is OutboxEntry<K> =>
    entry.kind === kind;

/** File ids an open (pending, in flight or parked) message will send. */
export function claimedMessageFiles(open: readonly OutboxEntry[]): Set<string> {
  return new Set(open.filter(ofKind('post_message')).flatMap((e) => e.payload.files));
}

function openEntryFor<K extends 'upload_file' | 'remove_file'>(
  open: readonly OutboxEntry[],
  kind: K,
  fileId: string,
): OutboxEntry<K> | undefined {
  return open.filter(ofKind(kind)).find((e) => e.payload.file_id === fileId);
}

/** Nothing was ever tried: the server cannot have it, and cancelling is all it takes. */
const untried = (entry: OutboxEntry): boolean => entry.state === 'pending' && entry.attempts === 0;

/**
 * Releases message evidence no open message claims (a discarded message, or files an earlier
 * version uploaded for a reply it then refused): an upload never tried is cancelled; a file that
 * may be on the server is deleted. Returns how many files were released.
 */
export function releaseAbandonedMessageFiles(store: Store): number {
  return store.db.transaction(() => {
    const open = store.outbox.list();
    const claimed = claimedMessageFiles(open);
    let released = 0;
    for (const file of store.evidence.listByPurpose('message')) {
      if (claimed.has(file.fileId) || openEntryFor(open, 'remove_file', file.fileId)) continue;
      released++;
      const upload = openEntryFor(open, 'upload_file', file.fileId);
      if (upload && (untried(upload) || upload.state === 'parked')) {
        // A parked upload got a definite refusal; an earlier attempt may still have landed, so
        // the removal below goes out for it too (404 when there is nothing to remove).
        store.outbox.cancel(upload.id);
        if (untried(upload)) {
          store.evidence.remove(file.fileId);
          continue;
        }
      }
      store.outbox.enqueue({
        reportId: file.reportId,
        kind: 'remove_file',
        payload: { file_id: file.fileId },
      });
    }
    return released;
  });
}

/**
 * An unclaimed message file of this report with exactly this content and name, which the server
 * holds or will hold, to send again instead of uploading a copy. A removal already queued for it
 * is cancelled if it was never tried; one that was tried may have deleted it, so it is not reused.
 * Call inside the transaction that queues the message.
 */
export function reuseMessageFile(
  store: Store,
  reportId: string,
  wanted: { name: string; contentType: string; blob: StoredBlob },
  taken: ReadonlySet<string>,
): EvidenceFile | null {
  const open = store.outbox.list({ reportId });
  const claimed = claimedMessageFiles(open);
  for (const file of store.evidence.listForReport(reportId)) {
    if (file.purpose !== 'message' || claimed.has(file.fileId) || taken.has(file.fileId)) continue;
    if (file.state === 'failed') continue;
    if (
      file.sha256 !== wanted.blob.sha256 ||
      file.name !== wanted.name ||
      file.contentType !== wanted.contentType
    ) {
      continue;
    }
    const removal = openEntryFor(open, 'remove_file', file.fileId);
    if (removal && !untried(removal)) continue;
    if (removal) store.outbox.cancel(removal.id);
    return file;
  }
  return null;
}

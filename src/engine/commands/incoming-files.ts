import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { validateFile } from '../domain/validate';
import type { OutboxPayloads, Store, StoredBlob } from '../store';
import { contentTypeFor } from './content-type';
import { EngineInputError } from './errors';

/** A file the user handed over, copied into the evidence store and checked; not linked yet. */
export interface IncomingFile {
  name: string;
  contentType: string;
  blob: StoredBlob;
}

function check(name: string, size: number): void {
  const first = validateFile({ name, size })[0];
  // The field is the kind of input; the sentence names the file, as the page's own refusals do.
  if (first) throw new EngineInputError('file', `"${name}": ${first.message}`);
}

/**
 * Every file of one call is checked before any of them is kept, so a call refused for one file
 * queues nothing for the others. Sizes are checked twice: on disk first (a 2 GB file is refused
 * without being copied), then on the copy, which is what will be uploaded. Copies of a refused
 * call are unlinked bytes that the evidence store's garbage collection removes.
 */
export async function takeFiles(store: Store, paths: readonly string[]): Promise<IncomingFile[]> {
  for (const path of paths) {
    const name = basename(path);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) throw new EngineInputError('file', `"${name}" cannot be read`);
    check(name, info.size);
  }
  const taken: IncomingFile[] = [];
  for (const path of paths) {
    const name = basename(path);
    const blob = await store.evidence.importFile(path);
    check(name, blob.size);
    taken.push({ name, contentType: contentTypeFor(name), blob });
  }
  return taken;
}

/** The queued upload of a file taken and linked under `fileId`. */
export function uploadPayload(
  fileId: string,
  file: IncomingFile,
  stored: { size: number; sha256: string },
): OutboxPayloads['upload_file'] {
  return {
    file_id: fileId,
    name: file.name,
    content_type: file.contentType,
    size: stored.size,
    sha256: stored.sha256,
  };
}

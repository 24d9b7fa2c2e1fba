import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { imageWithoutMetadata } from '../evidence/images';
import type { Db } from './database';
import { camelCased } from './sql-values';

export type EvidenceState = 'queued' | 'uploading' | 'uploaded' | 'failed';
/** A file for the draft itself, or evidence waiting to be sent with a message. */
export type EvidencePurpose = 'report' | 'message';

export interface EvidenceFile {
  fileId: string;
  reportId: string;
  purpose: EvidencePurpose;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  state: EvidenceState;
  uploadedBytes: number;
  createdAt: string;
  updatedAt: string;
}

export interface AddEvidenceInput {
  reportId: string;
  /** UUIDv4 chosen by the client; the upload's `file_id`. */
  fileId: string;
  name: string;
  contentType: string;
  sourcePath: string;
  purpose?: EvidencePurpose;
}

export interface StoredBlob {
  sha256: string;
  size: number;
  path: string;
}

/** A file already copied into the store (`importFile`), to be linked to a report. */
export interface LinkEvidenceInput extends Omit<AddEvidenceInput, 'sourcePath'> {
  blob: StoredBlob;
}

export interface EvidenceRepository {
  /** Copies a file into the content-addressed store, hashing while streaming. Dedupes. */
  importFile(sourcePath: string): Promise<StoredBlob>;
  /** Imports the file and links it to a report as `queued`. */
  add(input: AddEvidenceInput): Promise<EvidenceFile>;
  /**
   * Links an imported blob to a report as `queued`. No I/O: a caller can link several files and
   * queue their uploads in one transaction, so a refused call leaves nothing behind.
   */
  link(input: LinkEvidenceInput): EvidenceFile;
  blobPath(sha256: string): string;
  get(fileId: string): EvidenceFile | null;
  listForReport(reportId: string): EvidenceFile[];
  /** Every report's files of one purpose (e.g. message evidence not sent yet). */
  listByPurpose(purpose: EvidencePurpose): EvidenceFile[];
  /** Files of a report not uploaded yet (queued, uploading or failed). */
  listPending(reportId: string): EvidenceFile[];
  setState(fileId: string, state: EvidenceState): void;
  setProgress(fileId: string, uploadedBytes: number): void;
  /**
   * Points a file not uploaded yet at other bytes (a redacted copy): the upload sends them, and
   * the original bytes are left to collectGarbage.
   */
  replaceBlob(fileId: string, blob: StoredBlob): void;
  /** Unlinks a file from its report; the bytes stay until collectGarbage. */
  remove(fileId: string): void;
  /** Deletes stored files no report links to any more; returns how many were deleted. */
  collectGarbage(options?: { graceMs?: number }): Promise<number>;
}

interface EvidenceRow {
  file_id: string;
  report_id: string;
  purpose: EvidencePurpose;
  name: string;
  content_type: string;
  size: number;
  sha256: string;
  state: EvidenceState;
  uploaded_bytes: number;
  created_at: string;
  updated_at: string;
}

/** Every column maps by name: `evidence` holds no encoded values. */
function toFile(row: EvidenceRow): EvidenceFile {
  return camelCased(row);
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** `<dataDir>/evidence/<aa>/<sha256>`: two-character fan-out keeps directories small. */
export function createEvidenceRepository(db: Db, dataDir: string): EvidenceRepository {
  const root = join(dataDir, 'evidence');
  const tmpDir = join(root, 'tmp');
  const sqlite = db.sqlite;
  const insertBlob = sqlite.prepare<[string, number, string]>(
    'INSERT OR IGNORE INTO evidence_blobs (sha256, size, created_at) VALUES (?, ?, ?)',
  );
  const insertLink = sqlite.prepare(`
    INSERT INTO evidence (file_id, report_id, purpose, name, content_type, size, sha256,
      created_at, updated_at)
    VALUES (@file_id, @report_id, @purpose, @name, @content_type, @size, @sha256, @at, @at)`);
  const selectOne = sqlite.prepare<[string], EvidenceRow>(
    'SELECT * FROM evidence WHERE file_id = ?',
  );
  const selectForReport = sqlite.prepare<[string], EvidenceRow>(
    'SELECT * FROM evidence WHERE report_id = ? ORDER BY created_at, file_id',
  );
  const selectByPurpose = sqlite.prepare<[EvidencePurpose], EvidenceRow>(
    'SELECT * FROM evidence WHERE purpose = ? ORDER BY created_at, file_id',
  );
  const selectPending = sqlite.prepare<[string], EvidenceRow>(
    `SELECT * FROM evidence WHERE report_id = ? AND state <> 'uploaded' ORDER BY created_at, file_id`,
  );
  const updateState = sqlite.prepare<[{ state: EvidenceState; at: string; file_id: string }]>(
    `UPDATE evidence SET state = @state,
       uploaded_bytes = CASE @state WHEN 'uploaded' THEN size WHEN 'queued' THEN 0
         ELSE uploaded_bytes END,
       updated_at = @at WHERE file_id = @file_id`,
  );
  const updateProgress = sqlite.prepare<[number, string, string]>(
    'UPDATE evidence SET uploaded_bytes = min(size, max(0, ?)), updated_at = ? WHERE file_id = ?',
  );
  const deleteLink = sqlite.prepare<[string]>('DELETE FROM evidence WHERE file_id = ?');
  const updateBlob = sqlite.prepare<[string, number, string, string]>(
    `UPDATE evidence SET sha256 = ?, size = ?, uploaded_bytes = 0, updated_at = ?
     WHERE file_id = ? AND state <> 'uploaded'`,
  );
  const selectOrphans = sqlite.prepare<[], { sha256: string }>(
    'SELECT sha256 FROM evidence_blobs WHERE sha256 NOT IN (SELECT sha256 FROM evidence)',
  );
  const selectLinked = sqlite.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM evidence WHERE sha256 = ?',
  );
  const deleteBlob = sqlite.prepare<[string]>('DELETE FROM evidence_blobs WHERE sha256 = ?');

  function blobPath(sha256: string): string {
    if (!SHA256_HEX.test(sha256)) throw new Error('not a sha256 hex digest');
    return join(root, sha256.slice(0, 2), sha256);
  }

  /**
   * Images are stored (and so uploaded and shown) without their metadata: EXIF with the GPS
   * position, XMP, PNG text chunks. Every other file is copied byte for byte.
   */
  async function importFile(sourcePath: string): Promise<StoredBlob> {
    await mkdir(tmpDir, { recursive: true });
    const clean = await imageWithoutMetadata(sourcePath, tmpDir);
    if (!clean) return importCopy(sourcePath);
    try {
      return await importCopy(clean);
    } finally {
      await rm(clean, { force: true });
    }
  }

  async function importCopy(sourcePath: string): Promise<StoredBlob> {
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, `${randomUUID()}.part`);
    const hash = createHash('sha256');
    let size = 0;
    try {
      await pipeline(
        createReadStream(sourcePath),
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            hash.update(chunk);
            size += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(tmp, { flags: 'wx' }),
      );
      // The rename must never publish a file whose bytes are still only in the page cache.
      const handle = await open(tmp, 'r+');
      await handle.sync().finally(() => handle.close());
      const sha256 = hash.digest('hex');
      const path = blobPath(sha256);
      if (await exists(path)) {
        await rm(tmp, { force: true });
        // Fresh mtime: collectGarbage's grace period now protects the bytes about to be linked.
        const now = new Date();
        await utimes(path, now, now);
      } else {
        await mkdir(join(root, sha256.slice(0, 2)), { recursive: true });
        await rename(tmp, path);
      }
      insertBlob.run(sha256, size, new Date().toISOString());
      return { sha256, size, path };
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }

  function link(input: LinkEvidenceInput): EvidenceFile {
    insertLink.run({
      file_id: input.fileId,
      report_id: input.reportId,
      purpose: input.purpose ?? 'report',
      name: input.name,
      content_type: input.contentType,
      size: input.blob.size,
      sha256: input.blob.sha256,
      at: new Date().toISOString(),
    });
    return toFile(selectOne.get(input.fileId) as EvidenceRow);
  }

  return {
    importFile,

    async add(input) {
      const { sourcePath, ...rest } = input;
      return link({ ...rest, blob: await importFile(sourcePath) });
    },
    link,

    blobPath,
    get(fileId) {
      const row = selectOne.get(fileId);
      return row ? toFile(row) : null;
    },
    listForReport: (reportId) => selectForReport.all(reportId).map(toFile),
    listByPurpose: (purpose) => selectByPurpose.all(purpose).map(toFile),
    listPending: (reportId) => selectPending.all(reportId).map(toFile),
    setState: (fileId, state) =>
      void updateState.run({ state, at: new Date().toISOString(), file_id: fileId }),
    setProgress: (fileId, bytes) =>
      void updateProgress.run(Math.trunc(bytes), new Date().toISOString(), fileId),
    replaceBlob: (fileId, blob) =>
      void updateBlob.run(blob.sha256, blob.size, new Date().toISOString(), fileId),
    remove: (fileId) => void deleteLink.run(fileId),

    async collectGarbage(options = {}) {
      const graceMs = options.graceMs ?? 60 * 60 * 1000;
      let deleted = 0;
      for (const { sha256 } of selectOrphans.all()) {
        const path = blobPath(sha256);
        const info = await stat(path).catch(() => null);
        if (info && Date.now() - info.mtimeMs < graceMs) continue;
        // Re-check after the await: an add() may have linked the same bytes meanwhile.
        if ((selectLinked.get(sha256)?.n ?? 0) > 0) continue;
        deleteBlob.run(sha256);
        await rm(path, { force: true });
        deleted++;
      }
      // Leftovers of imports interrupted by a crash.
      for (const name of await readdir(tmpDir).catch(() => [] as string[])) {
        const path = join(tmpDir, name);
        const info = await stat(path).catch(() => null);
        if (info && Date.now() - info.mtimeMs >= graceMs) await rm(path, { force: true });
      }
      return deleted;
    },
  };
}

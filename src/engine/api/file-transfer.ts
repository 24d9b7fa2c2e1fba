/**
 * The two calls that stream bytes instead of JSON: an upload read from disk (again from the start
 * on every attempt) and a download written under a temporary name, renamed when complete.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Report } from '@shared/api';
import type { ApiClient, FetchOutcome } from './client';

const UPLOAD_CHUNK_BYTES = 1024 * 1024;

export interface UploadSource {
  /** File on disk; read again from the start on every attempt. */
  path: string;
  name: string;
  contentType?: string;
  revision: number;
  onProgress?: (sentBytes: number, totalBytes: number) => void;
}

export interface DownloadResult {
  path: string;
  bytes: number;
}

/** One attempt of `uploadFile`: streams the file from disk. */
export async function sendUpload(
  client: ApiClient,
  reportId: string,
  fileId: string,
  source: UploadSource,
  signal: AbortSignal,
): Promise<FetchOutcome<Report>> {
  const { size } = await stat(source.path);
  // Large chunks: a 10 MiB upload in ten writes instead of 160 keeps it close to a plain fetch.
  const file = createReadStream(source.path, { highWaterMark: UPLOAD_CHUNK_BYTES });
  let ended = false;
  const counter = progressCounter(size, (sent, total) => {
    // A chunk read after the attempt ended (aborted, or answered before the body was read) is
    // not progress: the session may already have closed the store the callback writes to.
    if (!ended && !signal.aborted) source.onProgress?.(sent, total);
  });
  const body = Readable.toWeb(file.pipe(counter)) as ReadableStream<Uint8Array>;
  try {
    return await putFile(client, reportId, fileId, source, size, body, signal);
  } finally {
    ended = true;
    file.destroy();
    counter.destroy();
  }
}

function putFile(
  client: ApiClient,
  reportId: string,
  fileId: string,
  source: UploadSource,
  size: number,
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): Promise<FetchOutcome<Report>> {
  return client.PUT('/api/reports/{report_id}/files/{file_id}', {
    params: {
      path: { report_id: reportId, file_id: fileId },
      query: { name: source.name, revision: source.revision },
    },
    // The contract types the body as bytes; a stream avoids holding up to 10 MiB in memory.
    body: body as unknown as Uint8Array,
    bodySerializer: (raw: unknown) => raw,
    headers: {
      'Content-Type': source.contentType ?? 'application/octet-stream',
      'Content-Length': String(size),
    },
    // Node's fetch sends a stream body only in half-duplex mode.
    duplex: 'half',
    signal,
  });
}

/** One attempt of `downloadFile`: streams the file to `destination`. */
export async function receiveDownload(
  client: ApiClient,
  reportId: string,
  fileId: string,
  destination: string,
  signal: AbortSignal,
): Promise<FetchOutcome<DownloadResult>> {
  const outcome = await client.GET('/api/reports/{report_id}/files/{file_id}', {
    params: { path: { report_id: reportId, file_id: fileId } },
    parseAs: 'stream',
    signal,
  });
  if (!outcome.response.ok) return { error: outcome.error, response: outcome.response };
  const partial = `${destination}.${randomUUID()}.part`;
  let bytes = 0;
  try {
    const source = outcome.data
      ? Readable.fromWeb(outcome.data as NodeReadableStream)
      : Readable.from([]);
    await pipeline(
      source,
      progressCounter(Number.NaN, (sent) => (bytes = sent)),
      createWriteStream(partial),
      {
        signal,
      },
    );
    await rename(partial, destination);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { data: { path: destination, bytes }, response: outcome.response };
}

/** Passes bytes through and reports the running total. */
function progressCounter(
  total: number,
  onProgress?: (sent: number, total: number) => void,
): Transform {
  let sent = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sent += chunk.length;
      onProgress?.(sent, total);
      done(null, chunk);
    },
  });
}

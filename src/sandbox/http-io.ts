/**
 * Reading request bodies with the size and time limits of part 8, and writing JSON responses.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, ClientGone, validationError } from './errors';

export const JSON_BODY_LIMIT = 256 * 1024;
export const FILE_BODY_LIMIT = 10 * 1024 * 1024;

export interface BodyLimits {
  maxBytes: number;
  timeoutMs: number;
  /** Sees every chunk as it arrives (hashing a file while it streams in). */
  onChunk?: (chunk: Buffer) => void;
}

const tooLarge = (max: number): ApiError =>
  new ApiError(413, 'too_large', `The body is over the limit of ${max} bytes.`);

/** Content-Length when the client sent one. */
export function declaredLength(req: IncomingMessage): number | undefined {
  const raw = req.headers['content-length'];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Reads the whole body. Rejects with `413 too_large` as soon as the limit is passed, with
 * `408 request_timeout` when the body takes too long, or ClientGone when the client disconnects.
 */
export function readBody(req: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = declaredLength(req);
    if (declared !== undefined && declared > limits.maxBytes) {
      reject(tooLarge(limits.maxBytes));
      return;
    }
    // The client may be gone before the body is read (an injected latency, a killed client):
    // its `close` has fired already and would never fire again, leaving a file `uploading`.
    if (!req.complete && (req.destroyed || req.socket?.destroyed)) {
      reject(new ClientGone());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('close', onClose);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limits.maxBytes) {
        finish(tooLarge(limits.maxBytes));
        return;
      }
      limits.onChunk?.(chunk);
      chunks.push(chunk);
    };
    const onEnd = (): void => finish();
    const onGone = (): void => finish(new ClientGone());
    const onClose = (): void => {
      if (!req.complete) finish(new ClientGone());
    };
    const timer = setTimeout(
      () => finish(new ApiError(408, 'request_timeout', 'The body took too long to send.')),
      limits.timeoutMs,
    );
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('close', onClose);
  });
}

/** Parses a JSON body; an empty body is `undefined`. */
export async function readJson(req: IncomingMessage, timeoutMs: number): Promise<unknown> {
  const bytes = await readBody(req, { maxBytes: JSON_BODY_LIMIT, timeoutMs });
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    throw validationError('body: is not valid JSON');
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

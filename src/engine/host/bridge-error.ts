import { ENGINE_CODES, type BridgeError } from '@shared/errors/error-data';
import { describeError } from '@shared/errors/describe-error';
import { isApiError } from '../api/errors';
import { redactKeys } from '@shared/api/redact';
import { DiskFullError, storageProblem } from '../store/storage-errors';

/** An error that already crossed a process boundary as plain data: it passes on unchanged. */
export class RemoteError extends Error {
  constructor(readonly plain: BridgeError) {
    super(plain.message);
    this.name = plain.name;
  }
}

/**
 * Any failure as the one plain shape every boundary carries (BridgeError), built here and nowhere
 * else: the code and field are the error's own properties, never read back out of its message.
 * Never a stack, never a cause chain, never anything key-shaped.
 */
export function toBridgeError(error: unknown): BridgeError {
  if (error instanceof RemoteError) return clean(error.plain);
  // SQLite's "database or disk is full" or Node's ENOSPC: the disk's, in the researcher's words.
  if (storageProblem(error) === 'disk-full' && !(error instanceof DiskFullError)) {
    return toBridgeError(new DiskFullError());
  }
  if (isApiError(error)) {
    const view = describeError(error);
    return clean({
      name: error.name,
      code: error.code,
      message: `${view.title}. ${view.advice}`,
      ...(error.detail ? { detail: error.detail } : {}),
      ...(error.retryAfterMs !== undefined
        ? { retryAfter: Math.ceil(error.retryAfterMs / 1000) }
        : {}),
      status: error.status,
      ...(error.requestId !== undefined ? { requestId: error.requestId } : {}),
    });
  }
  if (error instanceof Error) {
    const { field, code, status, detail } = error as {
      field?: unknown;
      code?: unknown;
      status?: unknown;
      detail?: unknown;
    };
    return clean({
      name: error.name,
      code: ownCode(code),
      message: error.message,
      ...(typeof field === 'string' ? { field } : {}),
      ...(typeof detail === 'string' && detail ? { detail } : {}),
      ...(typeof status === 'number' ? { status } : {}),
    });
  }
  return { name: 'Error', code: ENGINE_CODES.unexpected, message: 'Something went wrong.' };
}

/**
 * The app's and the API's codes are snake_case words; Node's system codes (`ENOENT`, `EACCES`)
 * and SQLite's (`SQLITE_IOERR`) are causes, not something the renderer or CLI decides on.
 */
function ownCode(code: unknown): string {
  return typeof code === 'string' && /^[a-z]+(?:_[a-z]+)*$/u.test(code)
    ? code
    : ENGINE_CODES.unexpected;
}

function clean(error: BridgeError): BridgeError {
  const out: BridgeError = {
    name: redactKeys(error.name).slice(0, 100),
    code: ownCode(error.code),
    message: redactKeys(error.message).slice(0, 2000),
  };
  if (error.field !== undefined) out.field = redactKeys(error.field).slice(0, 200);
  if (error.detail !== undefined) out.detail = redactKeys(error.detail).slice(0, 2000);
  if (error.retryAfter !== undefined && Number.isFinite(error.retryAfter)) {
    out.retryAfter = error.retryAfter;
  }
  if (error.status !== undefined) out.status = error.status;
  if (error.requestId !== undefined) out.requestId = redactKeys(error.requestId).slice(0, 200);
  return out;
}

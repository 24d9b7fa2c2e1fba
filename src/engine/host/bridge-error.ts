import type { BridgeError } from '../../shared/bridge/contract';
import { describeError } from '../../shared/errors/describe-error';
import { isApiError } from '../api/errors';
import { redactKeys } from '../../shared/api/redact';
import { DiskFullError, storageProblem } from '../store/storage-errors';

/** An error that already crossed a process boundary as plain data: it passes on unchanged. */
export class RemoteError extends Error {
  constructor(readonly plain: BridgeError) {
    super(plain.message);
    this.name = plain.name;
  }
}

/**
 * Any failure as plain data for the renderer: name, message and the fields that say what to do
 * (field, code, status, requestId). Never a stack, never a cause chain, never anything key-shaped.
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
      message: `${view.title}. ${view.advice}`,
      code: error.code,
      status: error.status,
      requestId: error.requestId,
    });
  }
  if (error instanceof Error) {
    const { field, code } = error as { field?: unknown; code?: unknown };
    return clean({
      name: error.name,
      message: error.message,
      field: typeof field === 'string' ? field : undefined,
      code: typeof code === 'string' && /^[a-z_]+$/.test(code) ? code : undefined,
    });
  }
  return { name: 'Error', message: 'Something went wrong.' };
}

function clean(error: BridgeError): BridgeError {
  const out: BridgeError = {
    name: redactKeys(error.name).slice(0, 100),
    message: redactKeys(error.message).slice(0, 2000),
  };
  if (error.field !== undefined) out.field = redactKeys(error.field).slice(0, 200);
  if (error.code !== undefined) out.code = error.code;
  if (error.status !== undefined) out.status = error.status;
  if (error.requestId !== undefined) out.requestId = error.requestId;
  return out;
}

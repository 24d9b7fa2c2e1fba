/**
 * Whatever a bridge call throws, in words a researcher understands with what to do next.
 *
 * A failed call rejects with a BridgeError (the engine built it; main and the preload carry it as
 * data): the words follow its `code`, and an input error names its `field`. Nothing is read back
 * out of a message. Anything else thrown here (a bug of the page itself) is `unexpected`.
 */
import type { ErrorView } from '@shared/bridge/views';
import { errorWords } from '@shared/errors/describe-error';
import { ENGINE_CODES, isBridgeError, type BridgeError } from '@shared/errors/error-data';
import { ownValue } from '@shared/lookup/own';

export interface FieldError {
  field: string;
  message: string;
}

/** What the page holds of a thrown value: the BridgeError itself, or one made of a local Error. */
export function errorData(error: unknown): BridgeError {
  if (isBridgeError(error)) return error;
  if (isViewLike(error)) return { name: 'Error', ...error, message: error.advice };
  const message =
    error instanceof Error ? error.message : typeof error === 'string' ? error : String(error);
  return { name: 'Error', code: ENGINE_CODES.unexpected, message };
}

/** A refusal the page makes itself about an input (a dropped file it cannot read), as data. */
export function inputError(field: string, message: string): BridgeError {
  return { name: 'InputError', code: ENGINE_CODES.invalidInput, field, message };
}

/** The sentence of an error, for places that show one line. */
export function messageOf(error: unknown): string {
  return errorData(error).message;
}

/** The input an error names (`serverUrl`, `title`…), with what is wrong with it, if any. */
export function fieldErrorOf(error: unknown): FieldError | null {
  const data = errorData(error);
  return data.field === undefined ? null : { field: data.field, message: data.message };
}

/** An ErrorView handed over whole (the engine's stored `lastError`, a view kept by a store). */
function isViewLike(v: unknown): v is ErrorView {
  if (!v || typeof v !== 'object') return false;
  const view = v as Partial<ErrorView>;
  return (
    typeof view.code === 'string' &&
    typeof view.title === 'string' &&
    typeof view.advice === 'string' &&
    typeof view.status === 'number'
  );
}

export function thrownErrorView(error: unknown): ErrorView {
  if (isViewLike(error)) return error;
  const data = errorData(error);
  const status = data.status ?? 0;
  const words = errorWords(data.code);
  if (words) {
    return {
      status,
      code: data.code,
      title: words.title,
      advice: words.advice,
      ...(data.requestId && status >= 500 ? { requestId: data.requestId } : {}),
    };
  }
  if (data.field !== undefined) {
    return {
      status: 0,
      code: data.code,
      field: data.field,
      title: `Check ${humanField(data.field)}`,
      advice: data.message,
    };
  }
  // No status: the app itself failed here (no server involved); its sentence is all there is.
  if (data.status === undefined) {
    return {
      status: 0,
      code: data.code,
      title: 'Something went wrong',
      advice: data.message || 'Try again. If it keeps happening, restart the app.',
    };
  }
  return {
    status,
    code: data.code,
    title:
      status === 0 ? 'Something failed on this computer' : `The server refused it (HTTP ${status})`,
    advice: data.detail || data.message || 'Try again later.',
    ...(data.requestId && status >= 500 ? { requestId: data.requestId } : {}),
  };
}

const FIELD_NAMES: Record<string, string> = {
  serverUrl: 'the server URL',
  apiKey: 'the API key',
  title: 'the title',
  asset: 'the asset',
  description: 'the description',
  cvss_vector: 'the CVSS vector',
  body: 'the reply',
  files: 'the files',
  program_id: 'the program',
  entry_id: 'the unsent change',
};

export function humanField(field: string): string {
  return ownValue(FIELD_NAMES, field) ?? field;
}

/**
 * An error that only says the server cannot be reached now. Offline is a state the app works in
 * (the status bar shows it, work waits to be sent): it is never shown as an error alert.
 */
export function isConnectivityError(error: Pick<ErrorView, 'code' | 'status'>): boolean {
  return error.code === 'network_error' || error.code === 'timeout' || error.status === 0;
}

/** The researcher's disk refused a write (the engine's `disk_full`): retried, never lost. */
export function isDiskFull(error: unknown): boolean {
  return errorData(error).code === ENGINE_CODES.diskFull;
}

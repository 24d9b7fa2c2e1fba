/**
 * Whatever a bridge call throws, in words a researcher understands with what to do next.
 *
 * Errors reach the renderer in several shapes: an ErrorView-like object (a test bridge or a main
 * process that forwards one), an Error whose message carries a JSON ErrorView, or an Error whose
 * message is "<field>: <problem>" (input checks of the engine). Electron prefixes messages of
 * rejected IPC calls with "Error invoking remote method '<channel>': "; that prefix is removed.
 */
import type { ErrorView } from '../../../shared/bridge/views';
import { errorWords } from '../../../shared/errors/describe-error';
import { ownValue } from '../../../shared/lookup/own';

export interface FieldError {
  field: string;
  message: string;
}

const IPC_PREFIX = /^Error invoking remote method '[^']*':\s*/u;
const ERROR_NAME_PREFIX = /^(?:[A-Za-z]*Error:\s*)+/u;

/** The message of an error, without Electron's IPC prefix and leading error names. */
export function cleanMessage(error: unknown): string {
  const raw =
    error instanceof Error
      ? error.message
      : typeof error === 'string'
        ? error
        : error && typeof error === 'object' && 'message' in error
          ? String((error as { message: unknown }).message)
          : String(error);
  return raw.replace(IPC_PREFIX, '').replace(ERROR_NAME_PREFIX, '').trim();
}

function isErrorViewLike(v: unknown): v is Partial<ErrorView> & { code: string } {
  return !!v && typeof v === 'object' && typeof (v as { code?: unknown }).code === 'string';
}

function fromFields(v: Partial<ErrorView> & { code: string; detail?: string }): ErrorView {
  const words = errorWords(v.code);
  const status = typeof v.status === 'number' ? v.status : 0;
  const requestId = typeof v.requestId === 'string' ? v.requestId : undefined;
  return {
    status,
    code: v.code,
    title:
      typeof v.title === 'string'
        ? v.title
        : (words?.title ??
          (status === 0
            ? 'Something failed on this computer'
            : `The server refused it (HTTP ${status})`)),
    advice:
      typeof v.advice === 'string'
        ? v.advice
        : (words?.advice ?? detailOf(v) ?? 'Try again later.'),
    ...(requestId && status >= 500 ? { requestId } : {}),
  };
}

function detailOf(v: { detail?: unknown; message?: unknown }): string | null {
  if (typeof v.detail === 'string' && v.detail) return v.detail;
  if (typeof v.message === 'string' && v.message) return cleanMessage(v.message);
  return null;
}

function parseJsonObject(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
}

/** The field an input error names ("serverUrl: not a URL"), if any. */
export function fieldErrorOf(error: unknown): FieldError | null {
  if (error && typeof error === 'object' && typeof (error as FieldError).field === 'string') {
    return {
      field: (error as FieldError).field,
      message: cleanMessage(error).replace(/^[^:]+:\s*/u, ''),
    };
  }
  const message = cleanMessage(error);
  const m = /^([A-Za-z_][\w]*|file "[^"]*"):\s+(.+)$/su.exec(message);
  if (!m || !m[1] || !m[2]) return null;
  if (errorWords(m[1])) return null;
  return { field: m[1], message: m[2] };
}

export function thrownErrorView(error: unknown): ErrorView {
  if (isErrorViewLike(error)) return fromFields(error);
  const message = cleanMessage(error);
  const parsed = parseJsonObject(message);
  if (isErrorViewLike(parsed)) return fromFields(parsed);
  const code = /\b([a-z]+(?:_[a-z]+)+|unauthenticated|forbidden|busy)\b/u.exec(message)?.[1];
  if (code && errorWords(code)) return fromFields({ code, detail: message });
  if (/ECONNREFUSED|ENOTFOUND|fetch failed|network/iu.test(message)) {
    return fromFields({ code: 'network_error' });
  }
  const field = fieldErrorOf(error);
  if (field) {
    return {
      status: 0,
      code: 'input',
      title: `Check ${humanField(field.field)}`,
      advice: field.message,
    };
  }
  return {
    status: 0,
    code: 'unexpected',
    title: 'Something went wrong',
    advice: message || 'Try again. If it keeps happening, restart the app.',
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
  return thrownErrorView(error).code === 'disk_full';
}

/**
 * Whatever a bridge call throws, in words a researcher understands with what to do next.
 *
 * Errors reach the renderer in several shapes: an ErrorView-like object (a test bridge or a main
 * process that forwards one), an Error whose message carries a JSON ErrorView, or an Error whose
 * message is "<field>: <problem>" (input checks of the engine). Electron prefixes messages of
 * rejected IPC calls with "Error invoking remote method '<channel>': "; that prefix is removed.
 */
import type { ErrorView } from '../../../shared/bridge/views';

const WORDS: Record<string, { title: string; advice: string }> = {
  unauthenticated: {
    title: 'Your API key is not accepted',
    advice:
      'It may be deleted, expired or revoked. Create a new key on the website and connect again.',
  },
  email_unverified: {
    title: 'Your e-mail is not verified',
    advice: 'Open the verification link we sent you (Account → Send verification e-mail).',
  },
  read_only_key: {
    title: 'This key can only read',
    advice: 'Connect with a key that has the write scope to change anything.',
  },
  session_required: {
    title: 'This needs the website',
    advice: 'Do this step on the website, signed in with your password.',
  },
  forbidden: { title: 'Not allowed', advice: 'This action is for the program team only.' },
  payments_not_ready: {
    title: 'Your payout account is not ready',
    advice: 'Finish payment onboarding on the website, then refresh the payments status.',
  },
  not_found: {
    title: 'Not found',
    advice: 'It may have been removed, or it is not yours. Sync and try again.',
  },
  invalid_state: {
    title: 'Not possible in the current status',
    advice: 'The report changed meanwhile. Sync to see its current status.',
  },
  request_timeout: {
    title: 'The upload took too long',
    advice: 'Check your connection; it is sent again automatically.',
  },
  revision_conflict: {
    title: 'The report changed elsewhere',
    advice: 'Your changes are merged automatically; if both sides changed a field you choose.',
  },
  program_closed: {
    title: 'The program does not accept reports',
    advice: 'Keep the draft and submit when intake opens again.',
  },
  pool_low: {
    title: 'The program paused new reports',
    advice: 'Its reward pool is low. Keep the draft and try again later.',
  },
  active_limit: {
    title: 'You already have five active reports',
    advice: 'Wait for a decision on one of them, or withdraw one, then submit.',
  },
  file_limit: {
    title: 'Too many files',
    advice: 'Remove a file first: a draft holds at most 10 files.',
  },
  file_busy: { title: 'The file is busy', advice: 'Wait for its upload to finish and try again.' },
  file_conflict: {
    title: 'A different file has this id',
    advice: 'Remove the file and attach it again.',
  },
  file_referenced: {
    title: 'The file is still linked',
    advice: 'Remove its links from the description first.',
  },
  files_pending: {
    title: 'Uploads are not finished',
    advice: 'Wait until every file shows "Uploaded", then submit.',
  },
  file_not_ready: {
    title: 'A file is not uploaded yet',
    advice: 'The message waits until its files are uploaded.',
  },
  key_limit: { title: 'Too many API keys', advice: 'Delete an old key on the website.' },
  onboarding_in_progress: {
    title: 'Onboarding already started',
    advice: 'Wait a minute and try again.',
  },
  too_large: { title: 'The file is too large', advice: 'Files may be at most 10 MiB.' },
  incomplete_report: {
    title: 'The report is incomplete',
    advice: 'Fill in the title, the asset and text below every template heading.',
  },
  invalid_filename: {
    title: 'The file name is not allowed',
    advice: 'Rename the file without folder separators or control characters.',
  },
  empty_file: { title: 'The file is empty', advice: 'Attach a file with content.' },
  invalid_file_reference: {
    title: 'The description links to a missing file',
    advice: 'Remove the link, or attach the file again.',
  },
  validation_error: { title: 'Something is not valid', advice: 'Check the highlighted fields.' },
  rate_limited: {
    title: 'Too many requests',
    advice: 'The app waits and sends again automatically.',
  },
  internal_error: {
    title: 'The server had an unexpected error',
    advice: 'Try again later. If it keeps happening, quote the request ID to support.',
  },
  busy: { title: 'The server is busy', advice: 'It is sent again automatically in a moment.' },
  storage_unavailable: {
    title: 'The server could not store files',
    advice: 'Uploads are retried automatically.',
  },
  storage_unconfigured: {
    title: 'The server has no file storage',
    advice: 'Contact the service; files cannot be uploaded now.',
  },
  payments_unconfigured: {
    title: 'Payouts are not set up on the server',
    advice: 'Contact the service.',
  },
  payments_unavailable: {
    title: 'The payment provider did not answer',
    advice: 'Refresh the payments status in a minute.',
  },
  email_unconfigured: {
    title: 'The server cannot send e-mail',
    advice: 'Contact the service.',
  },
  email_unavailable: { title: 'The e-mail was not sent', advice: 'Try again in a minute.' },
  network_error: {
    title: 'No connection to the server',
    advice: 'You are offline. Your work is kept and sent when the connection returns.',
  },
};

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
  const words = WORDS[v.code];
  const status = typeof v.status === 'number' ? v.status : 0;
  const requestId = typeof v.requestId === 'string' ? v.requestId : undefined;
  return {
    status,
    code: v.code,
    title: typeof v.title === 'string' ? v.title : (words?.title ?? `Unexpected error (${v.code})`),
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
  if (WORDS[m[1]]) return null;
  return { field: m[1], message: m[2] };
}

export function toErrorView(error: unknown): ErrorView {
  if (isErrorViewLike(error)) return fromFields(error);
  const message = cleanMessage(error);
  const parsed = parseJsonObject(message);
  if (isErrorViewLike(parsed)) return fromFields(parsed);
  const code = /\b([a-z]+(?:_[a-z]+)+|unauthenticated|forbidden|busy)\b/u.exec(message)?.[1];
  if (code && WORDS[code]) return fromFields({ code, detail: message });
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
};

export function humanField(field: string): string {
  return FIELD_NAMES[field] ?? field;
}

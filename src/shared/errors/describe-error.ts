import type { ErrorView } from '../bridge/views';

/**
 * Words for every error code of the API document (part 7), with what the researcher can do next.
 * One table for the whole app: the engine describes the errors it stores, the renderer the ones a
 * call throws.
 */
const WORDS: Record<string, { title: string; advice: string }> = {
  unauthenticated: {
    title: 'The API key is not accepted',
    advice:
      'It may have expired, been deleted, or ended by a password change. Create a new key on the website and sign in again.',
  },
  email_unverified: {
    title: 'Your e-mail address is not verified',
    advice: 'Send the verification e-mail from the Account screen and open the link it contains.',
  },
  read_only_key: {
    title: 'This key can only read',
    advice: 'Sign in with a key of scope "write" to make changes.',
  },
  session_required: {
    title: 'This needs the website',
    advice: 'Do this step on the website while signed in; an API key cannot.',
  },
  forbidden: { title: 'Not allowed', advice: 'This action is for the program team only.' },
  payments_not_ready: {
    title: 'Your payout account is not ready',
    advice: 'Finish payment onboarding on the website, then refresh the payments status.',
  },
  not_found: {
    title: 'Not found',
    advice: 'It no longer exists or is not yours. Sync to refresh your local copy.',
  },
  invalid_state: {
    title: 'Not possible in the current status',
    advice: 'The report changed status. Sync to see its current state.',
  },
  request_timeout: {
    title: 'The upload took too long',
    advice: 'Check your connection; the app will try again.',
  },
  revision_conflict: {
    title: 'The report changed elsewhere',
    advice: 'Your changes are merged with the newer version; check the conflict view if asked.',
  },
  program_closed: {
    title: 'The program does not accept reports',
    advice: 'Its intake is not open. Keep the draft and submit when it reopens.',
  },
  pool_low: {
    title: 'The program paused new reports',
    advice: 'Its reward pool is low. Keep the draft and submit when it resumes.',
  },
  active_limit: {
    title: 'Five reports are already active',
    advice: 'Wait for one of your active reports to get a decision, or withdraw one.',
  },
  file_limit: {
    title: 'Too many files',
    advice: 'A draft holds 10 files, pending message files 10, a report 40 in all. Remove one.',
  },
  file_busy: {
    title: 'The file is still being processed',
    advice: 'The app will try again in a moment.',
  },
  file_conflict: {
    title: 'A different file already has this id',
    advice: 'Remove the evidence and attach it again.',
  },
  file_referenced: {
    title: 'The description still links to this file',
    advice: 'Remove the links to the file from the description first.',
  },
  files_pending: {
    title: 'Uploads are not finished',
    advice: 'Wait until every evidence file shows as uploaded.',
  },
  file_not_ready: {
    title: 'A message file is not uploaded yet',
    advice: 'Wait until the file shows as uploaded, then send.',
  },
  key_limit: { title: 'Too many API keys', advice: 'Delete an unused key on the website.' },
  onboarding_in_progress: {
    title: 'Payment onboarding has just started',
    advice: 'Wait a minute before starting it again.',
  },
  too_large: { title: 'Too large', advice: 'Files are limited to 10 MiB.' },
  incomplete_report: {
    title: 'The report is incomplete',
    advice:
      'Fill in the title and asset, and write text below every template heading of the description.',
  },
  invalid_filename: {
    title: 'The file name is not allowed',
    advice: 'Rename the file: no folder separators or control characters, 1 to 180 characters.',
  },
  empty_file: { title: 'The file is empty', advice: 'Attach a file that has content.' },
  invalid_file_reference: {
    title: 'The description links to a file that is not uploaded',
    advice: 'Wait for the upload to finish, or remove the link.',
  },
  validation_error: {
    title: 'A field is not valid',
    advice: 'Correct the field named in the details.',
  },
  rate_limited: {
    title: 'Too many requests',
    advice: 'The app waits and tries again by itself.',
  },
  internal_error: {
    title: 'The service had an unexpected error',
    advice: 'Try again later. If it persists, quote the request ID shown here to support.',
  },
  busy: { title: 'The service is busy', advice: 'The app waits and tries again by itself.' },
  storage_unavailable: {
    title: 'File storage is unavailable',
    advice: 'The app tries again later.',
  },
  storage_unconfigured: {
    title: 'File storage is not set up on the server',
    advice: 'Contact the service; evidence cannot be uploaded for now.',
  },
  payments_unconfigured: {
    title: 'Payments are not set up on the server',
    advice: 'Contact the service.',
  },
  payments_unavailable: {
    title: 'The payment provider did not answer',
    advice: 'Try again in a few minutes.',
  },
  email_unconfigured: {
    title: 'The server cannot send e-mail',
    advice: 'Contact the service.',
  },
  email_unavailable: {
    title: 'The e-mail was not sent',
    advice: 'Try again in a minute.',
  },
  network_error: {
    title: 'No connection to the server',
    advice: 'You are offline. Your work is kept and sent when the connection returns.',
  },
  timeout: {
    title: 'The server did not answer in time',
    advice: 'Your work is kept and sent again automatically.',
  },
  // Not API codes: the researcher's own disk refused a write, or held a damaged offline copy.
  disk_full: {
    title: 'Your disk is full',
    advice:
      'Nothing is lost: what you typed stays in this window and is saved, then sent, as soon as there is space again.',
  },
  damaged_database: {
    title: 'The offline copy was damaged',
    advice: 'It was kept aside and is being rebuilt from the server; your unsent work was kept.',
  },
  // Not an API code: the app failed on this computer before anything was sent (outbox worker).
  client_error: {
    title: 'Not sent: the app failed on this computer',
    advice:
      'The server has not seen this change. Press Retry; if it stops again, choose Help → Export diagnostics… and send the file to support (it names the cause, without your key).',
  },
  // Not an API code: the app's own credential check held a write back.
  secrets_found: {
    title: 'Held back: possible credentials',
    advice: 'Redact or keep each finding under “Credentials check”; then it is sent.',
  },
};

export function describeError(input: {
  status: number;
  code: string;
  detail?: string;
  requestId?: string;
}): ErrorView {
  const words = errorWords(input.code) ?? unknownWords(input.status, input.detail);
  const advice =
    (input.code === 'validation_error' || input.code === 'secrets_found') && input.detail
      ? `${words.advice} ${input.detail}`
      : input.code === 'client_error' && input.detail
        ? `${words.advice} Cause: ${input.detail}`
        : words.advice;
  return {
    status: input.status,
    code: input.code,
    title: words.title,
    advice,
    ...(input.status >= 500 && input.requestId ? { requestId: input.requestId } : {}),
  };
}

/**
 * A code the app has no words for. Status 0 means no server answered (the failure was on this
 * computer), so "Unexpected error (0)" would blame nobody the researcher can reach.
 */
function unknownWords(
  status: number,
  detail: string | undefined,
): { title: string; advice: string } {
  if (status === 0) {
    return {
      title: 'Not sent: the app failed on this computer',
      advice: `The server has not seen it.${detail ? ` (${detail})` : ''} Try again; if it fails again, choose Help → Export diagnostics… and send the file to support.`,
    };
  }
  return {
    title: `The server refused it (HTTP ${status})`,
    advice: detail ?? 'Try again later.',
  };
}

export const DESCRIBED_CODES = Object.keys(WORDS);

/** The words for a code, if it is one the app knows. */
export function errorWords(code: string): { title: string; advice: string } | undefined {
  return Object.hasOwn(WORDS, code) ? WORDS[code] : undefined;
}

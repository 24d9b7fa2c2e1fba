/**
 * How a failure crosses a process boundary (engine → main → preload → renderer, engine socket →
 * CLI): plain data, built once by the engine's `toBridgeError`, never re-read from a message.
 * Never a stack, never a cause chain, never the API key.
 */
export interface BridgeError {
  /** The class that failed, for logs and diagnostics only: decide on `code`. */
  name: string;
  /**
   * What happened, for a person: an API code of part 7 (`validation_error`…), a client code
   * (`network_error`, `timeout`…) or one of the app's own (ENGINE_CODES).
   */
  code: string;
  /** One sentence for a person; it never starts with the field's name. */
  message: string;
  /** The input at fault (`serverUrl`, `apiKey`, `title`, `cvss_vector`, `file`…). */
  field?: string;
  /** The server's own words (`detail` of the API's error body), when it answered. */
  detail?: string;
  /** Seconds the server asked to wait before trying again (429, 503), already clamped. */
  retryAfter?: number;
  /** HTTP status when the server answered; 0 when no answer arrived. Absent: a local failure. */
  status?: number;
  /** The server's `X-Request-ID`, to quote to support. */
  requestId?: string;
}

/** The app's own codes, beside the API's: each engine, main and CLI error class carries one. */
export const ENGINE_CODES = {
  /** A call's argument is wrong; `field` names it. */
  invalidInput: 'invalid_input',
  /** Signing in failed; `field` is `serverUrl` or `apiKey`. */
  signInFailed: 'sign_in_failed',
  notSignedIn: 'not_signed_in',
  keychainUnavailable: 'keychain_unavailable',
  newerData: 'newer_data',
  diskFull: 'disk_full',
  damagedDatabase: 'damaged_database',
  sqliteBinding: 'sqlite_binding',
  dataDirBusy: 'data_dir_busy',
  invalidEvidence: 'invalid_evidence',
  frameTooLarge: 'frame_too_large',
  /** Main refused the call itself: an untrusted sender or arguments of the wrong shape. */
  badCall: 'bad_call',
  engineUnavailable: 'engine_unavailable',
  /** Anything without a code of its own (a bug): the message is all there is. */
  unexpected: 'unexpected',
} as const;

const OPTIONAL_STRINGS = ['field', 'detail', 'requestId'] as const;
const OPTIONAL_NUMBERS = ['retryAfter', 'status'] as const;

/**
 * Whether a value that crossed a boundary is a BridgeError (what the preload rejects with, what
 * the engine socket answers). Checked field by field: nothing else is trusted about it.
 */
export function isBridgeError(value: unknown): value is BridgeError {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  if (typeof v['name'] !== 'string' || typeof v['message'] !== 'string') return false;
  if (typeof v['code'] !== 'string' || v['code'] === '') return false;
  for (const key of OPTIONAL_STRINGS) {
    if (v[key] !== undefined && typeof v[key] !== 'string') return false;
  }
  for (const key of OPTIONAL_NUMBERS) {
    if (v[key] !== undefined && (typeof v[key] !== 'number' || !Number.isFinite(v[key]))) {
      return false;
    }
  }
  return true;
}

import { describe, expect, it } from 'vitest';
import { ERROR_CODES, errorCodeStatuses, isKnownErrorCode } from '../../src/shared/api';
import type { KnownErrorCode } from '../../src/shared/api';
import { deref, errorCodes, operations } from './support';

/** The "Codes" table of part 7, row by row. */
const PART_7: [number, string][] = [
  [401, 'unauthenticated'],
  [403, 'email_unverified'],
  [403, 'read_only_key'],
  [403, 'session_required'],
  [403, 'forbidden'],
  [403, 'payments_not_ready'],
  [404, 'not_found'],
  [405, 'invalid_state'],
  [408, 'request_timeout'],
  [409, 'revision_conflict'],
  [409, 'invalid_state'],
  [409, 'program_closed'],
  [409, 'pool_low'],
  [409, 'active_limit'],
  [409, 'file_limit'],
  [409, 'file_busy'],
  [409, 'file_conflict'],
  [409, 'file_referenced'],
  [409, 'files_pending'],
  [409, 'file_not_ready'],
  [409, 'key_limit'],
  [409, 'onboarding_in_progress'],
  [413, 'too_large'],
  [422, 'incomplete_report'],
  [422, 'invalid_filename'],
  [422, 'empty_file'],
  [422, 'invalid_file_reference'],
  [422, 'validation_error'],
  [429, 'rate_limited'],
  [500, 'internal_error'],
  [503, 'busy'],
  [503, 'storage_unavailable'],
  [503, 'storage_unconfigured'],
  [503, 'payments_unconfigured'],
  [503, 'payments_unavailable'],
  [503, 'email_unconfigured'],
  [503, 'email_unavailable'],
];

/** The associations of parts 4 and 5: route, status, code. */
const ROUTE_CODES: [string, string, number, string][] = [
  ['get', '/api/programs', 401, 'unauthenticated'],
  ['get', '/api/programs/{program_id}', 404, 'not_found'],
  ['get', '/api/reports', 422, 'validation_error'],
  ['get', '/api/reports/{report_id}', 404, 'not_found'],
  ['put', '/api/reports/{report_id}', 403, 'email_unverified'],
  ['put', '/api/reports/{report_id}', 409, 'invalid_state'],
  ['put', '/api/reports/{report_id}', 409, 'revision_conflict'],
  ['put', '/api/reports/{report_id}', 422, 'invalid_file_reference'],
  ['post', '/api/reports/{report_id}/submit', 403, 'email_unverified'],
  ['post', '/api/reports/{report_id}/submit', 403, 'payments_not_ready'],
  ['post', '/api/reports/{report_id}/submit', 422, 'incomplete_report'],
  ['post', '/api/reports/{report_id}/submit', 409, 'files_pending'],
  ['post', '/api/reports/{report_id}/submit', 409, 'program_closed'],
  ['post', '/api/reports/{report_id}/submit', 409, 'pool_low'],
  ['post', '/api/reports/{report_id}/submit', 409, 'active_limit'],
  ['post', '/api/reports/{report_id}/withdraw', 409, 'invalid_state'],
  ['put', '/api/reports/{report_id}/files/{file_id}', 422, 'invalid_filename'],
  ['put', '/api/reports/{report_id}/files/{file_id}', 409, 'file_conflict'],
  ['put', '/api/reports/{report_id}/files/{file_id}', 422, 'empty_file'],
  ['put', '/api/reports/{report_id}/files/{file_id}', 413, 'too_large'],
  ['put', '/api/reports/{report_id}/files/{file_id}', 409, 'file_limit'],
  ['put', '/api/reports/{report_id}/files/{file_id}', 409, 'file_busy'],
  ['delete', '/api/reports/{report_id}/files/{file_id}', 409, 'file_referenced'],
  ['post', '/api/reports/{report_id}/messages', 409, 'file_not_ready'],
  ['post', '/api/reports/{report_id}/messages', 403, 'email_unverified'],
  ['get', '/api/payments/status', 403, 'email_unverified'],
  ['post', '/api/payments/onboarding', 403, 'session_required'],
  ['post', '/api/payments/onboarding', 409, 'onboarding_in_progress'],
  ['post', '/api/payments/onboarding', 503, 'payments_unconfigured'],
  ['post', '/api/payments/onboarding', 503, 'payments_unavailable'],
  ['post', '/api/auth/verification-email', 503, 'email_unconfigured'],
  ['post', '/api/auth/verification-email', 503, 'email_unavailable'],
  ['post', '/api/auth/password-reset', 422, 'validation_error'],
  ['get', '/api/keys', 403, 'session_required'],
  ['post', '/api/keys', 403, 'session_required'],
  ['post', '/api/keys', 403, 'email_unverified'],
  ['post', '/api/keys', 409, 'key_limit'],
  ['delete', '/api/keys/{key_id}', 403, 'session_required'],
];

const PUBLIC = new Set([
  'get /api/programs',
  'get /api/programs/{program_id}',
  'post /api/auth/password-reset',
]);

describe('error codes', () => {
  it.each(PART_7)('%i %s is in ERROR_CODES', (status, code) => {
    expect(isKnownErrorCode(code)).toBe(true);
    expect(errorCodeStatuses(code)).toContain(status);
    const meanings = ERROR_CODES[code as KnownErrorCode] as Partial<Record<number, string>>;
    expect(meanings[status]).toMatch(/\S/);
  });

  it('has exactly the codes and statuses of part 7', () => {
    const table = Object.entries(ERROR_CODES).flatMap(([code, byStatus]) =>
      Object.keys(byStatus).map((status) => `${status} ${code}`),
    );
    expect(table.sort()).toEqual(PART_7.map(([s, c]) => `${s} ${c}`).sort());
    expect(isKnownErrorCode('toString')).toBe(false);
    expect(errorCodeStatuses('nope')).toEqual([]);
  });

  it.each(ROUTE_CODES)('%s %s documents %i %s', (method, path, status, code) => {
    expect(errorCodes(method, path, status)).toContain(code);
  });

  it('documents read_only_key on every non-GET route that takes a token', () => {
    for (const { method, path } of operations()) {
      if (method === 'get' || PUBLIC.has(`${method} ${path}`)) continue;
      expect(errorCodes(method, path, 403), `${method} ${path}`).toContain('read_only_key');
    }
  });

  it('ties each documented code to a status part 7 gives it', () => {
    for (const { method, path, operation } of operations()) {
      for (const [status, raw] of Object.entries(operation.responses as Record<string, unknown>)) {
        const codes = (deref(raw)['x-error-codes'] as string[] | undefined) ?? [];
        if (Number(status) >= 400)
          expect(codes.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
        for (const code of codes) {
          expect(errorCodeStatuses(code), `${method} ${path} ${status} ${code}`).toContain(
            Number(status),
          );
        }
      }
    }
  });

  it('sets Retry-After on 409 onboarding_in_progress', () => {
    const r = deref(
      (
        operations().find((o) => o.path === '/api/payments/onboarding')?.operation
          .responses as Record<string, unknown>
      )['409'],
    );
    expect(deref((r.headers as Record<string, unknown>)['Retry-After']).required).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import {
  ContractMismatchError,
  documentedStatuses,
  expectResponseMatches,
  expectSchemaMatches,
  matchPathTemplate,
} from '../support/openapi-validator';

/** The checker every other test relies on must itself reject what the contract does not allow. */
describe('Contract validator (test support)', () => {
  const report = {
    id: '0b8a7c1e-1d2f-4a3b-8c4d-5e6f7a8b9c0d',
    program_id: 'acme',
    program_name: 'Acme',
    status: 'draft',
    display_status: 'Draft',
    title: '',
    revision: 0,
    created_at: '2024-05-01T10:00:00Z',
    updated_at: '2024-05-01T10:00:00Z',
    submitted_at: null,
    withdrawn_at: null,
    asset: '',
    description: '',
    cvss_vector: '',
    attachments: {},
    submission: null,
    decision: null,
  };

  it('accepts a body the contract documents', () => {
    expect(() =>
      expectResponseMatches('GET', '/api/reports/{report_id}', 200, report),
    ).not.toThrow();
    expect(() =>
      expectResponseMatches('PUT', '/api/reports/{report_id}', 409, {
        detail: 'stale',
        code: 'revision_conflict',
        current: report,
      }),
    ).not.toThrow();
  });

  it('rejects a body that does not match, naming the field', () => {
    expect(() =>
      expectResponseMatches('GET', '/api/reports/{report_id}', 200, { ...report, status: 'lost' }),
    ).toThrow(/\/status/);
    const { revision: _r, ...noRevision } = report;
    expect(() => expectResponseMatches('GET', '/api/reports/{report_id}', 200, noRevision)).toThrow(
      /revision/,
    );
  });

  it('rejects a status the operation does not document', () => {
    expect(documentedStatuses('GET', '/api/me')).not.toContain('418');
    expect(() => expectResponseMatches('GET', '/api/me', 418, {})).toThrow(ContractMismatchError);
  });

  it('rejects an unknown operation, JSON where bytes are documented, and a missing required header', () => {
    expect(() => expectResponseMatches('PATCH', '/api/me', 200, {})).toThrow(/not in the contract/);
    expect(() =>
      expectResponseMatches('GET', '/api/reports/{report_id}/files/{file_id}', 200, { a: 1 }),
    ).toThrow(/raw bytes/);
    expect(() =>
      expectResponseMatches(
        'GET',
        '/api/me',
        429,
        { detail: 'slow down', code: 'rate_limited' },
        {},
      ),
    ).toThrow(/Retry-After/);
  });

  it('maps concrete paths to templates, literal segments first', () => {
    expect(matchPathTemplate('/api/reports/abc/files/def?x=1')).toBe(
      '/api/reports/{report_id}/files/{file_id}',
    );
    expect(matchPathTemplate('/api/openapi.json')).toBe('/api/openapi.json');
    expect(matchPathTemplate('/api/me/')).toBeUndefined();
  });

  it('checks component schemas by name', () => {
    expect(() => expectSchemaMatches('Error', { detail: 'x', code: 'y' })).not.toThrow();
    expect(() => expectSchemaMatches('Error', { detail: 'x' })).toThrow(/code/);
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import {
  ACTIVE_STATUSES,
  ASSET_TYPES,
  ATTACHMENT_STATES,
  FINAL_DECISIONS,
  INTAKE_VALUES,
  KEY_SCOPES,
  LIMITS,
  MESSAGE_AUTHORS,
  PAYMENTS_STATUSES,
  PAYOUT_STATUSES,
  REPORT_STATUSES,
  REWARD_BANDS,
  SEVERITIES,
  TERMINAL_STATUSES,
  UPDATED_FILTERS,
  isActiveStatus,
  isTerminalStatus,
  openapiDocument,
} from '../../src/shared/api';
import {
  draftInput,
  expectError,
  freshAccount,
  ok,
  useSandbox,
  uuid,
} from '../conformance/helpers';
import type { Report } from '../support/sandbox-client';
import { deref, parameters } from './support';

type Json = Record<string, unknown>;
const schemas = openapiDocument.components.schemas as unknown as Record<string, Json>;
const prop = (schema: string, name: string): Json =>
  deref((schemas[schema]?.properties as Record<string, unknown>)[name]);
const query = (method: string, path: string, name: string): Json =>
  deref(parameters(method, path).find((p) => p.in === 'query' && p.name === name)?.schema);

describe('runtime constants match the document', () => {
  it.each([
    ['ReportStatus', REPORT_STATUSES],
    ['DecisionOutcome', FINAL_DECISIONS],
    ['AttachmentState', ATTACHMENT_STATES],
    ['PayoutStatus', PAYOUT_STATUSES],
    ['PaymentsAccountStatus', PAYMENTS_STATUSES],
    ['Intake', INTAKE_VALUES],
    ['AssetType', ASSET_TYPES],
    ['RewardBand', REWARD_BANDS],
    ['UpdatedFilter', UPDATED_FILTERS],
    ['MessageAuthor', MESSAGE_AUTHORS],
    ['KeyScope', KEY_SCOPES],
  ] as const)('%s', (name, values) => {
    expect(schemas[name]?.enum).toEqual([...values]);
  });

  it('groups statuses as part 3 does', () => {
    expect([...ACTIVE_STATUSES]).toEqual(['triaging', 'needs_info', 'paused']);
    expect([...TERMINAL_STATUSES].sort()).toEqual([...FINAL_DECISIONS, 'withdrawn'].sort());
    expect(REPORT_STATUSES.filter(isActiveStatus)).toEqual([...ACTIVE_STATUSES]);
    expect(REPORT_STATUSES.filter(isTerminalStatus)).toEqual([...TERMINAL_STATUSES]);
    expect(Object.keys((schemas.Rewards as Json).properties as Json)).toEqual([...SEVERITIES]);
  });

  it('LIMITS agree with the bounds of the schemas', () => {
    expect(prop('ReportInput', 'title').maxLength).toBe(LIMITS.titleChars);
    expect(prop('ReportInput', 'asset').maxLength).toBe(LIMITS.assetChars);
    expect(prop('ReportInput', 'description').maxLength).toBe(LIMITS.descriptionChars);
    expect(prop('ReportInput', 'cvss_vector').maxLength).toBe(LIMITS.cvssVectorChars);
    expect(prop('ReportInput', 'program_id').pattern).toBe(LIMITS.programIdPattern);
    expect(prop('MessageInput', 'body').maxLength).toBe(LIMITS.messageBodyChars);
    expect(prop('MessageInput', 'files').maxItems).toBe(LIMITS.filesPerMessage);
    expect(prop('KeyInput', 'name')).toMatchObject({
      minLength: LIMITS.keyNameChars.min,
      maxLength: LIMITS.keyNameChars.max,
    });
    expect(prop('KeyInput', 'expires_in_days')).toMatchObject({
      minimum: LIMITS.expiresInDays.min,
      maximum: LIMITS.expiresInDays.max,
      default: LIMITS.expiresInDays.default,
    });
    expect(prop('ResetInput', 'email').maxLength).toBe(LIMITS.emailChars);
    expect(query('get', '/api/reports', 'limit')).toMatchObject({
      minimum: LIMITS.reportsPage.min,
      maximum: LIMITS.reportsPage.max,
      default: LIMITS.reportsPage.default,
    });
    expect(query('get', '/api/programs', 'limit')).toMatchObject({
      minimum: LIMITS.programsPage.min,
      maximum: LIMITS.programsPage.max,
      default: LIMITS.programsPage.default,
    });
    expect(query('put', '/api/reports/{report_id}/files/{file_id}', 'name')).toMatchObject({
      minLength: LIMITS.fileNameChars.min,
      maxLength: LIMITS.fileNameChars.max,
    });
  });
});

/**
 * The numbers the OpenAPI document cannot carry (sizes, counts, rates) are checked against the
 * server: the sandbox is driven to each boundary the client's LIMITS name, and must accept the
 * limit and refuse one more. A client limit that drifted from the server's fails here.
 */
describe('LIMITS agree with what the server enforces', () => {
  const fx = useSandbox({ rateLimits: 'spec' });
  // Rate windows are per account and per minute: each test starts with fresh windows.
  beforeEach(async () => {
    await fx.sb.clock(2 * 3600);
  });

  it('JSON body and file sizes', async () => {
    const me = await freshAccount(fx.sb);
    const id = uuid();
    const json = (size: number, revision: number) => {
      const text = JSON.stringify(draftInput(fx.open, { revision }));
      return text + ' '.repeat(size - Buffer.byteLength(text));
    };
    const draft = ok(
      await me.w.api<Report>('PUT', `/api/reports/${id}`, {
        rawBody: json(LIMITS.jsonBodyBytes, 0),
        contentType: 'application/json',
      }),
    );
    expectError(
      await me.w.api('PUT', `/api/reports/${id}`, {
        rawBody: json(LIMITS.jsonBodyBytes + 1, draft.revision),
        contentType: 'application/json',
      }),
      413,
      'too_large',
    );
    const upload = (size: number, revision: number) =>
      me.w.upload(id, uuid(), { revision, data: Buffer.alloc(size, 0x41), name: 'f.bin' });
    const big = ok(await upload(LIMITS.fileBytes, draft.revision));
    expectError(await upload(LIMITS.fileBytes + 1, big.revision), 413, 'too_large');
    expectError(await upload(LIMITS.fileMinBytes - 1, big.revision), 422, 'empty_file');
  });

  it('files on a draft, active reports', async () => {
    const me = await freshAccount(fx.sb);
    let report = await me.w.draft(fx.open);
    for (let i = 0; i < LIMITS.draftFiles; i++) report = await me.w.attach(report);
    expectError(
      await me.w.upload(report.id, uuid(), { revision: report.revision }),
      409,
      'file_limit',
    );
    expect(ok(await me.w.me()).active_limit).toBe(LIMITS.activeReports);
  });

  it('signed-in requests per minute, verification e-mails per minute', async () => {
    const me = await freshAccount(fx.sb);
    for (let i = 0; i < LIMITS.rate.signedInPerMinute; i++) ok(await me.w.me());
    expectError(await me.w.me(), 429, 'rate_limited');
    const unverified = await freshAccount(fx.sb, { email_verified: false });
    const send = () => unverified.w.api('POST', '/api/auth/verification-email');
    for (let i = 0; i < LIMITS.rate.verificationEmail.perMinute; i++) ok(await send());
    expectError(await send(), 429, 'rate_limited');
  });
});

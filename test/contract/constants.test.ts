import { describe, expect, it } from 'vitest';
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

  it('LIMITS hold the numbers of part 8', () => {
    expect(LIMITS.jsonBodyBytes).toBe(262_144);
    expect(LIMITS.fileBytes).toBe(10_485_760);
    expect(LIMITS.jsonBodySendSeconds).toBe(15);
    expect(LIMITS.fileSendSeconds).toBe(120);
    expect(LIMITS.activeReports).toBe(5);
    expect([LIMITS.draftFiles, LIMITS.pendingMessageFiles, LIMITS.reportFilesTotal]).toEqual([
      10, 10, 40,
    ]);
    expect(LIMITS.apiKeysPerAccount).toBe(100);
    expect(LIMITS.rate).toEqual({
      signedInPerMinute: 120,
      failedAuthPerMinutePerIp: 120,
      programRoutesPerMinutePerIp: 120,
      verificationEmail: { perMinute: 1, perHour: 5 },
      passwordReset: {
        perIpPerMinute: 5,
        perIpPerHour: 30,
        perEmailPerMinute: 1,
        perEmailPerHour: 5,
      },
      payoutOnboardingPerMinute: 5,
    });
  });
});

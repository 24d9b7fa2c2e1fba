import { describe, expect, it } from 'vitest';
import type {
  ApiErrorBody,
  ApiKeyList,
  ListValidationError,
  Me,
  MessageList,
  NewApiKey,
  Program,
  ProgramPage,
  Report,
  ReportPage,
} from '../../src/shared/api';
import { checkSchema } from '../../src/shared/api/validate';

const T = '2026-01-02T03:04:05Z';
const REPORT_ID = '2f1c6f9e-3b0a-4c5d-9e7f-0a1b2c3d4e5f';
const FILE_ID = '7a2b3c4d-5e6f-4a1b-8c9d-0e1f2a3b4c5d';

const attachment = {
  name: 'poc.png',
  size: 2048,
  content_type: 'image/png',
  sha256: 'ab'.repeat(32),
  storage_path: 'reports/x/poc.png',
  state: 'ready' as const,
  started_at: T,
  uploaded_at: T,
};

const accepted: Report = {
  id: REPORT_ID,
  program_id: 'acme-web',
  program_name: 'Acme Web',
  status: 'accepted',
  display_status: 'Accepted',
  title: 'Stored XSS',
  revision: 4,
  created_at: T,
  updated_at: T,
  submitted_at: T,
  withdrawn_at: null,
  asset: 'https://app.example.com',
  description: '## Steps to reproduce\n\nclick',
  cvss_vector: '',
  attachments: { [FILE_ID]: attachment },
  submission: {
    submitted_at: T,
    attachments: { [FILE_ID]: attachment },
    content: { title: 'Stored XSS', asset: 'https://app.example.com', description: 'd' },
    program: {
      policy_version: 2,
      name: 'Acme Web',
      scope: 's',
      exclusions: 'e',
      rules: 'r',
      eligibility: 'el',
      disclosure: 'di',
      rewards: { low: 100, medium: 500, high: 2000, critical: 5000 },
    },
    payments: { status: 'ready', checked_at: T },
  },
  decision: { outcome: 'accepted', at: T, message: null },
  payout: {
    status: 'approving',
    amount_cents: 50000,
    approved_at: T,
    transferred_at: null,
    received_at: null,
    payout_failed_at: null,
  },
};

const summary = {
  id: 'acme-web',
  name: 'Acme Web',
  customer_name: 'Acme',
  intake: 'open' as const,
  demo: false,
  summary: 'Web app',
  asset_types: ['web', 'api'],
  reward_range: { min: 100, max: 5000, currency: 'USD' as const },
  rewards: { low: 100, critical: 5000 },
  policy_version: 1,
  updated_at: T,
  private: false,
  pool_paused: false,
};

describe('resource schemas accept documented shapes', () => {
  it('Report: a draft without payout, an accepted report with one', () => {
    const { payout: _p, ...draftish } = accepted;
    const draft: Report = {
      ...draftish,
      status: 'draft',
      submitted_at: null,
      submission: null,
      decision: null,
    };
    expect(checkSchema('Report', draft).messages).toEqual([]);
    expect(checkSchema('Report', accepted).messages).toEqual([]);
    expect(checkSchema('Report', { ...accepted, payout: null }).messages).toEqual([]);
  });

  it('Report: rejects what the document rules out', () => {
    expect(checkSchema('Report', { ...accepted, status: 'closed' }).ok).toBe(false);
    expect(checkSchema('Report', { ...accepted, updated_at: 'yesterday' }).ok).toBe(false);
    const { decision: _d, ...noDecision } = accepted;
    expect(checkSchema('Report', noDecision).messages).toEqual(['/decision: required']);
  });

  it('ReportPage, Program, ProgramPage, MessageList, Me, keys, errors', () => {
    const page: ReportPage = {
      reports: [
        {
          id: REPORT_ID,
          program_id: 'acme-web',
          program_name: 'Acme Web',
          status: 'needs_info',
          display_status: 'Needs info',
          title: 't',
          revision: 1,
          created_at: T,
          updated_at: T,
          submitted_at: T,
          withdrawn_at: null,
        },
      ],
      next_cursor: null,
    };
    const program: Program = {
      ...summary,
      description: 'd',
      scope: 's',
      exclusions: 'e',
      rules: 'r',
      eligibility: 'el',
      disclosure: 'di',
    };
    const programs: ProgramPage = {
      programs: [summary],
      total: 1,
      page: 1,
      pages: 1,
      counts: { asset: { web: 1, api: 1 }, intake: { open: 1 } },
    };
    const thread: MessageList = {
      messages: [
        { id: 'm1', author: 'agent', body: 'More please', at: T, attachments: [] },
        {
          id: 'm2',
          author: 'researcher',
          body: '',
          at: T,
          attachments: [{ id: FILE_ID, name: 'a.txt', size: 3, content_type: 'text/plain' }],
        },
      ],
    };
    const me: Me = {
      uid: 'u1',
      email: null,
      email_verified: false,
      active_reports: 0,
      active_limit: 5,
      payments: {
        configured: true,
        status: 'unavailable',
        ready: false,
        checked_at: null,
        detail: '',
      },
    };
    const key = {
      id: 'k1',
      name: 'ci',
      scope: 'read' as const,
      hint: 'sbx_abcd',
      created_at: T,
      last_used_at: null,
      expires_at: null,
    };
    const created: NewApiKey = { ...key, key: `sbx_${'a'.repeat(43)}` };
    const keys: ApiKeyList = { keys: [key] };
    const conflict: ApiErrorBody = {
      detail: 'stale',
      code: 'revision_conflict',
      current: accepted,
    };
    const listForm: ListValidationError = {
      detail: [{ loc: ['body', 'email'], msg: 'bad', type: 'value_error' }],
    };

    expect(checkSchema('ReportPage', page).messages).toEqual([]);
    expect(checkSchema('Program', program).messages).toEqual([]);
    expect(checkSchema('ProgramSummary', summary).messages).toEqual([]);
    expect(checkSchema('ProgramPage', programs).messages).toEqual([]);
    expect(checkSchema('MessageList', thread).messages).toEqual([]);
    expect(checkSchema('Me', me).messages).toEqual([]);
    expect(checkSchema('NewApiKey', created).messages).toEqual([]);
    expect(checkSchema('ApiKeyList', keys).messages).toEqual([]);
    expect(checkSchema('Error', conflict).messages).toEqual([]);
    expect(checkSchema('ListValidationError', listForm).messages).toEqual([]);
    expect(checkSchema('VerificationEmailResult', { already_verified: true, x: 1 }).ok).toBe(true);
    expect(checkSchema('PasswordResetResult', { anything: 'goes' }).ok).toBe(true);
  });

  it('rejects reward keys other than the four severities, and a currency other than USD', () => {
    expect(checkSchema('ProgramSummary', { ...summary, rewards: { extreme: 1 } }).ok).toBe(false);
    expect(
      checkSchema('ProgramSummary', {
        ...summary,
        reward_range: { min: 1, max: 2, currency: 'EUR' },
      }).ok,
    ).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import {
  fieldErrorOf,
  inputError,
  isDiskFull,
  messageOf,
  thrownErrorView,
} from '../../src/renderer/src/lib/errors';
import { buildTimeline } from '../../src/renderer/src/lib/timeline';
import type { Message, Report } from '../../src/shared/api';

describe('errors in words', () => {
  it('reads the field of an input error from the data, never from the message', () => {
    const data = {
      name: 'SignInError',
      code: 'sign_in_failed',
      field: 'apiKey',
      message: 'The API key is not accepted.',
    };
    expect(fieldErrorOf(data)).toEqual({ field: 'apiKey', message: data.message });
    expect(thrownErrorView(data)).toMatchObject({
      code: 'sign_in_failed',
      field: 'apiKey',
      title: 'Check the API key',
      advice: data.message,
    });
    // A message that merely looks like "field: problem" names no field: it is unexpected.
    expect(fieldErrorOf(new Error('apiKey: must start with the key prefix'))).toBeNull();
    expect(thrownErrorView(new Error('title: too long')).code).toBe('unexpected');
    expect(messageOf(new Error('plain failure'))).toBe('plain failure');
    // The page's own refusal of a dropped file is data too: "Check file" and the sentence.
    expect(thrownErrorView(inputError('file', '"a.png" cannot be read from disk.'))).toMatchObject({
      code: 'invalid_input',
      field: 'file',
      title: 'Check file',
      advice: '"a.png" cannot be read from disk.',
    });
  });

  it('describes API errors by code, with the request ID only for 5xx', () => {
    const e500 = thrownErrorView(
      Object.assign(new Error('boom'), { code: 'internal_error', status: 500, requestId: 'req-1' }),
    );
    expect(e500.title).toMatch(/unexpected error/i);
    expect(e500.advice).toMatch(/request ID/);
    expect(e500.requestId).toBe('req-1');
    const e409 = thrownErrorView(
      Object.assign(new Error('x'), { code: 'active_limit', status: 409, requestId: 'req-2' }),
    );
    expect(e409.title).toMatch(/five reports are already active/i);
    expect(e409.requestId).toBeUndefined();
  });

  it('keeps an ErrorView that arrives whole; a code inside a message is not read', () => {
    const view = {
      status: 503,
      code: 'busy',
      title: 'Server busy',
      advice: 'Wait.',
      requestId: 'r',
    };
    expect(thrownErrorView(view)).toEqual(view);
    expect(thrownErrorView(new Error(`Error: ${JSON.stringify(view)}`)).code).toBe('unexpected');
    expect(thrownErrorView(new Error('429 rate_limited: slow down')).code).toBe('unexpected');
  });

  it('never leaves the user without a title and advice', () => {
    const unknown = thrownErrorView(new Error('something odd'));
    expect(unknown.title).toBeTruthy();
    expect(unknown.advice).toBe('something odd');
    expect(
      thrownErrorView(Object.assign(new Error('m'), { code: 'brand_new_code', status: 418 })).title,
    ).toBe('The server refused it (HTTP 418)');
    // No server answered: the words say the failure was on this computer, never "error (0)".
    const local = thrownErrorView(Object.assign(new Error('m'), { code: 'odd', status: 0 }));
    expect(local.title).toBe('Something failed on this computer');
  });

  it('knows a full disk by its code alone', () => {
    expect(isDiskFull({ name: 'DiskFullError', code: 'disk_full', message: 'm' })).toBe(true);
    expect(isDiskFull(new Error('disk_full: Your disk is full'))).toBe(false);
  });
});

describe('timeline', () => {
  const base: Report = {
    id: 'r',
    program_id: 'p',
    program_name: 'P',
    status: 'accepted',
    display_status: 'Accepted',
    title: 'T',
    revision: 3,
    created_at: '2026-01-01T10:00:00Z',
    updated_at: '2026-01-05T10:00:00Z',
    submitted_at: '2026-01-02T10:00:00Z',
    withdrawn_at: null,
    asset: 'a',
    description: 'd',
    cvss_vector: '',
    attachments: {},
    submission: null,
    decision: { outcome: 'accepted', at: '2026-01-04T10:00:00Z', message: null },
    payout: {
      status: 'received',
      amount_cents: 50000,
      approved_at: '2026-01-04T11:00:00Z',
      transferred_at: '2026-01-04T12:00:00Z',
      received_at: '2026-01-05T09:00:00Z',
      payout_failed_at: null,
    },
  };
  const message: Message = {
    id: 'm',
    author: 'agent',
    body: 'q?',
    at: '2026-01-03T10:00:00Z',
    attachments: [],
  };

  it('orders every event of the report and its thread by time', () => {
    expect(buildTimeline(base, [message]).map((e) => e.label)).toEqual([
      'Draft created',
      'Submitted for triage',
      'Message from Triage agent',
      'Decision: Accepted',
      'Reward approved',
      'Payout transferred',
      'Payout received',
    ]);
  });

  it('shows the status changes the thread tells of: a question, then the reply that starts triage again', () => {
    const open = { ...base, decision: null, payout: null };
    const reply: Message = {
      ...message,
      id: 'r',
      author: 'researcher',
      at: '2026-01-03T12:00:00Z',
    };
    const asked = buildTimeline(
      { ...open, status: 'needs_info', display_status: 'Needs your input' },
      [message],
    ).map((e) => e.label);
    expect(asked).toEqual([
      'Draft created',
      'Submitted for triage',
      'Message from Triage agent',
      'Status: Needs your input',
    ]);
    const answered = buildTimeline({ ...open, status: 'triaging', display_status: 'In triage' }, [
      message,
      reply,
    ]).map((e) => e.label);
    expect(answered).toEqual([
      'Draft created',
      'Submitted for triage',
      'Message from Triage agent',
      'Message from you',
      'Status: In triage again',
    ]);
    // Paused without a message: the change is dated by the report's last update.
    const paused = buildTimeline({ ...open, status: 'paused', display_status: 'Paused' }, []);
    expect(paused.at(-1)).toEqual({ at: open.updated_at, label: 'Status: Paused' });
  });

  it('leaves out what has not happened', () => {
    const t = buildTimeline({ ...base, decision: null, payout: null, submitted_at: null }, []);
    expect(t.map((e) => e.label)).toEqual(['Draft created']);
  });
});

import { describe, expect, it } from 'vitest';
import { CHECKLIST_IDS, submitChecklist, type ChecklistInput } from '../../src/engine/domain/index';
import { descriptionTemplate } from '../../src/shared/rules/index';

const complete = descriptionTemplate().replaceAll('\n\n', '\n\nSome text.\n\n');

const ready: ChecklistInput = {
  me: {
    email: 'r@example.com',
    email_verified: true,
    active_reports: 2,
    active_limit: 5,
    payments: {
      configured: true,
      status: 'ready',
      ready: true,
      checked_at: null,
      detail: '',
    },
  },
  program: { name: 'Acme', intake: 'open', pool_paused: false },
  content: { title: 'XSS', asset: 'https://a.example', description: complete, cvss_vector: '' },
  attachments: {},
  uploads: [],
};
const me = ready.me as NonNullable<ChecklistInput['me']>;
const program = ready.program as NonNullable<ChecklistInput['program']>;
const item = (input: ChecklistInput, id: string) => {
  const found = submitChecklist(input).items.find((i) => i.id === id);
  if (!found) throw new Error(`no item ${id}`);
  return found;
};

describe('submitChecklist', () => {
  it('passes when everything holds', () => {
    const list = submitChecklist(ready);
    expect(list.ok).toBe(true);
    expect(list.items.every((i) => i.ok)).toBe(true);
  });

  it('lists the preconditions in the order of the API document', () => {
    expect(submitChecklist(ready).items.map((i) => i.id)).toEqual([
      'email_unverified',
      'payments_not_ready',
      'incomplete_report',
      'files_pending',
      'program_closed',
      'pool_low',
      'active_limit',
    ]);
    expect(CHECKLIST_IDS).toEqual(submitChecklist(ready).items.map((i) => i.id));
  });

  // Walk 19 read each passed detail under its label: "Payout account ready — Your payout account
  // is ready.", "Active reports 2/5 — 2 of 5 active-report slots in use.", and a pool's detail
  // that said only what the intake line above it said.
  it('says in a passed detail what its label does not', () => {
    const items = submitChecklist(ready).items;
    for (const item of items) {
      const words = (text: string): Set<string> =>
        new Set(text.toLowerCase().match(/[a-z]{3,}/g) ?? []);
      const label = words(item.label);
      const detail = [...words(item.detail)];
      expect(detail.filter((w) => !label.has(w)).length, item.detail).toBeGreaterThan(1);
      expect(item.detail, item.label).not.toMatch(/\b\d+\/\d+\b/);
    }
    const intake = items.find((i) => i.id === 'program_closed')?.detail ?? '';
    const pool = items.find((i) => i.id === 'pool_low')?.detail ?? '';
    expect(pool).toMatch(/reward pool/);
    expect(pool).not.toBe(intake);
  });

  it('every item has a label, a detail and a fix', () => {
    for (const i of submitChecklist({ ...ready, me: null, program: null }).items) {
      expect(i.label).not.toBe('');
      expect(i.detail).not.toBe('');
      expect(i.fix).not.toBe('');
    }
  });

  it('one failing item makes the whole list fail', () => {
    const list = submitChecklist({ ...ready, program: { ...program, pool_paused: true } });
    expect(list.ok).toBe(false);
    expect(list.items.filter((i) => !i.ok).map((i) => i.id)).toEqual(['pool_low']);
  });
});

describe('email_unverified', () => {
  it('fails for an unverified address', () => {
    const i = item({ ...ready, me: { ...me, email_verified: false } }, 'email_unverified');
    expect(i.ok).toBe(false);
    expect(i.detail).toContain('r@example.com');
  });
  it('fails while the account is unknown', () => {
    expect(item({ ...ready, me: null }, 'email_unverified')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('Not known yet') as string,
    });
  });
});

describe('payments_not_ready', () => {
  type PayoutStatus = (typeof me)['payments']['status'];
  const payout = (changes: Partial<ChecklistInput>) =>
    item({ ...ready, ...changes }, 'payments_not_ready');
  /** The ready researcher but for their own payments status, not ready. */
  const meIn = (status: PayoutStatus) => ({
    ...me,
    payments: { ...me.payments, status, ready: false },
  });

  it.each(['unconfigured', 'not_started', 'needs_information', 'pending', 'unavailable'] as const)(
    'fails for %s',
    (status) => {
      expect(payout({ me: meIn(status) }).ok).toBe(false);
    },
  );
  it('explains an unreachable provider', () => {
    expect(payout({ me: meIn('unavailable') }).detail).toContain('could not be reached');
  });
  it('a fresher payments status wins over me.payments', () => {
    expect(
      payout({ payments: { status: 'pending', ready: false, detail: 'ID check' } }),
    ).toMatchObject({ ok: false, detail: 'Payout account status: pending. ID check' });
    const stale = meIn('pending');
    expect(payout({ me: stale, payments: { status: 'ready', ready: true, detail: '' } }).ok).toBe(
      true,
    );
  });
  it('status ready with ready false is not ready', () => {
    expect(payout({ payments: { status: 'ready', ready: false, detail: '' } }).ok).toBe(false);
  });
});

describe('incomplete_report', () => {
  it.each([
    ['an empty title', { title: '' }, 'The title is empty.'],
    ['a blank title', { title: '   ' }, 'The title is empty.'],
    ['an empty asset', { asset: '' }, 'The asset is empty.'],
    ['an empty description', { description: '' }, 'Missing heading “Steps to reproduce”'],
    [
      'the bare template',
      { description: descriptionTemplate() },
      'No text under “Steps to reproduce”, “Expected behavior”',
    ],
  ])('fails for %s', (_name, change, detail) => {
    const i = item({ ...ready, content: { ...ready.content, ...change } }, 'incomplete_report');
    expect(i.ok).toBe(false);
    expect(i.detail).toContain(detail);
  });

  it('lists every problem', () => {
    const i = item(
      {
        ...ready,
        content: {
          title: '',
          asset: '',
          description: '## Steps to reproduce\n\nx\n',
          cvss_vector: '',
        },
      },
      'incomplete_report',
    );
    expect(i.detail).toBe(
      'The title is empty; the asset is empty; missing heading “Expected behavior”, “Actual behavior”, “Security impact”.',
    );
  });
});

describe('files_pending', () => {
  const files = (changes: Partial<ChecklistInput>) =>
    item({ ...ready, ...changes }, 'files_pending');

  it('fails while a server attachment is uploading', () => {
    const i = files({
      attachments: {
        a: { name: 'shot.png', state: 'uploading', reply: null },
        b: { name: 'log.txt', state: 'ready', reply: null },
      },
    });
    expect(i).toMatchObject({ ok: false, waiting: true, detail: 'Still uploading: “shot.png”.' });
  });
  it('waits while a local upload is queued or running, saying which is which', () => {
    // Queued behind a draft held by a credential finding, a file is waiting, not uploading.
    const queued = files({ uploads: [{ name: 'C:\\Users\\me\\poc.har', state: 'queued' }] });
    expect(queued).toMatchObject({
      ok: false,
      waiting: true,
      detail: 'Not sent yet: “C:\\Users\\me\\poc.har”.',
    });
    expect(files({ uploads: [{ name: 'a', state: 'uploading' }] })).toMatchObject({
      ok: false,
      waiting: true,
    });
    expect(files({ uploads: [{ name: 'a', state: 'uploaded' }] }).ok).toBe(true);
  });
  it('fails for a failed upload, asking to retry or remove, even with others on their way', () => {
    const i = files({ uploads: [{ name: 'x.mp4', state: 'failed' }] });
    expect(i).toMatchObject({ ok: false, detail: 'Upload failed: “x.mp4”.' });
    expect(i.waiting).toBeUndefined();
    expect(i.fix).toContain('retry or remove');
    const mixed = files({
      uploads: [
        { name: 'x.mp4', state: 'failed' },
        { name: 'shot.png', state: 'queued' },
      ],
    });
    expect(mixed).toMatchObject({
      ok: false,
      detail: 'Not sent yet: “shot.png”; upload failed: “x.mp4”.',
    });
    expect(mixed.waiting).toBeUndefined();
  });
  it('ignores message files', () => {
    expect(files({ attachments: { a: { name: 'r', state: 'uploading', reply: true } } }).ok).toBe(
      true,
    );
  });
  it('counts ready files', () => {
    expect(files({ attachments: { a: { name: 'r', state: 'ready', reply: null } } }).detail).toBe(
      '1 file uploaded.',
    );
    expect(files({ attachments: null }).detail).toBe('No files attached: nothing to upload.');
  });
});

describe('program_closed and pool_low', () => {
  it.each(['paused', 'closed'] as const)('intake %s fails program_closed', (intake) => {
    const i = item({ ...ready, program: { ...program, intake } }, 'program_closed');
    expect(i).toMatchObject({ ok: false, detail: `Acme is ${intake} for new reports.` });
  });
  it('a paused pool fails pool_low only', () => {
    const list = submitChecklist({ ...ready, program: { ...program, pool_paused: true } });
    expect(list.items.find((i) => i.id === 'program_closed')?.ok).toBe(true);
    expect(list.items.find((i) => i.id === 'pool_low')?.ok).toBe(false);
  });
  it('an unknown program fails both', () => {
    const list = submitChecklist({ ...ready, program: null });
    expect(list.items.filter((i) => !i.ok).map((i) => i.id)).toEqual([
      'program_closed',
      'pool_low',
    ]);
  });
});

describe('active_limit', () => {
  it.each([
    [0, true],
    [4, true],
    [5, false],
    [6, false],
  ])('%d active reports: ok %s', (active, ok) => {
    const i = item({ ...ready, me: { ...me, active_reports: active } }, 'active_limit');
    expect(i.ok).toBe(ok);
    expect(i.label).toBe(`Active reports ${active}/5`);
  });
  it('a local count overrides me.active_reports', () => {
    expect(item({ ...ready, activeReports: 5 }, 'active_limit').ok).toBe(false);
  });
  it('uses the account limit', () => {
    expect(item({ ...ready, me: { ...me, active_limit: 2 } }, 'active_limit')).toMatchObject({
      ok: false,
      label: 'Active reports 2/2',
    });
  });
  it('unknown without an account', () => {
    expect(item({ ...ready, me: null }, 'active_limit')).toMatchObject({
      ok: false,
      label: 'Active reports ?/5',
    });
  });
});

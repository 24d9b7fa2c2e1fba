import { beforeEach, describe, expect, it } from 'vitest';
import type { ReportBody } from './helpers';
import { createDraft, Sbx, submit, upload } from './helpers';

describe('sandbox contract: control routes', () => {
  const sbx = Sbx.perFile();
  beforeEach(async () => {
    await sbx.call('POST', '/__sandbox/reset');
  });

  it('reset brings back the seeded world and the clock', async () => {
    const before = await sbx.world();
    await sbx.newAccount();
    await sbx.advance(3600);
    expect((await sbx.world()).accounts.length).toBe(before.accounts.length + 1);
    expect((await sbx.call('POST', '/__sandbox/reset')).status).toBe(200);
    expect(await sbx.world()).toEqual(before);
    const clock = await sbx.call<{ offset_seconds: number }>('GET', '/__sandbox/clock');
    expect(clock.body.offset_seconds).toBe(0);
  });

  it('POST /accounts answers like a world entry, with working keys', async () => {
    const { account, write, read } = await sbx.newAccount({ payments_status: 'pending' });
    expect(account).toMatchObject({ email_verified: true, payments_status: 'pending' });
    const me = await sbx.call<{ uid: string }>('GET', '/api/me', { token: read });
    expect(me.body.uid).toBe(account.uid);
    expect((await sbx.call('GET', '/api/me', { token: write })).status).toBe(200);
    expect((await sbx.call('GET', '/api/keys', { token: account.session_token })).status).toBe(200);
  });

  it('PATCH /accounts applies to existing keys at once; password_changed ends older keys', async () => {
    const { account, write } = await sbx.newAccount();
    await sbx.call('PATCH', `/__sandbox/accounts/${account.uid}`, {
      body: { email_verified: false },
    });
    const me = await sbx.call<{ email_verified: boolean }>('GET', '/api/me', { token: write });
    expect(me.body.email_verified).toBe(false);
    const res = await sbx.call('PATCH', `/__sandbox/accounts/${account.uid}`, {
      body: { password_changed: true },
    });
    expect(res.status).toBe(200);
    expect((await sbx.call('GET', '/api/me', { token: write })).status).toBe(401);
    const fresh = await sbx.call<{ key: string }>(
      'POST',
      `/__sandbox/accounts/${account.uid}/keys`,
      {
        body: { scope: 'write' },
      },
    );
    expect((await sbx.call('GET', '/api/me', { token: fresh.body.key })).status).toBe(200);
  });

  it('a key with expires_in_days stops working when the clock passes its expiry', async () => {
    const { account } = await sbx.newAccount();
    const k = await sbx.call<{ key: string; scope: string }>(
      'POST',
      `/__sandbox/accounts/${account.uid}/keys`,
      { body: { scope: 'read', expires_in_days: 1 } },
    );
    expect(k.body.scope).toBe('read');
    expect((await sbx.call('GET', '/api/me', { token: k.body.key })).status).toBe(200);
    await sbx.advance(86_401);
    expect((await sbx.call('GET', '/api/me', { token: k.body.key })).status).toBe(401);
  });

  it('PATCH /programs: a policy change raises policy_version; invite shows a private program', async () => {
    const cy = await sbx.account('cy');
    const token = cy.keys[0]?.key;
    expect((await sbx.call('GET', '/api/programs/wayne-private', { token })).status).toBe(404);
    const res = await sbx.call<{ policy_version: number; invited: string[] }>(
      'PATCH',
      '/__sandbox/programs/wayne-private',
      { body: { invite: 'cy', policy: { rules: 'New rules.' } } },
    );
    expect(res.body.policy_version).toBe(2);
    expect(res.body.invited).toContain('cy');
    const program = await sbx.call<{ rules: string; policy_version: number }>(
      'GET',
      '/api/programs/wayne-private',
      { token },
    );
    expect(program.body).toMatchObject({ rules: 'New rules.', policy_version: 2 });
  });

  it('act moves a report with a message; a final decision sets decision; payout keeps updated_at', async () => {
    const { write } = await sbx.newAccount();
    let r = await createDraft(sbx, write);
    r = (await upload(sbx, write, r, 'evidence')).body;
    r = (await submit(sbx, write, r)).body;
    const moved = await sbx.call<ReportBody>('POST', `/__sandbox/reports/${r.id}/act`, {
      body: { actor: 'founder', status: 'accepted', message: 'Nice find.' },
    });
    expect(moved.body).toMatchObject({ status: 'accepted', decision: { outcome: 'accepted' } });
    const thread = await sbx.call<{ messages: { author: string; body: string }[] }>(
      'GET',
      `/api/reports/${r.id}/messages`,
      { token: write },
    );
    expect(thread.body.messages.at(-1)).toMatchObject({ author: 'founder', body: 'Nice find.' });
    const payout = await sbx.call<ReportBody>('POST', `/__sandbox/reports/${r.id}/payout`, {
      body: { status: 'approving', amount_cents: 50_000 },
    });
    expect(payout.body.payout).toMatchObject({ status: 'approving', amount_cents: 50_000 });
    expect(payout.body.updated_at).toBe(moved.body.updated_at);
    const sent = await sbx.call<ReportBody>('POST', `/__sandbox/reports/${r.id}/payout`, {
      body: { status: 'transferred' },
    });
    expect(sent.body.payout?.status).toBe('transferred');
    expect(sent.body.updated_at).toBe(moved.body.updated_at);
  });

  it('answers bad input with 422 naming the field, and changes nothing', async () => {
    const { account } = await sbx.newAccount();
    const before = await sbx.world();
    const cases: [string, string, unknown, string][] = [
      ['POST', '/__sandbox/clock', { advance_seconds: -5 }, 'advance_seconds: must be at least 0'],
      ['POST', '/__sandbox/clock', {}, 'advance_seconds: is required'],
      ['POST', '/__sandbox/clock', [1], 'body: must be object'],
      ['POST', '/__sandbox/faults', { rate: 2 }, 'rate: must be at most 1'],
      ['POST', '/__sandbox/faults', { rate: 0.5, statuses: [200] }, 'statuses.0: must be at least'],
      ['POST', '/__sandbox/faults', { rate: 0.5, seed: 1.5 }, 'seed: must be integer'],
      ['POST', '/__sandbox/accounts', { payments_status: 'rich' }, 'payments_status: must be one'],
      ['POST', '/__sandbox/accounts', { email_verified: 'yes' }, 'email_verified: must be boolean'],
      ['PATCH', `/__sandbox/accounts/${account.uid}`, { disabled: 1 }, 'disabled: must be boolean'],
      ['POST', `/__sandbox/accounts/${account.uid}/keys`, {}, 'scope: is required'],
      [
        'POST',
        `/__sandbox/accounts/${account.uid}/keys`,
        { scope: 'read', expires_in_days: 366 },
        'expires_in_days: must be at most 365',
      ],
      ['PATCH', '/__sandbox/programs/acme-web', { intake: 'maybe' }, 'intake: must be one of'],
      ['PATCH', '/__sandbox/programs/acme-web', { invite: 'nobody' }, 'invite: must be the uid'],
      [
        'PATCH',
        '/__sandbox/programs/acme-web',
        { policy: { id: 'other' } },
        'policy.id: is not an accepted field',
      ],
      [
        'PATCH',
        '/__sandbox/programs/acme-web',
        { policy: { rewards: { low: -1 } } },
        'policy.rewards.low: must be at least 0',
      ],
      ['POST', '/__sandbox/bulk-reports', { uid: 'nobody', count: 3 }, 'uid: must be the uid'],
      ['POST', '/__sandbox/bulk-reports', { uid: account.uid }, 'count: is required'],
      [
        'POST',
        '/__sandbox/bulk-reports',
        { uid: account.uid, count: 3, ends_at: 'yesterday' },
        'ends_at: must be a valid date-time',
      ],
      [
        'POST',
        '/__sandbox/bulk-reports',
        { uid: account.uid, count: 4, needs_info: 2, triaging: 1 },
        'needs_info, triaging: more than the submitted reports',
      ],
    ];
    for (const [method, path, body, detail] of cases) {
      const res = await sbx.call<{ code: string; detail: string }>(method, path, { body });
      expect(res.status, path).toBe(422);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.detail, JSON.stringify(body)).toContain(detail);
    }
    expect(await sbx.world()).toEqual(before);
  });

  it('fills in the documented defaults of faults and accounts', async () => {
    const faults = await sbx.call('POST', '/__sandbox/faults', { body: { rate: 0 } });
    expect(faults.body).toEqual({
      rate: 0,
      statuses: [],
      reset_connection: false,
      latency_ms: 0,
      seed: 1,
    });
    await sbx.call('DELETE', '/__sandbox/faults');
    const created = await sbx.call('POST', '/__sandbox/accounts');
    expect(created.body).toMatchObject({ email_verified: true, payments_status: 'ready' });
  });

  it('bulk-reports creates reports deterministically; stats count researcher-API requests', async () => {
    const { account, read } = await sbx.newAccount();
    await sbx.call('DELETE', '/__sandbox/stats');
    const res = await sbx.call('POST', '/__sandbox/bulk-reports', {
      body: { uid: account.uid, count: 250, submitted_share: 0.4 },
    });
    expect(res.body).toEqual({ created: 250 });
    const page = await sbx.call<{ reports: { status: string }[]; next_cursor: string }>(
      'GET',
      '/api/reports?limit=100',
      { token: read },
    );
    const drafts = page.body.reports.filter((r) => r.status === 'draft').length;
    expect(drafts).toBe(60);
    await sbx.call('GET', `/api/reports/00000000-0000-4000-8000-000000000000`, { token: read });
    const stats = await sbx.call<{
      requests: number;
      by_status: Record<string, number>;
      by_route: Record<string, number>;
    }>('GET', '/__sandbox/stats');
    expect(stats.body).toEqual({
      requests: 2,
      by_status: { '200': 1, '404': 1 },
      by_route: { 'GET /api/reports': 1, 'GET /api/reports/{report_id}': 1 },
    });
  });
});

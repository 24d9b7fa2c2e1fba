import { describe, expect, it } from 'vitest';
import { addKey } from '../../src/sandbox/state/accounts';
import { Sbx } from './helpers';

interface KeyList {
  keys: { id: string; name: string; hint: string; created_at: string; expires_at: string | null }[];
}

describe('sandbox: account, keys, e-mail and password reset (API parts 4, 5, 8)', () => {
  const sbx = Sbx.perFile({ rateLimits: 'spec', passwordResetPadMs: 120 });

  it('keys: session only, created with the secret once, listed newest first, deleted at once', async () => {
    const { account, write } = await sbx.newAccount();
    const session = account.session_token;
    expect((await sbx.call('GET', '/api/keys', { token: write })).body).toMatchObject({
      code: 'session_required',
    });
    const made = await sbx.call<{
      id: string;
      key: string;
      hint: string;
      expires_at: string;
      scope: string;
    }>('POST', '/api/keys', { token: session, body: { name: 'CI' } });
    expect(made.status).toBe(201);
    expect(made.body.key).toMatch(/^sbx_[A-Za-z0-9_-]{43}$/);
    expect(made.body.hint).toBe(made.body.key.slice(0, 8));
    expect(made.body.scope).toBe('write');
    const days = (Date.parse(made.body.expires_at) - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(90);
    const list = await sbx.call<KeyList>('GET', '/api/keys', { token: session });
    expect(list.body.keys[0]?.id).toBe(made.body.id);
    expect(JSON.stringify(list.body)).not.toContain(made.body.key);
    expect((await sbx.call('GET', '/api/me', { token: made.body.key })).status).toBe(200);
    await sbx.call('DELETE', `/api/keys/${made.body.id}`, { token: session });
    expect((await sbx.call('GET', '/api/me', { token: made.body.key })).status).toBe(401);
    const bad = await sbx.call('POST', '/api/keys', { token: session, body: { name: '' } });
    expect(bad.status).toBe(422);
  });

  it('keys: 409 key_limit at 100 keys', async () => {
    const { account } = await sbx.newAccount();
    const env = sbx.handle.env;
    // Two fixture keys exist already; fill up to 100 directly (creation over HTTP is covered above).
    for (let i = 0; i < 98; i++) {
      addKey(env.world, account.uid, {
        scope: 'read',
        name: `k${i}`,
        expiresInDays: null,
        fixture: false,
      });
    }
    const full = await sbx.call('POST', '/api/keys', {
      token: account.session_token,
      body: { name: 'x' },
    });
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ code: 'key_limit' });
  });

  it('verification e-mail: already_verified, then one per minute', async () => {
    const verified = await sbx.newAccount();
    const done = await sbx.call('POST', '/api/auth/verification-email', { token: verified.write });
    expect(done.body).toMatchObject({ already_verified: true });
    const { write } = await sbx.newAccount({ email_verified: false });
    expect((await sbx.call('POST', '/api/auth/verification-email', { token: write })).status).toBe(
      200,
    );
    const second = await sbx.call('POST', '/api/auth/verification-email', { token: write });
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    await sbx.advance(60);
    expect((await sbx.call('POST', '/api/auth/verification-email', { token: write })).status).toBe(
      200,
    );
  });

  it('password reset: public, padded to a fixed time, same answer with or without an account', async () => {
    const t0 = Date.now();
    const known = await sbx.call('POST', '/api/auth/password-reset', {
      body: { email: 'ada@sandbox.test' },
    });
    const elapsed = Date.now() - t0;
    const unknown = await sbx.call('POST', '/api/auth/password-reset', {
      body: { email: 'nobody@sandbox.test' },
    });
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect(elapsed).toBeGreaterThanOrEqual(110);
    const invalid = await sbx.call<{ detail: { loc: string[]; msg: string; type: string }[] }>(
      'POST',
      '/api/auth/password-reset',
      { body: { email: 'not an address' } },
    );
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail[0]?.loc).toEqual(['body', 'email']);
    const again = await sbx.call('POST', '/api/auth/password-reset', {
      body: { email: 'ada@sandbox.test' },
    });
    expect(again.status).toBe(429);
  });

  it('payments: Me keeps the stored status; status and onboarding rules', async () => {
    const { account, write } = await sbx.newAccount({ payments_status: 'unavailable' });
    const status = await sbx.call<{ status: string; ready: boolean }>(
      'GET',
      '/api/payments/status',
      { token: write },
    );
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ status: 'unavailable', ready: false });
    expect(
      (await sbx.call('POST', '/api/payments/onboarding', { token: write })).body,
    ).toMatchObject({ code: 'session_required' });
    const down = await sbx.call('POST', '/api/payments/onboarding', {
      token: account.session_token,
    });
    expect(down.body).toMatchObject({ code: 'payments_unavailable' });
    const unverified = await sbx.newAccount({ email_verified: false });
    expect(
      (await sbx.call('GET', '/api/payments/status', { token: unverified.write })).body,
    ).toMatchObject({
      code: 'email_unverified',
    });
  });

  it('the onboarding link finishes onboarding in the sandbox', async () => {
    const { account, write } = await sbx.newAccount({ payments_status: 'not_started' });
    const link = await sbx.call<{ url: string }>('POST', '/api/payments/onboarding', {
      token: account.session_token,
    });
    const page = await fetch(link.body.url);
    expect(page.status).toBe(200);
    const me = await sbx.call<{ payments: { status: string } }>('GET', '/api/me', { token: write });
    expect(me.body.payments.status).toBe('ready');
    expect((await fetch(link.body.url)).status).toBe(404);
  });

  it('failed authentication is limited to 120 per minute per IP', async () => {
    let last = 0;
    for (let i = 0; i < 121; i++)
      last = (await sbx.call('GET', '/api/me', { token: 'sbx_wrong' })).status;
    expect(last).toBe(429);
    await sbx.advance(60);
  });
});

describe('sandbox: rate limits off', () => {
  it('never answers 429 with rateLimits off', async () => {
    const sbx = await Sbx.start({ rateLimits: 'off' });
    try {
      const { write } = await sbx.newAccount();
      for (let i = 0; i < 130; i++)
        expect((await sbx.call('GET', '/api/me', { token: write })).status).toBe(200);
    } finally {
      await sbx.close();
    }
  });
});

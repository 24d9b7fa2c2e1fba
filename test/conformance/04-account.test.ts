import { describe, expect, it } from 'vitest';
import type { Me, PaymentsStatus } from '../support/sandbox-client';
import { pickAccounts, pickPrograms, writeKey } from '../support/sandbox-client';
import { expectError, freshAccount, ok, useSandbox } from './helpers';

const fx = useSandbox();

describe('4. Account — GET /api/me', () => {
  it('returns Me matching the seeded accounts', async () => {
    const { ready, unverified, notStarted } = pickAccounts(fx.world);
    for (const account of [ready, unverified, notStarted]) {
      const me = ok(await fx.sb.api<Me>('GET', '/api/me', { token: account.session_token }));
      expect(me).toMatchObject({
        uid: account.uid,
        email: account.email,
        email_verified: account.email_verified,
        active_limit: 5,
      });
      expect(me.payments.status).toBe(account.payments_status);
    }
  });

  it('a key acts as its owner', async () => {
    const { ready } = pickAccounts(fx.world);
    const viaKey = ok(await fx.sb.api<Me>('GET', '/api/me', { token: writeKey(ready) }));
    const viaSession = ok(await fx.sb.api<Me>('GET', '/api/me', { token: ready.session_token }));
    expect(viaKey).toEqual(viaSession);
  });

  it('active_reports counts the active reports', async () => {
    const me = await freshAccount(fx.sb);
    expect(ok(await me.w.me()).active_reports).toBe(0);
    await me.w.submitted(pickPrograms(fx.world).open.id);
    expect(ok(await me.w.me()).active_reports).toBe(1);
  });

  it('needs a token (401 unauthenticated)', async () => {
    expectError(await fx.sb.api('GET', '/api/me'), 401, 'unauthenticated');
  });
});

describe('4. Account — GET /api/payments/status', () => {
  it('submission needs ready: an unavailable provider gives 403 payments_not_ready at submit', async () => {
    const me = await freshAccount(fx.sb, { payments_status: 'unavailable' });
    const draft = await me.w.draft(pickPrograms(fx.world).open.id);
    expectError(await me.w.submit(draft.id, draft.revision), 403, 'payments_not_ready');
  });

  it('a ready account is ready', async () => {
    const me = await freshAccount(fx.sb, { payments_status: 'ready' });
    const status = ok(await me.w.api<PaymentsStatus>('GET', '/api/payments/status'));
    expect(status).toMatchObject({ status: 'ready', ready: true });
  });

  it('a not_started account is not ready', async () => {
    const me = await freshAccount(fx.sb, { payments_status: 'not_started' });
    const status = ok(await me.w.api<PaymentsStatus>('GET', '/api/payments/status'));
    expect(status).toMatchObject({ status: 'not_started', ready: false });
  });

  it('an unreachable provider gives status unavailable with HTTP 200', async () => {
    const me = await freshAccount(fx.sb, { payments_status: 'unavailable' });
    const status = ok(await me.w.api<PaymentsStatus>('GET', '/api/payments/status'));
    expect(status).toMatchObject({ status: 'unavailable', ready: false });
  });

  it('the e-mail must be verified (403 email_unverified)', async () => {
    const me = await freshAccount(fx.sb, { email_verified: false });
    expectError(await me.w.api('GET', '/api/payments/status'), 403, 'email_unverified');
  });
});

describe('4. Account — POST /api/payments/onboarding', () => {
  it('with a website sign-in returns an OnboardingLink', async () => {
    const me = await freshAccount(fx.sb, { payments_status: 'not_started' });
    const link = ok(await me.session.api<{ url: string }>('POST', '/api/payments/onboarding'));
    expect(() => new URL(link.url)).not.toThrow();
  });

  it('an API key gets 403 session_required', async () => {
    const me = await freshAccount(fx.sb, { payments_status: 'not_started' });
    expectError(await me.w.api('POST', '/api/payments/onboarding'), 403, 'session_required');
  });

  it('a second request within a minute gives 409 onboarding_in_progress with Retry-After', async () => {
    const me = await freshAccount(fx.sb, { payments_status: 'not_started' });
    ok(await me.session.api('POST', '/api/payments/onboarding'));
    await fx.sb.clock(20);
    const again = await me.session.api('POST', '/api/payments/onboarding');
    expectError(again, 409, 'onboarding_in_progress');
    const retryAfter = Number(again.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    await fx.sb.clock(retryAfter);
    const later = ok(await me.session.api<{ url: string }>('POST', '/api/payments/onboarding'));
    expect(later.url).toBeTruthy();
  });
});

describe('4. Account — POST /api/auth/verification-email', () => {
  it('sends to an unverified account', async () => {
    const me = await freshAccount(fx.sb, { email_verified: false });
    const res = ok(
      await me.w.api<{ already_verified?: boolean }>('POST', '/api/auth/verification-email'),
    );
    expect(res.already_verified).not.toBe(true);
  });

  it('an already verified account gets already_verified true', async () => {
    const me = await freshAccount(fx.sb, { email_verified: true });
    const res = ok(
      await me.w.api<{ already_verified?: boolean }>('POST', '/api/auth/verification-email'),
    );
    expect(res.already_verified).toBe(true);
  });

  it('needs a token (401 unauthenticated)', async () => {
    expectError(await fx.sb.api('POST', '/api/auth/verification-email'), 401, 'unauthenticated');
  });
});

describe('4. Account — POST /api/auth/password-reset', () => {
  it('is public, and the response is the same whether or not an account has the address', async () => {
    const { ready } = pickAccounts(fx.world);
    const known = await fx.sb.api('POST', '/api/auth/password-reset', {
      body: { email: ready.email ?? 'x@example.com' },
    });
    const unknown = await fx.sb.api('POST', '/api/auth/password-reset', {
      body: { email: 'nobody-here@example.org' },
    });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
  });

  it('an invalid body gives 422', async () => {
    const bad: unknown[] = [
      {},
      { email: 'not an email' },
      { email: 'two@@example.com' },
      { email: 'nodot@example' },
      { email: `${'a'.repeat(250)}@example.com` },
    ];
    for (const body of bad) {
      const res = await fx.sb.api('POST', '/api/auth/password-reset', { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
  });

  it('an invalid Authorization header gives 401 even here', async () => {
    expectError(
      await fx.sb.api('POST', '/api/auth/password-reset', {
        body: { email: 'someone@example.com' },
        authorization: 'Bearer wrong',
      }),
      401,
      'unauthenticated',
    );
  });
});

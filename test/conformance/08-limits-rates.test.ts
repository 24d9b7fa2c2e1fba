import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/sandbox-client';
import { expectError, freshAccount, ok, useSandbox, uuid } from './helpers';

const fx = useSandbox({ rateLimits: 'spec' });
// Per-IP windows are shared by every test of this file: start each test with empty windows.
beforeEach(async () => {
  await fx.sb.clock(2 * 3600);
});

function expectRateLimited(res: ApiResponse): number {
  expectError(res, 429, 'rate_limited');
  const retryAfter = res.headers.get('retry-after');
  expect(retryAfter).toMatch(/^\d+$/);
  return Number(retryAfter);
}

describe('8. Limits — rate limits', () => {
  it('signed-in requests: 120 per minute per account, shared by all keys and sessions', async () => {
    const me = await freshAccount(fx.sb);
    for (let i = 0; i < 60; i++) ok(await me.w.me());
    for (let i = 0; i < 59; i++) ok(await me.r.me());
    ok(await me.session.me());
    const retryAfter = expectRateLimited(await me.w.me());
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expectRateLimited(await me.session.me());
    const other = await freshAccount(fx.sb);
    ok(await other.w.me());
    await fx.sb.clock(60);
    ok(await me.w.me());
  });

  it('waiting Retry-After seconds is enough (part 7 retry rules)', async () => {
    const me = await freshAccount(fx.sb);
    await fx.sb.clock(10);
    for (let i = 0; i < 120; i++) ok(await me.w.me());
    const retryAfter = expectRateLimited(await me.w.me());
    await fx.sb.clock(retryAfter);
    ok(await me.w.me());
    const unverified = await freshAccount(fx.sb, { email_verified: false });
    ok(await unverified.w.api('POST', '/api/auth/verification-email'));
    const wait = expectRateLimited(await unverified.w.api('POST', '/api/auth/verification-email'));
    await fx.sb.clock(wait);
    ok(await unverified.w.api('POST', '/api/auth/verification-email'));
  });

  it('a rejected request also counts in the current window', async () => {
    const me = await freshAccount(fx.sb);
    for (let i = 0; i < 100; i++) ok(await me.w.me());
    for (let i = 0; i < 20; i++) expectError(await me.w.get(uuid()), 404, 'not_found');
    expectRateLimited(await me.w.me());
    await fx.sb.clock(60);
    ok(await me.w.me());
  });

  it('failed authentication: 120 per minute per client IP address', async () => {
    for (let i = 0; i < 120; i++) {
      expectError(await fx.sb.api('GET', '/api/me', { token: `bad-${i}` }), 401, 'unauthenticated');
    }
    expectRateLimited(await fx.sb.api('GET', '/api/me', { token: 'bad-121' }));
    await fx.sb.clock(60);
    expectError(await fx.sb.api('GET', '/api/me', { token: 'bad-again' }), 401, 'unauthenticated');
  });

  it('program routes: 120 per minute per client IP address', async () => {
    for (let i = 0; i < 120; i++)
      ok(await fx.sb.api('GET', '/api/programs', { query: { limit: 1 } }));
    expectRateLimited(await fx.sb.api('GET', '/api/programs', { query: { limit: 1 } }));
    await fx.sb.clock(60);
    ok(await fx.sb.api('GET', '/api/programs', { query: { limit: 1 } }));
  });

  it('verification e-mail: one per minute', async () => {
    const me = await freshAccount(fx.sb, { email_verified: false });
    ok(await me.w.api('POST', '/api/auth/verification-email'));
    const retryAfter = expectRateLimited(await me.w.api('POST', '/api/auth/verification-email'));
    expect(retryAfter).toBeLessThanOrEqual(60);
    await fx.sb.clock(60);
    ok(await me.w.api('POST', '/api/auth/verification-email'));
  });

  it('verification e-mail: five per hour', async () => {
    const me = await freshAccount(fx.sb, { email_verified: false });
    for (let i = 0; i < 5; i++) {
      ok(await me.w.api('POST', '/api/auth/verification-email'));
      await fx.sb.clock(61);
    }
    const retryAfter = expectRateLimited(await me.w.api('POST', '/api/auth/verification-email'));
    expect(retryAfter).toBeGreaterThan(60);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    await fx.sb.clock(3600);
    ok(await me.w.api('POST', '/api/auth/verification-email'));
  });

  it('password reset: five per minute per client IP address', async () => {
    const batch = await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        fx.sb.api('POST', '/api/auth/password-reset', { body: { email: `ip${i}@example.com` } }),
      ),
    );
    for (const res of batch) ok(res);
    expectRateLimited(
      await fx.sb.api('POST', '/api/auth/password-reset', { body: { email: 'ip5@example.com' } }),
    );
    await fx.sb.clock(60);
    ok(await fx.sb.api('POST', '/api/auth/password-reset', { body: { email: 'ip6@example.com' } }));
  });

  it('password reset: 30 per hour per client IP address', async () => {
    // Five a minute (each answer is padded to a fixed time, so a minute's five go together).
    for (let minute = 0; minute < 6; minute++) {
      const batch = await Promise.all(
        [0, 1, 2, 3, 4].map((i) =>
          fx.sb.api('POST', '/api/auth/password-reset', {
            body: { email: `h${minute * 5 + i}@example.com` },
          }),
        ),
      );
      for (const res of batch) ok(res);
      await fx.sb.clock(61);
    }
    const retryAfter = expectRateLimited(
      await fx.sb.api('POST', '/api/auth/password-reset', { body: { email: 'h30@example.com' } }),
    );
    expect(retryAfter).toBeGreaterThan(60);
  });

  it('password reset: five per hour to one e-mail address', async () => {
    for (let i = 0; i < 5; i++) {
      ok(
        await fx.sb.api('POST', '/api/auth/password-reset', {
          body: { email: 'hourly@example.com' },
        }),
      );
      await fx.sb.clock(61);
    }
    expectRateLimited(
      await fx.sb.api('POST', '/api/auth/password-reset', {
        body: { email: 'hourly@example.com' },
      }),
    );
    ok(
      await fx.sb.api('POST', '/api/auth/password-reset', { body: { email: 'other@example.com' } }),
    );
  });

  it('payout onboarding: five per minute (rejected requests count)', async () => {
    const me = await freshAccount(fx.sb, { payments_status: 'not_started' });
    ok(await me.session.api('POST', '/api/payments/onboarding'));
    for (let i = 0; i < 4; i++) {
      expectError(
        await me.session.api('POST', '/api/payments/onboarding'),
        409,
        'onboarding_in_progress',
      );
    }
    expectRateLimited(await me.session.api('POST', '/api/payments/onboarding'));
  });

  it('password reset: one per minute to one e-mail address', async () => {
    ok(
      await fx.sb.api('POST', '/api/auth/password-reset', { body: { email: 'same@example.com' } }),
    );
    expectRateLimited(
      await fx.sb.api('POST', '/api/auth/password-reset', { body: { email: 'same@example.com' } }),
    );
    ok(
      await fx.sb.api('POST', '/api/auth/password-reset', {
        body: { email: 'different@example.com' },
      }),
    );
  });
});

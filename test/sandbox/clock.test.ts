import { describe, expect, it } from 'vitest';
import { createDraft, Sbx } from './helpers';

describe('sandbox contract: the sandbox clock', () => {
  const sbx = Sbx.perFile({ rateLimits: 'spec' });

  it('moves every timestamp the API shows', async () => {
    const { write } = await sbx.newAccount();
    const before = await createDraft(sbx, write);
    await sbx.advance(10 * 86_400);
    const after = await createDraft(sbx, write);
    const days = (Date.parse(after.updated_at) - Date.parse(before.updated_at)) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(10);
    expect(days).toBeLessThan(10.01);
  });

  it('moves the `updated` program filter window', async () => {
    const count = async (): Promise<number> =>
      (await sbx.call<{ total: number }>('GET', '/api/programs?updated=30d')).body.total;
    const now = await count();
    expect(now).toBeGreaterThan(0);
    await sbx.advance(40 * 86_400);
    expect(await count()).toBeLessThan(now);
  });

  it('ends rate-limit windows: 120 per minute per account, then 429 with Retry-After', async () => {
    const { write, read } = await sbx.newAccount();
    for (let i = 0; i < 60; i++)
      expect((await sbx.call('GET', '/api/me', { token: write })).status).toBe(200);
    for (let i = 0; i < 60; i++)
      expect((await sbx.call('GET', '/api/me', { token: read })).status).toBe(200);
    const limited = await sbx.call('GET', '/api/me', { token: read });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited' });
    const retry = Number(limited.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    await sbx.advance(retry);
    expect((await sbx.call('GET', '/api/me', { token: write })).status).toBe(200);
  });

  it('times the onboarding minute: 409 onboarding_in_progress with Retry-After, then allowed', async () => {
    const { account } = await sbx.newAccount({ payments_status: 'not_started' });
    const token = account.session_token;
    const first = await sbx.call<{ url: string }>('POST', '/api/payments/onboarding', { token });
    expect(first.status).toBe(200);
    expect(first.body.url).toMatch(/^http/);
    const again = await sbx.call('POST', '/api/payments/onboarding', { token });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'onboarding_in_progress' });
    expect(Number(again.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    await sbx.advance(61);
    expect((await sbx.call('POST', '/api/payments/onboarding', { token })).status).toBe(200);
  });

  it('POST /clock rejects a missing or negative advance with 422', async () => {
    expect((await sbx.call('POST', '/__sandbox/clock', { body: {} })).status).toBe(422);
    expect(
      (await sbx.call('POST', '/__sandbox/clock', { body: { advance_seconds: -1 } })).status,
    ).toBe(422);
  });
});

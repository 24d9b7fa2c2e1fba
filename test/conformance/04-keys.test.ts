import { describe, expect, it } from 'vitest';
import type { ApiKeyList, Me } from '../support/sandbox-client';
import { expectError, freshAccount, ok, useSandbox } from './helpers';

const fx = useSandbox();

const DAY = 24 * 60 * 60 * 1000;

describe('4. API keys — GET /api/keys', () => {
  it('lists the account’s keys without their secrets', async () => {
    const me = await freshAccount(fx.sb);
    const list = ok(await me.session.keys());
    const ids = list.keys.map((k) => k.id).sort();
    expect(ids).toEqual(me.account.keys.map((k) => k.id).sort());
    for (const key of list.keys) expect(key).not.toHaveProperty('key');
  });

  it('newest first', async () => {
    const me = await freshAccount(fx.sb);
    await fx.sb.clock(2);
    const a = ok(await me.session.createKey({ name: 'a' }), 201);
    await fx.sb.clock(2);
    const b = ok(await me.session.createKey({ name: 'b' }), 201);
    const list = ok(await me.session.keys());
    expect(list.keys.slice(0, 2).map((k) => k.id)).toEqual([b.id, a.id]);
  });

  it('an API key gets 403 session_required (write and read keys)', async () => {
    const me = await freshAccount(fx.sb);
    expectError(await me.w.keys(), 403, 'session_required');
    expectError(await me.r.keys(), 403, 'session_required');
  });
});

describe('4. API keys — POST /api/keys', () => {
  it('201 NewApiKey: the secret, its hint, default scope write and expiry in 90 days', async () => {
    const me = await freshAccount(fx.sb);
    const created = ok(await me.session.createKey({ name: 'ci runner' }), 201);
    expect(created.name).toBe('ci runner');
    expect(created.scope).toBe('write');
    expect(created.key).toMatch(/^[A-Za-z0-9]+_[A-Za-z0-9_-]{43}$/);
    expect(created.hint).toBe(created.key.slice(0, 8));
    expect(created.last_used_at).toBeNull();
    const life = Date.parse(created.expires_at ?? '') - Date.parse(created.created_at ?? '');
    expect(Math.abs(life - 90 * DAY)).toBeLessThan(5000);
    const whoami = ok(await fx.sb.api<Me>('GET', '/api/me', { token: created.key }));
    expect(whoami.uid).toBe(me.account.uid);
    const listed = ok(await me.session.keys()).keys.find((k) => k.id === created.id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('key');
    expect(listed?.hint).toBe(created.hint);
  });

  it('expires_in_days sets the expiry; null means no expiry', async () => {
    const me = await freshAccount(fx.sb);
    const week = ok(await me.session.createKey({ name: 'w', expires_in_days: 7 }), 201);
    const life = Date.parse(week.expires_at ?? '') - Date.parse(week.created_at ?? '');
    expect(Math.abs(life - 7 * DAY)).toBeLessThan(5000);
    const forever = ok(await me.session.createKey({ name: 'f', expires_in_days: null }), 201);
    expect(forever.expires_at).toBeNull();
  });

  it('a read-scoped key may GET but gets 403 read_only_key on other methods', async () => {
    const me = await freshAccount(fx.sb);
    const read = ok(await me.session.createKey({ name: 'r', scope: 'read' }), 201);
    expect(read.scope).toBe('read');
    ok(await fx.sb.api('GET', '/api/me', { token: read.key }));
    expectError(
      await fx.sb.api('POST', '/api/auth/verification-email', { token: read.key }),
      403,
      'read_only_key',
    );
  });

  it('KeyInput bounds: name 1 to 80, scope read/write, expires_in_days 1 to 365 (422 validation_error)', async () => {
    const me = await freshAccount(fx.sb);
    ok(await me.session.createKey({ name: 'n'.repeat(80), expires_in_days: 365 }), 201);
    ok(await me.session.createKey({ name: 'n', expires_in_days: 1 }), 201);
    const bad: unknown[] = [
      {},
      { name: '' },
      { name: 'n'.repeat(81) },
      { name: 'x', scope: 'admin' },
      { name: 'x', expires_in_days: 0 },
      { name: 'x', expires_in_days: 366 },
      { name: 'x', expires_in_days: 1.5 },
    ];
    for (const body of bad) {
      expectError(await me.session.createKey(body), 422, 'validation_error');
    }
  });

  it('an API key gets 403 session_required', async () => {
    const me = await freshAccount(fx.sb);
    expectError(await me.w.createKey({ name: 'x' }), 403, 'session_required');
  });

  it('the e-mail must be verified to create a key (403 email_unverified)', async () => {
    const me = await freshAccount(fx.sb, { email_verified: false });
    expectError(await me.session.createKey({ name: 'x' }), 403, 'email_unverified');
  });

  it('409 key_limit at 100 keys', async () => {
    const me = await freshAccount(fx.sb);
    const existing = ok(await me.session.keys()).keys.length;
    for (let i = existing; i < 100; i++) {
      ok(await me.session.createKey({ name: `k${i}` }), 201);
    }
    expect(ok(await me.session.keys()).keys).toHaveLength(100);
    expectError(await me.session.createKey({ name: 'one too many' }), 409, 'key_limit');
    const list = ok(await me.session.keys()).keys;
    expect(list).toHaveLength(100);
    ok(await me.session.api('DELETE', `/api/keys/${list[0]?.id ?? ''}`));
    ok(await me.session.createKey({ name: 'after a delete' }), 201);
  });
});

describe('4. API keys — DELETE /api/keys/{key_id}', () => {
  it('returns the remaining ApiKeyList and the key stops working at once', async () => {
    const me = await freshAccount(fx.sb);
    const created = ok(await me.session.createKey({ name: 'doomed' }), 201);
    ok(await fx.sb.api('GET', '/api/me', { token: created.key }));
    const after = ok(await me.session.api<ApiKeyList>('DELETE', `/api/keys/${created.id}`));
    expect(after.keys.map((k) => k.id)).not.toContain(created.id);
    expectError(await fx.sb.api('GET', '/api/me', { token: created.key }), 401, 'unauthenticated');
  });

  it('an unknown key or another account’s key gives 404 not_found', async () => {
    const me = await freshAccount(fx.sb);
    const other = await freshAccount(fx.sb);
    expectError(await me.session.api('DELETE', '/api/keys/no-such-key'), 404, 'not_found');
    const theirs = other.account.keys[0]?.id ?? '';
    expectError(await me.session.api('DELETE', `/api/keys/${theirs}`), 404, 'not_found');
    ok(await other.w.me());
  });

  it('an API key gets 403 session_required', async () => {
    const me = await freshAccount(fx.sb);
    const readId = me.account.keys.find((k) => k.scope === 'read')?.id ?? '';
    expectError(await me.w.api('DELETE', `/api/keys/${readId}`), 403, 'session_required');
    ok(await me.r.me());
  });
});

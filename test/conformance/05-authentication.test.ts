import { describe, expect, it } from 'vitest';
import type { Me } from '../support/sandbox-client';
import { pickAccounts, readKey } from '../support/sandbox-client';
import { draftInput, expectError, freshAccount, freshDraft, ok, useSandbox, uuid } from './helpers';

const fx = useSandbox();

describe('5. Authentication — bearer tokens', () => {
  it('rule 1: a missing, malformed or unknown token gives 401 unauthenticated', async () => {
    expectError(await fx.sb.api('GET', '/api/me'), 401, 'unauthenticated');
    expectError(await fx.sb.api('GET', '/api/me', { authorization: '' }), 401, 'unauthenticated');
    expectError(
      await fx.sb.api('GET', '/api/me', { authorization: 'Bearer' }),
      401,
      'unauthenticated',
    );
    expectError(await fx.sb.api('GET', '/api/me', { token: 'garbage' }), 401, 'unauthenticated');
    expectError(
      await fx.sb.api('GET', '/api/me', { token: `sbx_${'A'.repeat(43)}` }),
      401,
      'unauthenticated',
    );
    expectError(
      await fx.sb.api('GET', '/api/reports', { authorization: 'Token abc' }),
      401,
      'unauthenticated',
    );
  });

  it('rule 2: a key acts as its owner (same reports as the website sign-in)', async () => {
    const { me, draft } = await freshDraft(fx);
    const viaSession = ok(await me.session.get(draft.id));
    const viaRead = ok(await me.r.get(draft.id));
    expect(viaSession).toEqual(draft);
    expect(viaRead).toEqual(draft);
  });

  it('rule 2: an e-mail verification change applies to an existing key immediately', async () => {
    const me = await freshAccount(fx.sb);
    ok(await me.w.save(uuid(), draftInput(fx.open)));
    await fx.sb.patchAccount(me.account.uid, { email_verified: false });
    expectError(await me.w.save(uuid(), draftInput(fx.open)), 403, 'email_unverified');
    expect(ok(await me.w.me()).email_verified).toBe(false);
    await fx.sb.patchAccount(me.account.uid, { email_verified: true });
    ok(await me.w.save(uuid(), draftInput(fx.open)));
  });

  it('rule 3: a read key may GET but gets 403 read_only_key on PUT, POST and DELETE', async () => {
    const { me, draft } = await freshDraft(fx);
    const fileId = uuid();
    const withFile = await me.w.attach(draft, fileId);
    ok(await me.r.get(draft.id));
    ok(await me.r.list());
    ok(await me.r.me());
    ok(await me.r.messages(draft.id));
    ok(await me.r.download(draft.id, fileId));
    ok(await me.r.api('GET', '/api/payments/status'));
    expectError(
      await me.r.save(draft.id, draftInput(fx.open, { revision: withFile.revision })),
      403,
      'read_only_key',
    );
    expectError(await me.r.save(uuid(), draftInput(fx.open)), 403, 'read_only_key');
    expectError(await me.r.submit(draft.id, withFile.revision), 403, 'read_only_key');
    expectError(
      await me.r.upload(draft.id, uuid(), { revision: withFile.revision }),
      403,
      'read_only_key',
    );
    expectError(await me.r.removeFile(draft.id, fileId, withFile.revision), 403, 'read_only_key');
    expectError(await me.r.post(draft.id, { body: 'x' }), 403, 'read_only_key');
    expectError(await me.r.withdraw(draft.id), 403, 'read_only_key');
    expect(ok(await me.w.get(draft.id))).toEqual(withFile);
  });

  it('rule 3: a read key may use HEAD', async () => {
    const me = await freshAccount(fx.sb);
    const res = await me.r.api('HEAD', '/api/reports', { validate: false });
    expect(res.status).toBe(200);
  });

  it('rule 3: a seeded read key is read-only too', async () => {
    const { ready } = pickAccounts(await fx.sb.world());
    const key = readKey(ready);
    ok(await fx.sb.api('GET', '/api/reports', { token: key }));
    expectError(
      await fx.sb.api('PUT', `/api/reports/${uuid()}`, { token: key, body: draftInput(fx.open) }),
      403,
      'read_only_key',
    );
  });

  it('rule 4: key routes and payout onboarding need a website sign-in (403 session_required)', async () => {
    const me = await freshAccount(fx.sb, { payments_status: 'not_started' });
    const someKey = me.account.keys[0]?.id ?? '';
    expectError(await me.w.api('GET', '/api/keys'), 403, 'session_required');
    expectError(await me.w.createKey({ name: 'x' }), 403, 'session_required');
    expectError(await me.w.api('DELETE', `/api/keys/${someKey}`), 403, 'session_required');
    expectError(await me.w.api('POST', '/api/payments/onboarding'), 403, 'session_required');
    expectError(await me.r.api('GET', '/api/keys'), 403, 'session_required');
    ok(await me.session.api('GET', '/api/keys'));
  });

  it('rule 5: public routes need no token', async () => {
    ok(await fx.sb.api('GET', '/api/programs'));
    ok(await fx.sb.api('GET', `/api/programs/${fx.open}`));
    ok(await fx.sb.api('POST', '/api/auth/password-reset', { body: { email: 'a@example.com' } }));
  });

  it('rule 5: an empty or invalid Authorization header gives 401 even on public routes', async () => {
    for (const authorization of ['', 'Bearer ', 'Bearer nonsense']) {
      expectError(
        await fx.sb.api('GET', '/api/programs', { authorization }),
        401,
        'unauthenticated',
      );
      expectError(
        await fx.sb.api('GET', `/api/programs/${fx.open}`, { authorization }),
        401,
        'unauthenticated',
      );
      expectError(
        await fx.sb.api('POST', '/api/auth/password-reset', {
          authorization,
          body: { email: 'a@example.com' },
        }),
        401,
        'unauthenticated',
      );
    }
  });
});

describe('5. Authentication — when a key stops working (rules 6 and 7)', () => {
  it('a deleted key gives 401', async () => {
    const me = await freshAccount(fx.sb);
    const created = ok(await me.session.createKey({ name: 'x' }), 201);
    ok(await fx.sb.api('GET', '/api/me', { token: created.key }));
    ok(await me.session.api('DELETE', `/api/keys/${created.id}`));
    expectError(await fx.sb.api('GET', '/api/me', { token: created.key }), 401, 'unauthenticated');
  });

  it('an expired key gives 401 once its days have passed', async () => {
    const me = await freshAccount(fx.sb);
    const key = await fx.sb.newKey(me.account.uid, { scope: 'write', expires_in_days: 1 });
    ok(await fx.sb.api('GET', '/api/me', { token: key.key }));
    await fx.sb.clock(23 * 3600);
    ok(await fx.sb.api('GET', '/api/me', { token: key.key }));
    await fx.sb.clock(3600 + 5);
    expectError(await fx.sb.api('GET', '/api/me', { token: key.key }), 401, 'unauthenticated');
    ok(await me.w.me());
  });

  it('a key with no expiry still works after a year', async () => {
    const me = await freshAccount(fx.sb);
    const key = await fx.sb.newKey(me.account.uid, { scope: 'read', expires_in_days: null });
    await fx.sb.clock(400 * 24 * 3600);
    const whoami = ok(await fx.sb.api<Me>('GET', '/api/me', { token: key.key }));
    expect(whoami.uid).toBe(me.account.uid);
  });

  it('a password change ends every key made before it; later keys work', async () => {
    const me = await freshAccount(fx.sb);
    ok(await me.w.me());
    ok(await me.r.me());
    await fx.sb.clock(2);
    await fx.sb.patchAccount(me.account.uid, { password_changed: true });
    expectError(await me.w.me(), 401, 'unauthenticated');
    expectError(await me.r.me(), 401, 'unauthenticated');
    await fx.sb.clock(2);
    const fresh = await fx.sb.newKey(me.account.uid, { scope: 'write' });
    const whoami = ok(await fx.sb.api<Me>('GET', '/api/me', { token: fresh.key }));
    expect(whoami.uid).toBe(me.account.uid);
  });
});

describe('5. Authentication — owner checks (rule 8)', () => {
  it('another researcher’s report, file or thread gives 404 not_found on every route', async () => {
    const me = await freshAccount(fx.sb);
    const them = await freshAccount(fx.sb);
    const draft = await me.w.draft(fx.open);
    const fileId = uuid();
    const withFile = await me.w.attach(draft, fileId);
    const rev = withFile.revision;
    const attempts = [
      await them.w.get(draft.id),
      await them.w.save(draft.id, draftInput(fx.open, { revision: rev })),
      await them.w.submit(draft.id, rev),
      await them.w.withdraw(draft.id),
      await them.w.upload(draft.id, uuid(), { revision: rev }),
      await them.w.download(draft.id, fileId),
      await them.w.removeFile(draft.id, fileId, rev),
      await them.w.messages(draft.id),
      await them.w.post(draft.id, { body: 'hi' }),
    ];
    for (const res of attempts) expectError(res, 404, 'not_found');
    expect(ok(await me.w.get(draft.id))).toEqual(withFile);
  });
});

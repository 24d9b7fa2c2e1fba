import { afterEach, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/sandbox-client';
import { expectSchemaMatches } from '../support/openapi-validator';
import { draftInput, expectError, freshAccount, freshDraft, ok, useSandbox, uuid } from './helpers';

const fx = useSandbox();

describe('7. Errors — every 4xx carries {detail, code}', () => {
  it('one of each class: 401, 403, 404, 409, 413, 422', async () => {
    const me = await freshAccount(fx.sb);
    const unverified = await freshAccount(fx.sb, { email_verified: false });
    const draft = await me.w.draft(fx.open);
    const cases: [ApiResponse, number, string][] = [
      [await fx.sb.api('GET', '/api/me'), 401, 'unauthenticated'],
      [await me.r.save(uuid(), draftInput(fx.open)), 403, 'read_only_key'],
      [await me.w.keys(), 403, 'session_required'],
      [await unverified.w.save(uuid(), draftInput(fx.open)), 403, 'email_unverified'],
      [await me.w.get(uuid()), 404, 'not_found'],
      [
        await me.w.save(draft.id, draftInput(fx.open, { revision: draft.revision + 7 })),
        409,
        'revision_conflict',
      ],
      [
        await me.w.upload(draft.id, uuid(), {
          revision: draft.revision,
          data: Buffer.alloc(10 * 1024 * 1024 + 1),
        }),
        413,
        'too_large',
      ],
      [
        await me.w.save(uuid(), { ...draftInput(fx.open), title: 't'.repeat(181) }),
        422,
        'validation_error',
      ],
    ];
    for (const [res, status, code] of cases) {
      const body = expectError(res, status, code);
      expectSchemaMatches('Error', body);
      expect(body.detail.length).toBeGreaterThan(0);
    }
  });

  it('409 revision_conflict adds current (the stored Report)', async () => {
    const { me, draft } = await freshDraft(fx);
    const body = expectError(
      await me.w.save(draft.id, draftInput(fx.open, { revision: draft.revision + 1 })),
      409,
      'revision_conflict',
    );
    expectSchemaMatches('Report', body.current);
    expect(body.current).toEqual(draft);
  });

  it('a path that does not exist gives 404 with {detail, code}', async () => {
    const res = await fx.sb.api('GET', '/api/nothing-here', { validate: false });
    expect(res.status).toBe(404);
    expectSchemaMatches('Error', res.body);
  });

  it('405 invalid_state for a method not permitted on a path', async () => {
    const me = await freshAccount(fx.sb);
    const res = await me.w.api('DELETE', '/api/me', { validate: false });
    expectError(res, 405, 'invalid_state');
    expectSchemaMatches('Error', res.body);
  });
});

describe('7. Errors — X-Request-ID on every response', () => {
  it('on successes, errors, unknown paths and injected faults', async () => {
    const me = await freshAccount(fx.sb);
    const responses: ApiResponse[] = [
      await fx.sb.api('GET', '/api/programs'),
      await me.w.me(),
      await fx.sb.api('GET', '/api/me'),
      await me.w.get(uuid()),
      await me.w.save(uuid(), { nope: true }),
      await fx.sb.api('GET', '/api/programs/', { validate: false }),
      await fx.sb.api('GET', '/api/openapi.json'),
    ];
    await fx.sb.faults({ rate: 1, statuses: [503] });
    try {
      responses.push(await me.w.me());
    } finally {
      await fx.sb.clearFaults();
    }
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    for (const [i, id] of ids.entries()) expect(id, `response ${i}`).toBeTruthy();
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('7. Errors — Retry-After on 429 and 503 (faults)', () => {
  afterEach(async () => {
    await fx.sb.clearFaults();
  });

  it('an injected 503 carries Retry-After', async () => {
    const me = await freshAccount(fx.sb);
    await fx.sb.faults({ rate: 1, statuses: [503], seed: 1 });
    for (const res of [
      await me.w.me(),
      await fx.sb.api('GET', '/api/programs'),
      await me.w.list(),
    ]) {
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(0);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
  });

  it('an injected 429 carries Retry-After and code rate_limited', async () => {
    const me = await freshAccount(fx.sb);
    await fx.sb.faults({ rate: 1, statuses: [429], seed: 2 });
    const res = await me.w.me();
    expectError(res, 429, 'rate_limited');
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('DELETE /__sandbox/faults ends the faults', async () => {
    const me = await freshAccount(fx.sb);
    await fx.sb.faults({ rate: 1, statuses: [503] });
    expect((await me.w.me()).status).toBe(503);
    await fx.sb.clearFaults();
    ok(await me.w.me());
  });

  it('a share of the requests fails; the rest succeed', async () => {
    const me = await freshAccount(fx.sb);
    await fx.sb.faults({ rate: 0.5, statuses: [503], seed: 7 });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await me.w.me()).status);
    expect(statuses).toContain(200);
    expect(statuses).toContain(503);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import type { Program, ProgramPage, WorldAccount } from '../support/sandbox-client';
import { pickPrograms, writeKey } from '../support/sandbox-client';
import { expectError, freshAccount, ok, useSandbox } from './helpers';

const fx = useSandbox();

const ASSETS = ['web', 'api', 'mobile', 'source_code', 'cloud', 'hardware', 'other'];
const BANDS = ['under_1k', '1k_5k', '5k_10k', 'over_10k'];
const INTAKES = ['open', 'paused', 'closed'];
const UPDATED = ['any', '7d', '30d'];
const FILTERS: Record<string, string[]> = {
  asset: ASSETS,
  reward: BANDS,
  intake: INTAKES,
  updated: UPDATED,
};

async function list(query: Record<string, string | number> = {}, token?: string) {
  return ok(await fx.sb.api<ProgramPage>('GET', '/api/programs', { query, token }));
}

/** Every program a query shows, across all pages. */
async function all(query: Record<string, string | number> = {}, token?: string) {
  const first = await list({ ...query, limit: 50 }, token);
  const programs = [...first.programs];
  for (let page = 2; page <= first.pages; page++) {
    programs.push(...(await list({ ...query, limit: 50, page }, token)).programs);
  }
  return { total: first.total, programs };
}

function invitedAccount(): WorldAccount {
  const program = pickPrograms(fx.world).privateInvited;
  const account = fx.world.accounts.find((a) => program.invited.includes(a.uid));
  if (!account) throw new Error('the invited account is not in the world');
  return account;
}

function tokenOf(account: WorldAccount): string {
  return account.keys.some((k) => k.scope === 'write') ? writeKey(account) : account.session_token;
}

function invitedToken(): string {
  return tokenOf(invitedAccount());
}

function notInvitedToken(): string {
  const program = pickPrograms(fx.world).privateInvited;
  const account = fx.world.accounts.find((a) => !program.invited.includes(a.uid));
  if (!account) throw new Error('no account outside the invitation');
  return tokenOf(account);
}

describe('4. Programs — GET /api/programs', () => {
  it('without a token lists published public programs only, newest update first', async () => {
    const { total, programs } = await all();
    const ids = programs.map((p) => p.id);
    const picked = pickPrograms(fx.world);
    expect(total).toBe(programs.length);
    expect(ids).toContain(picked.open.id);
    expect(ids).toContain(picked.closed.id);
    expect(ids).not.toContain(picked.unpublished.id);
    expect(ids).not.toContain(picked.privateInvited.id);
    const publicIds = fx.world.programs.filter((p) => p.published && !p.private).map((p) => p.id);
    expect([...ids].sort()).toEqual([...publicIds].sort());
    const times = programs.map((p) => p.updated_at).filter((t): t is string => t !== null);
    const sorted = [...times].sort((a, b) => Date.parse(b) - Date.parse(a));
    expect(times).toEqual(sorted);
  });

  it('the default page size is 12 and limit sets it', async () => {
    const page = await list();
    expect(page.page).toBe(1);
    expect(page.programs.length).toBe(Math.min(12, page.total));
    const one = await list({ limit: 1 });
    expect(one.programs).toHaveLength(1);
    expect(one.pages).toBe(one.total);
  });

  it('pages do not overlap and together hold every program', async () => {
    const { total } = await list();
    const seen: string[] = [];
    for (let page = 1; page <= total; page++) {
      const p = await list({ limit: 1, page });
      expect(p.page).toBe(page);
      seen.push(...p.programs.map((x) => x.id));
    }
    expect(new Set(seen).size).toBe(total);
  });

  it('a page after the end gives the last page', async () => {
    const probe = await list({ limit: 2 });
    expect(probe.pages).toBeGreaterThanOrEqual(2);
    const last = await list({ limit: 2, page: probe.pages });
    const after = await list({ limit: 2, page: probe.pages + 5 });
    expect(after.page).toBe(probe.pages);
    expect(after.programs.map((p) => p.id)).toEqual(last.programs.map((p) => p.id));
  });

  it('limit 1 to 50: 50 is accepted, 0 and 51 give 422 validation_error', async () => {
    expect((await list({ limit: 50 })).programs.length).toBeLessThanOrEqual(50);
    expectError(
      await fx.sb.api('GET', '/api/programs', { query: { limit: 0 } }),
      422,
      'validation_error',
    );
    expectError(
      await fx.sb.api('GET', '/api/programs', { query: { limit: 51 } }),
      422,
      'validation_error',
    );
  });

  it('a limit that is not an integer gives 422 validation_error', async () => {
    expectError(
      await fx.sb.api('GET', '/api/programs', { query: { limit: 'many' } }),
      422,
      'validation_error',
    );
  });

  it('page must be at least 1 (0 gives 422 validation_error)', async () => {
    expectError(
      await fx.sb.api('GET', '/api/programs', { query: { page: 0 } }),
      422,
      'validation_error',
    );
  });

  it('the asset filter keeps programs with one of the asset types', async () => {
    for (const asset of ['web', 'api']) {
      const { programs } = await all({ asset });
      expect(programs.length).toBeGreaterThan(0);
      for (const p of programs) expect(p.asset_types).toContain(asset);
    }
    const both = await all({ asset: 'web,mobile' });
    for (const p of both.programs) {
      expect(p.asset_types.some((a) => a === 'web' || a === 'mobile')).toBe(true);
    }
    expect(both.total).toBeGreaterThanOrEqual((await list({ asset: 'web' })).total);
  });

  it('every asset type and reward band used by the filters is covered by some program', async () => {
    for (const asset of ASSETS) expect((await list({ asset })).total, asset).toBeGreaterThan(0);
    for (const reward of BANDS) expect((await list({ reward })).total, reward).toBeGreaterThan(0);
  });

  it('the reward filter keeps programs whose top reward is in the band', async () => {
    const bounds: Record<string, [number, number]> = {
      under_1k: [0, 1000],
      '1k_5k': [1000, 5000],
      '5k_10k': [5000, 10000],
      over_10k: [10000, Number.MAX_SAFE_INTEGER],
    };
    for (const band of BANDS) {
      const [min, max] = bounds[band] ?? [0, 0];
      for (const p of (await all({ reward: band })).programs) {
        expect(p.reward_range.max, `${p.id} in ${band}`).toBeGreaterThanOrEqual(min);
        expect(p.reward_range.max, `${p.id} in ${band}`).toBeLessThanOrEqual(max);
      }
    }
  });

  it('the intake filter keeps programs with that intake', async () => {
    for (const intake of INTAKES) {
      const { programs } = await all({ intake });
      expect(programs.length, intake).toBeGreaterThan(0);
      for (const p of programs) expect(p.intake).toBe(intake);
    }
    const two = await all({ intake: 'paused,closed' });
    for (const p of two.programs) expect(['paused', 'closed']).toContain(p.intake);
  });

  it('the updated filter narrows: 7d ⊆ 30d ⊆ any', async () => {
    const any = new Set((await all({ updated: 'any' })).programs.map((p) => p.id));
    const d30 = (await all({ updated: '30d' })).programs.map((p) => p.id);
    const d7 = (await all({ updated: '7d' })).programs.map((p) => p.id);
    expect(any.size).toBe((await list()).total);
    for (const id of d30) expect(any.has(id)).toBe(true);
    for (const id of d7) expect(d30).toContain(id);
  });

  it('unknown filter values are ignored', async () => {
    const web = await all({ asset: 'web' });
    const mixed = await all({ asset: 'web,teleporter' });
    expect(mixed.programs.map((p) => p.id)).toEqual(web.programs.map((p) => p.id));
    const open = await all({ intake: 'open' });
    const openMixed = await all({ intake: 'open,sideways' });
    expect(openMixed.programs.map((p) => p.id)).toEqual(open.programs.map((p) => p.id));
  });

  it('counts[filter][option] is the number of programs that option shows, given the other filters', async () => {
    const queries: Record<string, string>[] = [
      {},
      { intake: 'open' },
      { asset: 'web', intake: 'open,paused' },
    ];
    for (const [query, token] of [
      ...queries.map((q) => [q, undefined] as const),
      [{ intake: 'open' }, invitedToken()] as const,
    ]) {
      const page = await list(query, token);
      for (const [filter, options] of Object.entries(FILTERS)) {
        const counts = page.counts[filter];
        expect(counts, `counts.${filter} for ${JSON.stringify(query)}`).toBeDefined();
        for (const option of options) {
          const expected = (await list({ ...query, [filter]: option }, token)).total;
          expect(counts?.[option], `counts.${filter}.${option} for ${JSON.stringify(query)}`).toBe(
            expected,
          );
        }
      }
    }
  });

  it('a private program appears only for a researcher invited by verified e-mail', async () => {
    const priv = pickPrograms(fx.world).privateInvited;
    const invited = await all({}, invitedToken());
    expect(invited.programs.map((p) => p.id)).toContain(priv.id);
    const other = await all({}, notInvitedToken());
    expect(other.programs.map((p) => p.id)).not.toContain(priv.id);
    const anonymous = await all();
    const account = invitedAccount();
    const privateForAccount = fx.world.programs.filter(
      (p) => p.published && p.private && p.invited.includes(account.uid),
    ).length;
    expect(account.email_verified).toBe(true);
    expect(invited.total).toBe(anonymous.total + privateForAccount);
  });

  it('an invited researcher whose e-mail is no longer verified does not see the private program', async () => {
    const priv = pickPrograms(fx.world).privateInvited;
    const account = invitedAccount();
    await fx.sb.patchAccount(account.uid, { email_verified: false });
    try {
      const { programs } = await all({}, tokenOf(account));
      expect(programs.map((p) => p.id)).not.toContain(priv.id);
      expectError(
        await fx.sb.api('GET', `/api/programs/${priv.id}`, { token: tokenOf(account) }),
        404,
        'not_found',
      );
    } finally {
      await fx.sb.patchAccount(account.uid, { email_verified: true });
    }
  });

  it('a newly invited researcher sees the private program; an unpublished program leaves the list', async () => {
    const priv = pickPrograms(fx.world).privateInvited;
    const me = await freshAccount(fx.sb);
    expect((await all({}, me.w.token)).programs.map((p) => p.id)).not.toContain(priv.id);
    await fx.sb.patchProgram(priv.id, { invite: me.account.uid });
    expect((await all({}, me.w.token)).programs.map((p) => p.id)).toContain(priv.id);
    ok(await fx.sb.api<Program>('GET', `/api/programs/${priv.id}`, { token: me.w.token }));
    const { open } = pickPrograms(fx.world);
    await fx.sb.patchProgram(open.id, { published: false });
    try {
      expect((await all()).programs.map((p) => p.id)).not.toContain(open.id);
      expectError(await fx.sb.api('GET', `/api/programs/${open.id}`), 404, 'not_found');
    } finally {
      await fx.sb.patchProgram(open.id, { published: true });
    }
    expect((await all()).programs.map((p) => p.id)).toContain(open.id);
  });

  it('an empty or invalid Authorization header gives 401 unauthenticated', async () => {
    expectError(
      await fx.sb.api('GET', '/api/programs', { authorization: 'Bearer not-a-real-token' }),
      401,
      'unauthenticated',
    );
    expectError(
      await fx.sb.api('GET', '/api/programs', { authorization: '' }),
      401,
      'unauthenticated',
    );
    expectError(
      await fx.sb.api('GET', '/api/programs', { authorization: 'Basic Zm9vOmJhcg==' }),
      401,
      'unauthenticated',
    );
  });
});

describe('4. Programs — GET /api/programs/{program_id}', () => {
  /** The program is hidden from the caller (anyone, or the holder of `token`): 404 not_found. */
  async function expectHidden(id: string, token?: string) {
    expectError(await fx.sb.api('GET', `/api/programs/${id}`, { token }), 404, 'not_found');
  }

  it('returns the full Program with the same summary fields as the list', async () => {
    const open = pickPrograms(fx.world).open;
    const program = ok(await fx.sb.api<Program>('GET', `/api/programs/${open.id}`));
    expect(program.id).toBe(open.id);
    const summary = (await all()).programs.find((p) => p.id === open.id);
    expect(summary).toBeDefined();
    for (const [key, value] of Object.entries(summary ?? {})) {
      expect((program as Record<string, unknown>)[key], key).toEqual(value);
    }
  });

  it('an unknown program gives 404 not_found', async () => {
    await expectHidden('no-such-program-here');
  });

  it('an unpublished program gives 404 not_found, even with a token', async () => {
    const { unpublished } = pickPrograms(fx.world);
    await expectHidden(unpublished.id);
    await expectHidden(unpublished.id, invitedToken());
  });

  it('a private program gives 404 unless the token belongs to an invited researcher', async () => {
    const { privateInvited } = pickPrograms(fx.world);
    await expectHidden(privateInvited.id);
    await expectHidden(privateInvited.id, notInvitedToken());
    const program = ok(
      await fx.sb.api<Program>('GET', `/api/programs/${privateInvited.id}`, {
        token: invitedToken(),
      }),
    );
    expect(program.private).toBe(true);
  });

  it('an invalid Authorization header gives 401 unauthenticated', async () => {
    const { open } = pickPrograms(fx.world);
    expectError(
      await fx.sb.api('GET', `/api/programs/${open.id}`, { authorization: 'Bearer nope' }),
      401,
      'unauthenticated',
    );
  });
});

describe('4. Programs — the updated filter follows the sandbox clock', () => {
  it('7d and 30d keep the programs updated within that many days of now', async () => {
    const me = await freshAccount(fx.sb);
    const check = async () => {
      const now = Date.parse((await me.w.draft(pickPrograms(fx.world).open.id)).created_at ?? '');
      const everything = (await all()).programs;
      for (const [filter, days] of [
        ['7d', 7],
        ['30d', 30],
      ] as const) {
        const expected = everything
          .filter(
            (p) => p.updated_at !== null && now - Date.parse(p.updated_at) <= days * 86400_000,
          )
          .map((p) => p.id)
          .sort();
        const got = (await all({ updated: filter })).programs.map((p) => p.id).sort();
        expect(got, `updated=${filter}`).toEqual(expected);
      }
      return everything;
    };
    await check();
    const { open } = pickPrograms(fx.world);
    await fx.sb.patchProgram(open.id, { policy: { disclosure: 'Coordinated, 90 days.' } });
    const after = await check();
    expect(after[0]?.id).toBe(open.id);
    expect((await all({ updated: '7d' })).programs.map((p) => p.id)).toContain(open.id);
    await fx.sb.clock(8 * 86400);
    await check();
    expect((await all({ updated: '7d' })).programs.map((p) => p.id)).not.toContain(open.id);
    expect((await all({ updated: '30d' })).programs.map((p) => p.id)).toContain(open.id);
    await fx.sb.clock(30 * 86400);
    await check();
    expect((await all({ updated: '30d' })).programs.map((p) => p.id)).not.toContain(open.id);
  });
});

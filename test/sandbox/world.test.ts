import { beforeAll, describe, expect, it } from 'vitest';
import { Sbx } from './helpers';
import type { WorldView } from './helpers';

describe('sandbox contract: the seeded world', () => {
  const sbx = Sbx.perFile();
  let world: WorldView;
  beforeAll(async () => {
    world = await sbx.world();
  });

  it('is the same deterministic world in every fresh sandbox', async () => {
    const other = await Sbx.start();
    try {
      expect(await other.world()).toEqual(world);
    } finally {
      await other.close();
    }
  });

  it('has a verified account with payments ready, a write key and a read key', () => {
    const ada = world.accounts.find((a) => a.uid === 'ada');
    expect(ada).toMatchObject({ email_verified: true, payments_status: 'ready' });
    expect(ada?.keys.map((k) => k.scope).sort()).toEqual(['read', 'write']);
    for (const k of ada?.keys ?? []) expect(k.key).toMatch(/^sbx_[A-Za-z0-9_-]{43}$/);
  });

  it('has an unverified account and one whose payments are not started', () => {
    expect(world.accounts.some((a) => !a.email_verified)).toBe(true);
    expect(
      world.accounts.some((a) => a.email_verified && a.payments_status === 'not_started'),
    ).toBe(true);
  });

  it('gives each account a session token of a different shape than keys', () => {
    for (const a of world.accounts) {
      expect(a.session_token).not.toMatch(/^sbx_[A-Za-z0-9_-]{43}$/);
      expect(a.session_token.length).toBeGreaterThan(20);
    }
  });

  it('has programs for every intake, a paused pool, a private and an unpublished program', () => {
    const p = world.programs;
    for (const intake of ['open', 'paused', 'closed']) {
      expect(p.some((x) => x.intake === intake && x.published)).toBe(true);
    }
    expect(p.some((x) => x.intake === 'open' && x.pool_paused)).toBe(true);
    expect(p.filter((x) => x.private && x.invited.length === 1)).toHaveLength(1);
    expect(p.some((x) => !x.published)).toBe(true);
  });

  it('covers every asset type and reward band used by the list filters', async () => {
    const res = await sbx.call<{ counts: Record<string, Record<string, number>> }>(
      'GET',
      '/api/programs',
    );
    for (const n of Object.values(res.body.counts.asset ?? {})) expect(n).toBeGreaterThan(0);
    for (const n of Object.values(res.body.counts.reward ?? {})) expect(n).toBeGreaterThan(0);
    expect(Object.keys(res.body.counts.asset ?? {})).toHaveLength(7);
    expect(Object.keys(res.body.counts.reward ?? {})).toHaveLength(4);
  });

  it('has an account with reports in several statuses, one accepted with a payout', async () => {
    const dana = await sbx.account('dana');
    const token = dana.keys.find((k) => k.scope === 'read')?.key;
    const page = await sbx.call<{ reports: { id: string; status: string }[] }>(
      'GET',
      '/api/reports?limit=100',
      { token },
    );
    const statuses = new Set(page.body.reports.map((r) => r.status));
    expect(statuses.size).toBeGreaterThanOrEqual(8);
    const accepted = page.body.reports.find((r) => r.status === 'accepted');
    const full = await sbx.call<{ payout: { status: string } | null }>(
      'GET',
      `/api/reports/${accepted?.id}`,
      { token },
    );
    expect(full.body.payout).not.toBeNull();
  });
});

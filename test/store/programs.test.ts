import { describe, expect, it } from 'vitest';
import { iso, makeProgram, makeProgramSummary, useTempStore } from './fixtures';

const t = useTempStore();

const NOW = new Date(Date.parse(iso(0)) + 40 * 24 * 3600 * 1000);
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 3600 * 1000).toISOString();

function seed() {
  t.store.programs.upsertSummaries([
    makeProgramSummary({
      id: 'web-small',
      asset_types: ['web'],
      reward_range: { min: 50, max: 900, currency: 'USD' },
      updated_at: daysAgo(1),
    }),
    makeProgramSummary({
      id: 'api-mid',
      asset_types: ['api', 'web'],
      reward_range: { min: 100, max: 4000, currency: 'USD' },
      updated_at: daysAgo(10),
      intake: 'paused',
    }),
    makeProgramSummary({
      id: 'mobile-big',
      asset_types: ['mobile'],
      reward_range: { min: 100, max: 25000, currency: 'USD' },
      updated_at: daysAgo(35),
      intake: 'closed',
    }),
    makeProgramSummary({
      id: 'cloud-10k',
      asset_types: ['cloud'],
      reward_range: { min: 100, max: 10000, currency: 'USD' },
      updated_at: null,
    }),
  ]);
}

describe('programs', () => {
  it('lists newest update first, like the API', () => {
    seed();
    const page = t.store.programs.listPrograms({ now: NOW });
    expect(page.programs.map((p) => p.id)).toEqual([
      'web-small',
      'api-mid',
      'mobile-big',
      'cloud-10k',
    ]);
    expect(page).toMatchObject({ total: 4, page: 1, pages: 1 });
  });

  it('applies asset, reward, updated and intake filters and ignores unknown values', () => {
    seed();
    const ids = (query: Parameters<typeof t.store.programs.listPrograms>[0]) =>
      t.store.programs.listPrograms({ now: NOW, ...query }).programs.map((p) => p.id);
    expect(ids({ asset: 'web' })).toEqual(['web-small', 'api-mid']);
    expect(ids({ asset: 'mobile,cloud' })).toEqual(['mobile-big', 'cloud-10k']);
    expect(ids({ asset: 'bogus' })).toHaveLength(4);
    expect(ids({ reward: 'over_10k' })).toEqual(['mobile-big']);
    expect(ids({ reward: '5k_10k' })).toEqual(['cloud-10k']);
    expect(ids({ reward: ['under_1k', '1k_5k'] })).toEqual(['web-small', 'api-mid']);
    expect(ids({ updated: '7d' })).toEqual(['web-small']);
    expect(ids({ updated: '30d' })).toEqual(['web-small', 'api-mid']);
    expect(ids({ updated: 'yesterday' })).toHaveLength(4);
    expect(ids({ intake: 'open' })).toEqual(['web-small', 'cloud-10k']);
    expect(ids({ intake: 'open,paused', asset: 'web', updated: '7d' })).toEqual(['web-small']);
  });

  it('counts each option given the other filters', () => {
    seed();
    const { counts } = t.store.programs.listPrograms({ now: NOW, intake: 'open', asset: 'web' });
    // asset counts ignore the asset filter but apply intake=open.
    expect(counts['asset']).toMatchObject({ web: 1, cloud: 1, mobile: 0, api: 0 });
    // intake counts ignore intake but apply asset=web.
    expect(counts['intake']).toEqual({ open: 1, paused: 1, closed: 0 });
    expect(counts['updated']).toEqual({ any: 1, '7d': 1, '30d': 1 });
  });

  it('pages with a clamped limit, and a page after the end gives the last page', () => {
    t.store.programs.upsertSummaries(
      Array.from({ length: 60 }, (_, i) =>
        makeProgramSummary({ id: `p-${String(i).padStart(2, '0')}`, updated_at: iso(i) }),
      ),
    );
    const page = t.store.programs.listPrograms({ limit: 500, page: 99 });
    expect(page).toMatchObject({ total: 60, pages: 2, page: 2 });
    expect(page.programs.map((p) => p.id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `p-${String(9 - i).padStart(2, '0')}`),
    );
    expect(t.store.programs.listPrograms({ limit: 0 }).programs).toHaveLength(1);
    expect(t.store.programs.listPrograms().programs).toHaveLength(12);
  });

  it('keeps the full policy; a newer list entry marks it for refetch', () => {
    const program = makeProgram({ policy_version: 1 });
    t.store.programs.upsertSummaries([makeProgramSummary({ policy_version: 1 })]);
    expect(t.store.programs.listNeedingDetail()).toEqual([program.id]);
    t.store.programs.upsertProgram(program);
    expect(t.store.programs.getProgram(program.id)).toEqual(program);
    expect(t.store.programs.listNeedingDetail()).toEqual([]);
    // Listing the same version again keeps the policy fresh; a new version does not.
    t.store.programs.upsertSummaries([makeProgramSummary({ policy_version: 1 })]);
    expect(t.store.programs.listNeedingDetail()).toEqual([]);
    t.store.programs.upsertSummaries([
      makeProgramSummary({ policy_version: 2, updated_at: iso(9) }),
    ]);
    expect(t.store.programs.listNeedingDetail()).toEqual([program.id]);
    expect(t.store.programs.getSummary(program.id)?.policy_version).toBe(2);
    // The summary never carries the policy fields.
    expect(t.store.programs.getSummary(program.id)).not.toHaveProperty('scope');
  });

  it('drops programs a complete refresh no longer lists', () => {
    t.store.programs.upsertSummaries(
      [makeProgramSummary({ id: 'old' })],
      '2025-01-01T00:00:00.000Z',
    );
    t.store.programs.upsertSummaries(
      [makeProgramSummary({ id: 'kept' })],
      '2025-02-01T00:00:00.000Z',
    );
    expect(t.store.programs.removeNotListedSince('2025-02-01T00:00:00.000Z')).toEqual(['old']);
    expect(t.store.programs.getSummary('old')).toBeNull();
    expect(t.store.search.searchPrograms('acme').map((h) => h.id)).toEqual(['kept']);
  });

  it("stores a full program given as a summary with only the summary's fields of the API document", () => {
    const program = makeProgram({ id: 'full' });
    t.store.programs.upsertSummaries([program]);
    const stored = t.store.programs.getSummary('full');
    expect(stored).toEqual(makeProgramSummary({ id: 'full' }));
    expect(stored).not.toHaveProperty('scope');
    expect(stored).not.toHaveProperty('description');
  });
});

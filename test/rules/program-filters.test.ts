import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { filterCounts, normalizeFilters, rewardBand } from '../../src/shared/rules/program-filters';
import { REWARD_BANDS } from '../../src/shared/api';
import { openSandbox, type ProgramPage, type SandboxClient } from '../support/sandbox-client';
import { tempStore, type TempStore } from '../store/fixtures';

describe('reward bands', () => {
  it('puts each boundary where the server does', () => {
    expect([0, 999, 1000, 4999, 5000, 9999, 10000, 10001].map(rewardBand)).toEqual([
      'under_1k',
      'under_1k',
      '1k_5k',
      '1k_5k',
      '5k_10k',
      '5k_10k',
      '5k_10k',
      'over_10k',
    ]);
  });

  it('gives every amount exactly one band, in order of the amount', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(1_000_000), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        return REWARD_BANDS.indexOf(rewardBand(low)) <= REWARD_BANDS.indexOf(rewardBand(high));
      }),
    );
  });

  it('ignores unknown options and reads lists and comma-separated strings alike', () => {
    expect(normalizeFilters({ reward: 'over_10k, bogus,over_10k', updated: 'yesterday' })).toEqual({
      asset: [],
      reward: ['over_10k'],
      updated: 'any',
      intake: [],
    });
    expect(normalizeFilters({ asset: ['web', 'web', 'nope'], intake: null })).toMatchObject({
      asset: ['web'],
      intake: [],
    });
  });

  it('counts an option of a filter given the other filters only', () => {
    const programs = [
      { assetTypes: ['web'], topRewardUsd: 10_000, intake: 'open', updatedMs: null },
      { assetTypes: ['api'], topRewardUsd: 10_001, intake: 'closed', updatedMs: null },
    ];
    const counts = filterCounts(programs, normalizeFilters({ intake: 'open' }), 0);
    expect(counts.reward).toEqual({ under_1k: 0, '1k_5k': 0, '5k_10k': 1, over_10k: 0 });
    expect(counts.intake).toEqual({ open: 1, paused: 0, closed: 1 });
  });
});

/**
 * Online (the sandbox) and offline (the mirror) must list and count the same programs: one
 * program's top reward is moved across every boundary, and both answer each band's filter.
 */
describe('the mirror filters programs as the server does', () => {
  let sandbox: SandboxClient;
  let t: TempStore;

  beforeAll(async () => {
    sandbox = await openSandbox();
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it.each([999, 1000, 4999, 5000, 10000, 10001])('top reward %i USD', async (top) => {
    t = tempStore();
    try {
      const world = await sandbox.world();
      const program = world.programs.find((p) => p.published && !p.private);
      if (!program) throw new Error('the seeded world has a public program');
      await sandbox.patchProgram(program.id, { policy: { rewards: { low: 100, critical: top } } });
      const all = await sandbox.api<ProgramPage>('GET', '/api/programs', { query: { limit: 50 } });
      expect(all.body.programs.find((p) => p.id === program.id)?.reward_range.max).toBe(top);
      t.store.programs.upsertSummaries(all.body.programs);
      for (const band of REWARD_BANDS) {
        const online = await sandbox.api<ProgramPage>('GET', '/api/programs', {
          query: { limit: 50, reward: band },
        });
        const offline = t.store.programs.listPrograms({ limit: 50, reward: band });
        expect(offline.programs.map((p) => p.id)).toEqual(online.body.programs.map((p) => p.id));
        expect(offline.counts['reward']).toEqual(online.body.counts['reward']);
      }
      const own = t.store.programs.listPrograms({ limit: 50, reward: rewardBand(top) });
      expect(own.programs.map((p) => p.id)).toContain(program.id);
    } finally {
      t.cleanup();
    }
  });
});

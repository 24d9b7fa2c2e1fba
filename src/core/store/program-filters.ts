import type {
  AssetType,
  ProgramIntake,
  ProgramSummary,
  RewardBand as ApiRewardBand,
  UpdatedFilter,
} from './api-types';

/**
 * The filters of GET /api/programs, evaluated locally so the program list works offline.
 * Unknown option values are ignored, as the API does.
 *
 * Assumption (the document does not define the bands): the "top reward" is
 * `reward_range.max` in US dollars; bands are under_1k < 1,000 ≤ 1k_5k < 5,000 ≤ 5k_10k
 * < 10,000 ≤ over_10k.
 */
// Own copies of the contract's enums (type-checked against it) keep the store free of the
// contract's runtime module.
export const ASSET_OPTIONS = [
  'web',
  'api',
  'mobile',
  'source_code',
  'cloud',
  'hardware',
  'other',
] as const satisfies readonly AssetType[];
export const REWARD_OPTIONS = [
  'under_1k',
  '1k_5k',
  '5k_10k',
  'over_10k',
] as const satisfies readonly ApiRewardBand[];
export const UPDATED_OPTIONS = ['any', '7d', '30d'] as const satisfies readonly UpdatedFilter[];
export const INTAKE_OPTIONS: readonly ProgramIntake[] = ['open', 'paused', 'closed'];

export type RewardBand = (typeof REWARD_OPTIONS)[number];
export type UpdatedWindow = (typeof UPDATED_OPTIONS)[number];

export interface ProgramFilters {
  /** Each accepts the API's comma-separated string or an array. */
  asset?: string | readonly string[];
  reward?: string | readonly string[];
  updated?: string;
  intake?: string | readonly string[];
}

export interface NormalizedFilters {
  asset: string[];
  reward: string[];
  updated: UpdatedWindow;
  intake: string[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

function options(
  value: string | readonly string[] | undefined,
  known: readonly string[],
): string[] {
  if (value === undefined) return [];
  const list = typeof value === 'string' ? value.split(',') : [...value];
  return [...new Set(list.map((item) => item.trim()).filter((item) => known.includes(item)))];
}

export function normalizeFilters(filters: ProgramFilters): NormalizedFilters {
  const updated = (UPDATED_OPTIONS as readonly string[]).includes(filters.updated ?? '')
    ? (filters.updated as UpdatedWindow)
    : 'any';
  return {
    asset: options(filters.asset, ASSET_OPTIONS),
    reward: options(filters.reward, REWARD_OPTIONS),
    updated,
    intake: options(filters.intake, INTAKE_OPTIONS),
  };
}

export function rewardBand(topRewardUsd: number): RewardBand {
  if (topRewardUsd < 1_000) return 'under_1k';
  if (topRewardUsd < 5_000) return '1k_5k';
  if (topRewardUsd < 10_000) return '5k_10k';
  return 'over_10k';
}

type Facet = keyof NormalizedFilters;

function matchesFacet(
  program: ProgramSummary,
  facet: Facet,
  filters: NormalizedFilters,
  nowMs: number,
): boolean {
  switch (facet) {
    case 'asset':
      return (
        filters.asset.length === 0 || program.asset_types.some((a) => filters.asset.includes(a))
      );
    case 'reward':
      return (
        filters.reward.length === 0 || filters.reward.includes(rewardBand(program.reward_range.max))
      );
    case 'intake':
      return filters.intake.length === 0 || filters.intake.includes(program.intake);
    case 'updated': {
      if (filters.updated === 'any') return true;
      const updated = program.updated_at ? Date.parse(program.updated_at) : NaN;
      const days = filters.updated === '7d' ? 7 : 30;
      return Number.isFinite(updated) && updated >= nowMs - days * DAY_MS;
    }
  }
}

const FACETS: readonly Facet[] = ['asset', 'reward', 'updated', 'intake'];

export function matchesAll(
  program: ProgramSummary,
  filters: NormalizedFilters,
  nowMs: number,
  except?: Facet,
): boolean {
  return FACETS.every((facet) => facet === except || matchesFacet(program, facet, filters, nowMs));
}

/** `counts[filter][option]`: how many programs that option shows, given the other filters. */
export function facetCounts(
  programs: readonly ProgramSummary[],
  filters: NormalizedFilters,
  nowMs: number,
): Record<string, Record<string, number>> {
  const allOptions: Record<Facet, readonly string[]> = {
    asset: ASSET_OPTIONS,
    reward: REWARD_OPTIONS,
    updated: UPDATED_OPTIONS,
    intake: INTAKE_OPTIONS,
  };
  const counts: Record<string, Record<string, number>> = {};
  for (const facet of FACETS) {
    const others = programs.filter((p) => matchesAll(p, filters, nowMs, facet));
    const perOption: Record<string, number> = {};
    for (const option of allOptions[facet]) {
      const single: NormalizedFilters =
        facet === 'updated'
          ? { ...filters, updated: option as UpdatedWindow }
          : { ...filters, [facet]: [option] };
      perOption[option] = others.filter((p) => matchesFacet(p, facet, single, nowMs)).length;
    }
    counts[facet] = perOption;
  }
  return counts;
}

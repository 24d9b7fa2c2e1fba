/**
 * The filters of GET /api/programs (part 4 of docs/researcher-api.md), one definition for the
 * sandbox that answers them and the client that evaluates them offline from its mirror, so both
 * list and count the same programs.
 *
 * Choices where the document is silent (docs/sandbox.md): the "top reward" is `reward_range.max`
 * in US dollars; the bands are under_1k below 1,000; 1k_5k from 1,000 below 5,000; 5k_10k from
 * 5,000 up to and including 10,000; over_10k above 10,000. Unknown option values are ignored, as
 * the API document says.
 */
import {
  ASSET_TYPES,
  INTAKE_VALUES,
  REWARD_BANDS,
  UPDATED_FILTERS,
  type RewardBand,
  type UpdatedFilter,
} from '../api/index';

/** What the filters read of a program, whichever side holds it. */
export interface FilterableProgram {
  assetTypes: readonly string[];
  /** `reward_range.max`, US dollars. */
  topRewardUsd: number;
  intake: string;
  /** Epoch ms of `updated_at`; null when the program has none. */
  updatedMs: number | null;
}

/** The raw filters: the API's comma-separated strings, or arrays of options. */
export interface ProgramFilters {
  asset?: string | readonly string[] | null;
  reward?: string | readonly string[] | null;
  updated?: string | null;
  intake?: string | readonly string[] | null;
}

export interface NormalizedFilters {
  asset: string[];
  reward: string[];
  updated: UpdatedFilter;
  intake: string[];
}

export type FilterName = keyof NormalizedFilters;
export const FILTER_NAMES: readonly FilterName[] = ['asset', 'reward', 'updated', 'intake'];

const OPTIONS: Record<FilterName, readonly string[]> = {
  asset: ASSET_TYPES,
  reward: REWARD_BANDS,
  updated: UPDATED_FILTERS,
  intake: INTAKE_VALUES,
};

const DAY_MS = 24 * 60 * 60 * 1000;

function options(value: string | readonly string[] | null | undefined, known: readonly string[]) {
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? value.split(',') : [...value];
  return [...new Set(list.map((item) => item.trim()).filter((item) => known.includes(item)))];
}

export function normalizeFilters(filters: ProgramFilters): NormalizedFilters {
  const updated = (UPDATED_FILTERS as readonly string[]).includes(filters.updated ?? '')
    ? (filters.updated as UpdatedFilter)
    : 'any';
  return {
    asset: options(filters.asset, ASSET_TYPES),
    reward: options(filters.reward, REWARD_BANDS),
    updated,
    intake: options(filters.intake, INTAKE_VALUES),
  };
}

export function rewardBand(topRewardUsd: number): RewardBand {
  if (topRewardUsd < 1_000) return 'under_1k';
  if (topRewardUsd < 5_000) return '1k_5k';
  if (topRewardUsd <= 10_000) return '5k_10k';
  return 'over_10k';
}

function matches(
  program: FilterableProgram,
  name: FilterName,
  filters: NormalizedFilters,
  nowMs: number,
): boolean {
  switch (name) {
    case 'asset':
      return (
        filters.asset.length === 0 || program.assetTypes.some((a) => filters.asset.includes(a))
      );
    case 'reward':
      return (
        filters.reward.length === 0 || filters.reward.includes(rewardBand(program.topRewardUsd))
      );
    case 'intake':
      return filters.intake.length === 0 || filters.intake.includes(program.intake);
    case 'updated': {
      if (filters.updated === 'any') return true;
      const days = filters.updated === '7d' ? 7 : 30;
      return program.updatedMs !== null && program.updatedMs >= nowMs - days * DAY_MS;
    }
  }
}

/** Whether the program passes every filter (but `except`, for counting that filter's options). */
export function matchesFilters(
  program: FilterableProgram,
  filters: NormalizedFilters,
  nowMs: number,
  except?: FilterName,
): boolean {
  return FILTER_NAMES.every((name) => name === except || matches(program, name, filters, nowMs));
}

/** `counts[filter][option]`: how many programs that option shows, given the other filters. */
export function filterCounts(
  programs: readonly FilterableProgram[],
  filters: NormalizedFilters,
  nowMs: number,
): Record<FilterName, Record<string, number>> {
  const counts = {} as Record<FilterName, Record<string, number>>;
  for (const name of FILTER_NAMES) {
    const others = programs.filter((p) => matchesFilters(p, filters, nowMs, name));
    const perOption: Record<string, number> = {};
    for (const option of OPTIONS[name]) {
      const only: NormalizedFilters =
        name === 'updated'
          ? { ...filters, updated: option as UpdatedFilter }
          : { ...filters, [name]: [option] };
      perOption[option] = others.filter((p) => matches(p, name, only, nowMs)).length;
    }
    counts[name] = perOption;
  }
  return counts;
}

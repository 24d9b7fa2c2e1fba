/** `GET /api/programs` (filters, counts, pages) and `GET /api/programs/{program_id}`. */
import { DAY } from '../clock';
import { notFound } from '../errors';
import type { Route } from '../router';
import { canSeeProgram } from '../state/reports';
import { rewardRange, toProgram, toProgramSummary } from '../state/serialize';
import type { ProgramRecord } from '../state/types';
import { intParam, listParam } from './query';

const ASSETS = ['web', 'api', 'mobile', 'source_code', 'cloud', 'hardware', 'other'] as const;
const REWARDS = ['under_1k', '1k_5k', '5k_10k', 'over_10k'] as const;
const UPDATED = ['any', '7d', '30d'] as const;
const INTAKES = ['open', 'paused', 'closed'] as const;

type RewardBand = (typeof REWARDS)[number];
type Updated = (typeof UPDATED)[number];

/** Band of the top reward: under 1000, 1000-4999, 5000-10000, over 10000 US dollars. */
export function rewardBand(p: ProgramRecord): RewardBand {
  const top = rewardRange(p).max;
  if (top < 1000) return 'under_1k';
  if (top < 5000) return '1k_5k';
  if (top <= 10000) return '5k_10k';
  return 'over_10k';
}

interface Filters {
  asset: Set<string>;
  reward: Set<string>;
  updated: Updated;
  intake: Set<string>;
}

type FilterName = keyof Filters;

function passes(p: ProgramRecord, name: FilterName, f: Filters, now: number): boolean {
  switch (name) {
    case 'asset':
      return f.asset.size === 0 || p.asset_types.some((a) => f.asset.has(a));
    case 'reward':
      return f.reward.size === 0 || f.reward.has(rewardBand(p));
    case 'intake':
      return f.intake.size === 0 || f.intake.has(p.intake);
    case 'updated':
      if (f.updated === 'any') return true;
      return p.updated_ms >= now - (f.updated === '7d' ? 7 : 30) * DAY;
  }
}

const FILTER_NAMES: FilterName[] = ['asset', 'reward', 'updated', 'intake'];

function passesAll(p: ProgramRecord, f: Filters, now: number, except?: FilterName): boolean {
  return FILTER_NAMES.every((name) => name === except || passes(p, name, f, now));
}

/** counts[filter][option]: how many programs that option alone shows, given the other filters. */
function counts(
  programs: ProgramRecord[],
  f: Filters,
  now: number,
): Record<string, Record<string, number>> {
  const options: Record<FilterName, readonly string[]> = {
    asset: ASSETS,
    reward: REWARDS,
    updated: UPDATED,
    intake: INTAKES,
  };
  const result: Record<string, Record<string, number>> = {};
  for (const name of FILTER_NAMES) {
    const others = programs.filter((p) => passesAll(p, f, now, name));
    result[name] = Object.fromEntries(
      options[name].map((option) => {
        const only: Filters = {
          ...f,
          [name]: name === 'updated' ? option : new Set([option]),
        } as Filters;
        return [option, others.filter((p) => passes(p, name, only, now)).length];
      }),
    );
  }
  return result;
}

export const programRoutes: Route[] = [
  {
    method: 'GET',
    template: '/api/programs',
    auth: 'public',
    programs: true,
    handle({ env, query, principal }) {
      const now = env.clock.now();
      const updatedRaw = query.get('updated');
      const filters: Filters = {
        asset: listParam(query, 'asset', ASSETS),
        reward: listParam(query, 'reward', REWARDS),
        updated: (UPDATED as readonly string[]).includes(updatedRaw ?? '')
          ? (updatedRaw as Updated)
          : 'any',
        intake: listParam(query, 'intake', INTAKES),
      };
      const limit = intParam(query, 'limit', 1, 50, 12);
      const requestedPage = intParam(query, 'page', 1, undefined, 1);
      const visible = [...env.world.programs.values()]
        .filter((p) => canSeeProgram(p, principal?.account))
        .sort((a, b) => b.updated_ms - a.updated_ms || (a.id < b.id ? -1 : 1));
      const matching = visible.filter((p) => passesAll(p, filters, now));
      const pages = Math.max(1, Math.ceil(matching.length / limit));
      const page = Math.min(requestedPage, pages);
      return {
        status: 200,
        body: {
          programs: matching.slice((page - 1) * limit, page * limit).map(toProgramSummary),
          total: matching.length,
          page,
          pages,
          counts: counts(visible, filters, now),
        },
      };
    },
  },
  {
    method: 'GET',
    template: '/api/programs/{program_id}',
    auth: 'public',
    programs: true,
    handle({ env, params, principal }) {
      const program = env.world.programs.get(params.program_id ?? '');
      if (!program || !canSeeProgram(program, principal?.account)) {
        throw notFound('Program not found.');
      }
      return { status: 200, body: toProgram(program) };
    },
  },
];

/** `GET /api/programs` (filters, counts, pages) and `GET /api/programs/{program_id}`. */
import { notFound } from '../errors';
import {
  filterCounts,
  matchesFilters,
  normalizeFilters,
  type FilterableProgram,
} from '@shared/rules/program-filters';
import type { Route } from '../router';
import { canSeeProgram } from '../state/reports';
import { rewardRange, toProgram, toProgramSummary } from '../state/serialize';
import type { ProgramRecord } from '../state/types';
import { intParam } from './query';

/** What the shared filter rules read of a stored program. */
function filterable(p: ProgramRecord): FilterableProgram {
  return {
    assetTypes: p.asset_types,
    topRewardUsd: rewardRange(p).max,
    intake: p.intake,
    updatedMs: p.updated_ms,
  };
}

/** A filter's options as sent: repeated parameters count like a comma-separated list. */
const raw = (query: URLSearchParams, name: string): string => query.getAll(name).join(',');

export const programRoutes: Route[] = [
  {
    method: 'GET',
    template: '/api/programs',
    auth: 'public',
    programs: true,
    handle({ env, query, principal }) {
      const now = env.clock.now();
      const filters = normalizeFilters({
        asset: raw(query, 'asset'),
        reward: raw(query, 'reward'),
        updated: query.get('updated'),
        intake: raw(query, 'intake'),
      });
      const limit = intParam(query, 'limit', 1, 50, 12);
      const requestedPage = intParam(query, 'page', 1, undefined, 1);
      const visible = [...env.world.programs.values()]
        .filter((p) => canSeeProgram(p, principal?.account))
        .sort((a, b) => b.updated_ms - a.updated_ms || (a.id < b.id ? -1 : 1));
      const matching = visible.filter((p) => matchesFilters(filterable(p), filters, now));
      const pages = Math.max(1, Math.ceil(matching.length / limit));
      const page = Math.min(requestedPage, pages);
      return {
        status: 200,
        body: {
          programs: matching.slice((page - 1) * limit, page * limit).map(toProgramSummary),
          total: matching.length,
          page,
          pages,
          counts: filterCounts(visible.map(filterable), filters, now),
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

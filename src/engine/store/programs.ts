import type { Db } from './database';
import type { Program, ProgramPage, ProgramSummary } from './api-types';
import {
  filterCounts,
  matchesFilters,
  normalizeFilters,
  type FilterableProgram,
  type ProgramFilters,
} from '@shared/rules/program-filters';
import { bit, timeMs } from './sql-values';
import { pickSchemaFields } from '@shared/api/schema-fields';

export interface ListProgramsQuery extends ProgramFilters {
  /** Words every program shown has in its name, customer name or id (any case, any order). */
  search?: string;
  /** 1 to 50, default 12 (clamped like the API). */
  limit?: number;
  /** At least 1; a page after the end gives the last page. */
  page?: number;
  /** Clock for the `updated` filter (tests pin it). */
  now?: Date;
}

export interface ProgramsRepository {
  /** One page of GET /api/programs. `listedAt` marks them as seen by this refresh. */
  upsertSummaries(programs: readonly ProgramSummary[], listedAt?: string): void;
  /** GET /api/programs/{id}: the full program with its policy. */
  upsertProgram(program: Program, fetchedAt?: string): void;
  /** After a complete list refresh: drop programs no page returned (unpublished, uninvited). */
  removeNotListedSince(listedAt: string): string[];
  /** The API's list answer, computed from the local copy (offline). */
  listPrograms(query?: ListProgramsQuery): ProgramPage;
  getProgram(id: string): Program | null;
  getSummary(id: string): ProgramSummary | null;
  /** Programs whose policy is missing or older than their list entry. */
  listNeedingDetail(): string[];
}

const byNewestUpdate = 'ORDER BY updated_ms DESC, id';

/** The words of a program search, folded for comparison (case and accents ignored). */
function searchWords(search: string | undefined): string[] {
  return fold(search ?? '')
    .split(/\s+/u)
    .filter((w) => w !== '');
}

function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

function hasWords(program: ProgramSummary, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const haystack = fold(`${program.name} ${program.customer_name} ${program.id}`);
  return words.every((w) => haystack.includes(w));
}

export function createProgramsRepository(db: Db): ProgramsRepository {
  const sqlite = db.sqlite;
  const upsertSummary = sqlite.prepare(`
    INSERT INTO programs (id, name, intake, private, pool_paused, demo, policy_version, updated_at,
      updated_ms, summary_json, detail_stale, listed_at)
    VALUES (@id, @name, @intake, @private, @pool_paused, @demo, @policy_version, @updated_at,
      @updated_ms, @summary_json, 1, @listed_at)
    ON CONFLICT (id) DO UPDATE SET
      name = excluded.name, intake = excluded.intake, private = excluded.private,
      pool_paused = excluded.pool_paused, demo = excluded.demo,
      policy_version = excluded.policy_version, updated_at = excluded.updated_at,
      updated_ms = excluded.updated_ms, summary_json = excluded.summary_json,
      listed_at = excluded.listed_at,
      detail_stale = CASE WHEN programs.program_json IS NULL
        OR json_extract(programs.program_json, '$.policy_version') IS NOT excluded.policy_version
        OR json_extract(programs.program_json, '$.updated_at') IS NOT excluded.updated_at
        THEN 1 ELSE 0 END`);
  const upsertFull = sqlite.prepare(`
    INSERT INTO programs (id, name, intake, private, pool_paused, demo, policy_version, updated_at,
      updated_ms, summary_json, program_json, detail_stale, listed_at, fetched_at)
    VALUES (@id, @name, @intake, @private, @pool_paused, @demo, @policy_version, @updated_at,
      @updated_ms, @summary_json, @program_json, 0, @fetched_at, @fetched_at)
    ON CONFLICT (id) DO UPDATE SET
      name = excluded.name, intake = excluded.intake, private = excluded.private,
      pool_paused = excluded.pool_paused, demo = excluded.demo,
      policy_version = excluded.policy_version, updated_at = excluded.updated_at,
      updated_ms = excluded.updated_ms, summary_json = excluded.summary_json,
      program_json = excluded.program_json, detail_stale = 0, fetched_at = excluded.fetched_at`);
  const selectNotListed = sqlite.prepare<[string], { id: string }>(
    'SELECT id FROM programs WHERE listed_at < ?',
  );
  const deleteOne = sqlite.prepare<[string]>('DELETE FROM programs WHERE id = ?');
  const selectAllSummaries = sqlite.prepare<[], { summary_json: string }>(
    `SELECT summary_json FROM programs ${byNewestUpdate}`,
  );
  const selectFull = sqlite.prepare<[string], { program_json: string | null }>(
    'SELECT program_json FROM programs WHERE id = ?',
  );
  const selectSummary = sqlite.prepare<[string], { summary_json: string }>(
    'SELECT summary_json FROM programs WHERE id = ?',
  );
  const selectNeedingDetail = sqlite.prepare<[], { id: string }>(
    `SELECT id FROM programs WHERE detail_stale = 1 ${byNewestUpdate}`,
  );

  function columns(summary: ProgramSummary) {
    return {
      id: summary.id,
      name: summary.name,
      intake: summary.intake,
      private: bit(summary.private),
      pool_paused: bit(summary.pool_paused),
      demo: bit(summary.demo),
      policy_version: summary.policy_version,
      updated_at: summary.updated_at,
      updated_ms: timeMs(summary.updated_at),
      summary_json: JSON.stringify(pickSchemaFields('ProgramSummary', summary)),
    };
  }

  return {
    upsertSummaries(programs, listedAt = new Date().toISOString()) {
      db.transaction(() => {
        for (const program of programs)
          upsertSummary.run({ ...columns(program), listed_at: listedAt });
      });
    },

    upsertProgram(program, fetchedAt = new Date().toISOString()) {
      upsertFull.run({
        ...columns(program),
        program_json: JSON.stringify(program),
        fetched_at: fetchedAt,
      });
    },

    removeNotListedSince(listedAt) {
      return db.transaction(() => {
        const gone = selectNotListed.all(listedAt).map((row) => row.id);
        for (const id of gone) deleteOne.run(id);
        return gone;
      });
    },

    listPrograms(query = {}) {
      const nowMs = (query.now ?? new Date()).getTime();
      const filters = normalizeFilters(query);
      const words = searchWords(query.search);
      // The filters' counts are of the programs the search finds, as the list is.
      const all = selectAllSummaries
        .all()
        .map((row) => JSON.parse(row.summary_json) as ProgramSummary)
        .filter((program) => hasWords(program, words));
      const shown = all.filter((program) => matchesFilters(filterable(program), filters, nowMs));
      const limit = Math.min(50, Math.max(1, Math.trunc(query.limit ?? 12)));
      const pages = Math.max(1, Math.ceil(shown.length / limit));
      const page = Math.min(pages, Math.max(1, Math.trunc(query.page ?? 1)));
      return {
        programs: shown.slice((page - 1) * limit, page * limit),
        total: shown.length,
        page,
        pages,
        counts: filterCounts(all.map(filterable), filters, nowMs),
      };
    },

    getProgram(id) {
      const row = selectFull.get(id);
      return row?.program_json ? (JSON.parse(row.program_json) as Program) : null;
    },

    getSummary(id) {
      const row = selectSummary.get(id);
      return row ? (JSON.parse(row.summary_json) as ProgramSummary) : null;
    },

    listNeedingDetail() {
      return selectNeedingDetail.all().map((row) => row.id);
    },
  };
}

/** What the shared filter rules read of a mirrored program. */
function filterable(program: ProgramSummary): FilterableProgram {
  return {
    assetTypes: program.asset_types,
    topRewardUsd: program.reward_range.max,
    intake: program.intake,
    updatedMs: program.updated_at ? timeMs(program.updated_at) : null,
  };
}

import { contentOf, type DraftConflict } from '@shared/bridge/draft-content';
import type { DraftContent } from '@shared/bridge/views';
import type { Db } from './database';
import { cvssScore } from './report-order';
import { parseJson } from './sql-values';

export type { DraftConflict, DraftContent };

export interface Draft extends DraftContent {
  reportId: string;
  programId: string;
  /** Last content the server acknowledged: the merge base. Null while never sent. */
  base: DraftContent | null;
  baseRevision: number | null;
  conflict: DraftConflict | null;
  /** Never acknowledged by the server (created offline). */
  localOnly: boolean;
  updatedAt: string;
}

export interface DraftsRepository {
  /** The user's current content (keystroke debounce); never touches the base. */
  setContent(reportId: string, programId: string, content: DraftContent, at?: string): Draft;
  /** The server accepted `content` at `revision`: it becomes the merge base. */
  acknowledge(reportId: string, content: DraftContent, revision: number): void;
  setConflict(reportId: string, conflict: DraftConflict | null): void;
  get(reportId: string): Draft | null;
  list(): Draft[];
  delete(reportId: string): void;
}

interface DraftRow extends DraftContent {
  report_id: string;
  program_id: string;
  base_json: string | null;
  base_revision: number | null;
  conflict_json: string | null;
  local_only: number;
  updated_at: string;
}

function toDraft(row: DraftRow): Draft {
  return {
    ...contentOf(row),
    reportId: row.report_id,
    programId: row.program_id,
    base: parseJson<DraftContent>(row.base_json),
    baseRevision: row.base_revision,
    conflict: parseJson<DraftConflict>(row.conflict_json),
    localOnly: row.local_only === 1,
    updatedAt: row.updated_at,
  };
}

export function createDraftsRepository(db: Db): DraftsRepository {
  const sqlite = db.sqlite;
  // program_id is fixed once the draft exists, as on the server.
  // cvss_score: the vector's base score, which the reports list sorts by (migration 7).
  const upsertContent = sqlite.prepare(`
    INSERT INTO drafts (report_id, program_id, title, asset, description, cvss_vector, cvss_score,
      updated_at)
    VALUES (@report_id, @program_id, @title, @asset, @description, @cvss_vector, @cvss_score,
      @updated_at)
    ON CONFLICT (report_id) DO UPDATE SET
      title = excluded.title, asset = excluded.asset, description = excluded.description,
      cvss_vector = excluded.cvss_vector, cvss_score = excluded.cvss_score,
      updated_at = excluded.updated_at`);
  const updateBase = sqlite.prepare<[string, number, string]>(
    'UPDATE drafts SET base_json = ?, base_revision = ?, local_only = 0 WHERE report_id = ?',
  );
  const updateConflict = sqlite.prepare<[string | null, string]>(
    'UPDATE drafts SET conflict_json = ? WHERE report_id = ?',
  );
  const selectOne = sqlite.prepare<[string], DraftRow>('SELECT * FROM drafts WHERE report_id = ?');
  const selectAll = sqlite.prepare<[], DraftRow>('SELECT * FROM drafts ORDER BY updated_at DESC');
  const deleteOne = sqlite.prepare<[string]>('DELETE FROM drafts WHERE report_id = ?');

  function get(reportId: string): Draft | null {
    const row = selectOne.get(reportId);
    return row ? toDraft(row) : null;
  }

  return {
    setContent(reportId, programId, content, at = new Date().toISOString()) {
      const fields = contentOf(content);
      upsertContent.run({
        report_id: reportId,
        program_id: programId,
        ...fields,
        cvss_score: cvssScore(fields.cvss_vector),
        updated_at: at,
      });
      return get(reportId) as Draft;
    },
    acknowledge(reportId, content, revision) {
      updateBase.run(JSON.stringify(contentOf(content)), revision, reportId);
    },
    setConflict(reportId, conflict) {
      updateConflict.run(conflict === null ? null : JSON.stringify(conflict), reportId);
    },
    get,
    list: () => selectAll.all().map(toDraft),
    delete: (reportId) => void deleteOne.run(reportId),
  };
}

import type Database from 'better-sqlite3';
import type { Logger } from '../log/logger';
import type { Db } from './database';
import type { Report, ReportStatus, ReportSummary } from './api-types';
import { cvssScore, statusRankSql } from './report-order';
import { bit, timeMs } from './sql-values';
import { createAttachmentRows, type StoredAttachment } from './report-attachments';
import { createDocumentReader, encodeReportDocument, sameDocument } from './report-document';
import {
  listColumns,
  toStoredReportRow,
  type StoredReportSqlRow,
  type StoredReportRow,
} from './report-rows';

/** One report whose stored state changed, so the sync can emit events (needs-info, ...). */
export interface ReportChange {
  id: string;
  previousStatus: ReportStatus | null;
  status: ReportStatus;
  previousRevision: number | null;
  revision: number;
}

export interface UpsertReportsResult {
  changes: ReportChange[];
  /** Reports older than the stored state (an out-of-order response): not written. */
  skippedOlder: string[];
}

export interface ReportsRepository {
  /** Full reports from GET /api/reports/{id} (or a write's response), all in one transaction. */
  upsertReports(reports: readonly Report[], fetchedAt?: string): UpsertReportsResult;
  /** List-page data: new or changed reports are marked stale; returns the ids marked. */
  upsertSummaries(summaries: readonly ReportSummary[]): string[];
  listStaleIds(limit?: number): string[];
  /**
   * The next stale reports by what the researcher needs first (sync/mirror.ts): `needs_info`,
   * then the other open statuses and drafts, then the rest (decided, withdrawn); newest first
   * within a group, and only ever one group at a time. Ids in `skip` (tried already) are passed
   * over.
   */
  listStaleByNeed(
    limit: number,
    skip?: ReadonlySet<string>,
  ): { group: StaleGroup; ids: string[] } | null;
  /**
   * Reports in the mirror; of them those stored in full (`full`) and those stored in full and not
   * stale (`current`); and how many stale ones have a thread to read (the mirror's progress).
   */
  countMirrored(): MirrorCounts;
  /** Every report id of the mirror (the reconcile drops those the server no longer lists). */
  listIds(): string[];
  /**
   * Accepted reports stored in full and current whose payout is not `received` yet: the payout
   * follow-up reads them again (sync/follow-ups.ts). Newest first.
   */
  listPayoutFollowUps(): string[];
  /** One program's mirrored reports, newest first (the similar-reports hint reads them all). */
  listOfProgram(programId: string): StoredReportRow[];
  /** Every mirrored report with a payout, newest first (the payouts view). */
  listPaid(): Report[];
  getReport(id: string): Report | null;
  getStoredRow(id: string): StoredReportRow | null;
  listAttachments(reportId: string): StoredAttachment[];
  /** The researcher replied to the question (the reply is queued): it no longer waits. */
  markNeedsInfoAnswered(id: string): void;
  /** The reply that answered it was discarded before it was sent: the question waits again. */
  markNeedsInfoUnanswered(id: string): void;
  listUnseenNeedsInfo(): string[];
  deleteReport(id: string): void;
}

export interface MirrorCounts {
  listed: number;
  full: number;
  current: number;
  staleThreads: number;
}

/** The groups of `listStaleByNeed`, in the order they are fetched. */
export type StaleGroup = 'needs_info' | 'open' | 'rest';

interface StoredVersion {
  seq: number;
  status: ReportStatus;
  revision: number;
  updated_ms: number;
  /** The stored document (report-document.ts): JSON text or deflated bytes; null if none. */
  report_json: unknown;
}

/** Older means: a lower revision, or the same revision with an older updated_at. */
function isOlder(
  incoming: { revision: number; updated_ms: number },
  stored: StoredVersion,
): boolean {
  return (
    incoming.revision < stored.revision ||
    (incoming.revision === stored.revision && incoming.updated_ms < stored.updated_ms)
  );
}

export function createReportsRepository(db: Db, log: Logger): ReportsRepository {
  const sqlite = db.sqlite;
  const attachments = createAttachmentRows(sqlite);
  const selectVersion = sqlite.prepare<[string], StoredVersion>(
    `SELECT r.seq, r.status, r.revision, r.updated_ms, d.report_json
     FROM reports r LEFT JOIN report_documents d ON d.seq = r.seq WHERE r.id = ?`,
  );
  // The list sorts a report with a local draft by the draft's score (see migration 7); a list page
  // carries no vector, so a summary keeps the stored scores.
  const draftScore = 'SELECT d.cvss_score FROM drafts d WHERE d.report_id = @id';
  const upsertFull = sqlite.prepare(`
    INSERT INTO reports (id, program_id, program_name, status, display_status, title, revision,
      created_at, updated_at, updated_ms, submitted_at, withdrawn_at, has_payout, payout_status,
      needs_info_seen, stale, has_full, fetched_at, status_rank, cvss_score, severity_score)
    VALUES (@id, @program_id, @program_name, @status, @display_status, @title, @revision,
      @created_at, @updated_at, @updated_ms, @submitted_at, @withdrawn_at, @has_payout,
      @payout_status, 0, 0, 1, @fetched_at, ${statusRankSql('@status')}, @cvss_score,
      CASE WHEN EXISTS (${draftScore}) THEN (${draftScore}) ELSE @cvss_score END)
    ON CONFLICT (id) DO UPDATE SET
      program_id = excluded.program_id, program_name = excluded.program_name,
      status = excluded.status, display_status = excluded.display_status,
      status_rank = excluded.status_rank, cvss_score = excluded.cvss_score,
      severity_score = excluded.severity_score,
      title = excluded.title, revision = excluded.revision, created_at = excluded.created_at,
      updated_at = excluded.updated_at, updated_ms = excluded.updated_ms,
      submitted_at = excluded.submitted_at, withdrawn_at = excluded.withdrawn_at,
      has_payout = excluded.has_payout, payout_status = excluded.payout_status,
      needs_info_seen = CASE WHEN excluded.status = 'needs_info' AND reports.status <> 'needs_info'
        THEN 0 ELSE reports.needs_info_seen END,
      stale = 0, has_full = 1, fetched_at = excluded.fetched_at
    RETURNING seq`);
  const upsertDocument = sqlite.prepare<[number, Buffer]>(
    `INSERT INTO report_documents (seq, report_json) VALUES (?, ?)
     ON CONFLICT (seq) DO UPDATE SET report_json = excluded.report_json`,
  );
  const markFresh = sqlite.prepare<[string, string]>(
    'UPDATE reports SET stale = 0, fetched_at = ? WHERE id = ?',
  );
  const upsertSummary = sqlite.prepare(`
    INSERT INTO reports (id, program_id, program_name, status, display_status, title, revision,
      created_at, updated_at, updated_ms, submitted_at, withdrawn_at, stale, status_rank,
      severity_score)
    VALUES (@id, @program_id, @program_name, @status, @display_status, @title, @revision,
      @created_at, @updated_at, @updated_ms, @submitted_at, @withdrawn_at, 1,
      ${statusRankSql('@status')}, (${draftScore}))
    ON CONFLICT (id) DO UPDATE SET
      program_name = excluded.program_name, status = excluded.status,
      status_rank = excluded.status_rank,
      display_status = excluded.display_status, title = excluded.title,
      revision = excluded.revision, created_at = excluded.created_at,
      updated_at = excluded.updated_at, updated_ms = excluded.updated_ms,
      submitted_at = excluded.submitted_at, withdrawn_at = excluded.withdrawn_at,
      needs_info_seen = CASE WHEN excluded.status = 'needs_info' AND reports.status <> 'needs_info'
        THEN 0 ELSE reports.needs_info_seen END,
      stale = 1`);
  const selectStale = sqlite.prepare<[number], { id: string }>(
    'SELECT id FROM reports WHERE stale = 1 ORDER BY updated_ms DESC LIMIT ?',
  );
  const terminal = "('accepted', 'rejected', 'duplicate', 'insufficient_info', 'withdrawn')";
  const staleGroups: [StaleGroup, Database.Statement<[number], { id: string }>][] = (
    [
      ['needs_info', "status = 'needs_info'"],
      ['open', `status <> 'needs_info' AND status NOT IN ${terminal}`],
      ['rest', `status IN ${terminal}`],
    ] as const
  ).map(([group, where]) => [
    group,
    sqlite.prepare<[number], { id: string }>(
      `SELECT id FROM reports INDEXED BY reports_stale WHERE stale = 1 AND ${where}
       ORDER BY updated_ms DESC, id LIMIT ?`,
    ),
  ]);
  const selectMirrored = sqlite.prepare<[], MirrorCounts>(
    `SELECT count(*) AS listed, coalesce(sum(has_full = 1), 0) AS full,
       coalesce(sum(has_full = 1 AND stale = 0), 0) AS current,
       coalesce(sum(stale = 1 AND (status <> 'draft' OR submitted_at IS NOT NULL)), 0)
         AS staleThreads
     FROM reports`,
  );
  const mirrorVersion = sqlite
    .prepare<[], number>("SELECT n FROM change_counters WHERE name = 'mirror'")
    .pluck();
  let counted: { version: number; counts: MirrorCounts } | null = null;
  const selectIds = sqlite.prepare<[], string>('SELECT id FROM reports').pluck();
  const selectJson = sqlite.prepare<[string], { report_json: unknown }>(
    'SELECT d.report_json FROM reports r JOIN report_documents d ON d.seq = r.seq WHERE r.id = ?',
  );
  // A document that does not read back goes, and its report is fetched again as if never stored
  // in full: the server holds what it held.
  const dropDocument = sqlite.prepare<[string]>(
    'DELETE FROM report_documents WHERE seq = (SELECT seq FROM reports WHERE id = ?)',
  );
  const markRefetch = sqlite.prepare<[string]>(
    'UPDATE reports SET has_full = 0, stale = 1 WHERE id = ?',
  );
  const decode = createDocumentReader();
  /** The report a stored document holds; null (and the row dropped) when it does not read. */
  function readDocument(id: string, stored: unknown): Report | null {
    try {
      return JSON.parse(decode(stored)) as Report;
    } catch (error) {
      db.transaction(() => {
        dropDocument.run(id);
        markRefetch.run(id);
      });
      log.warn('store', 'unreadable-row-dropped', {
        table: 'report_documents',
        report: id,
        reason: error instanceof Error ? error.name : 'unknown',
      });
      return null;
    }
  }
  const selectStoredRow = sqlite.prepare<[string], StoredReportSqlRow>(
    `SELECT ${listColumns} FROM reports WHERE id = ?`,
  );
  const setSeen = sqlite.prepare<[string]>(
    "UPDATE reports SET needs_info_seen = 1 WHERE id = ? AND status = 'needs_info'",
  );
  const setUnseen = sqlite.prepare<[string]>(
    "UPDATE reports SET needs_info_seen = 0 WHERE id = ? AND status = 'needs_info'",
  );
  const selectUnseen = sqlite.prepare<[], { id: string }>(
    "SELECT id FROM reports WHERE status = 'needs_info' AND needs_info_seen = 0 ORDER BY updated_ms DESC",
  );
  const deleteOne = sqlite.prepare<[string]>('DELETE FROM reports WHERE id = ?');

  // Whole groups a background job or a derived view reads; the reports list pages in
  // report-list/.
  const selectPayoutFollowUps = sqlite.prepare<[], string>(
    `SELECT id FROM reports INDEXED BY reports_by_status
     WHERE status = 'accepted' AND has_full = 1 AND stale = 0
       AND (payout_status IS NULL OR payout_status <> 'received')
     ORDER BY updated_ms DESC, id`,
  );
  const selectOfProgram = sqlite.prepare<[string], StoredReportSqlRow>(
    `SELECT ${listColumns} FROM reports INDEXED BY reports_by_program WHERE program_id = ?
     ORDER BY updated_ms DESC, id`,
  );
  const selectPaid = sqlite.prepare<[], { id: string; report_json: unknown }>(
    `SELECT r.id, d.report_json FROM reports r JOIN report_documents d ON d.seq = r.seq
     WHERE r.has_payout = 1 ORDER BY r.updated_ms DESC, r.id`,
  );

  return {
    upsertReports(reports, fetchedAt = new Date().toISOString()) {
      const result: UpsertReportsResult = { changes: [], skippedOlder: [] };
      db.transaction(() => {
        for (const report of reports) {
          const json = JSON.stringify(report);
          const document = encodeReportDocument(json);
          const updatedMs = timeMs(report.updated_at);
          const stored = selectVersion.get(report.id);
          if (stored && isOlder({ revision: report.revision, updated_ms: updatedMs }, stored)) {
            result.skippedOlder.push(report.id);
            continue;
          }
          if (stored && sameDocument(stored.report_json, json, document)) {
            // Same content: only clear a stale mark a list page may have set meanwhile.
            markFresh.run(fetchedAt, report.id);
            continue;
          }
          const { seq } = upsertFull.get({
            id: report.id,
            program_id: report.program_id,
            program_name: report.program_name,
            status: report.status,
            display_status: report.display_status,
            title: report.title,
            revision: report.revision,
            created_at: report.created_at,
            updated_at: report.updated_at,
            updated_ms: updatedMs,
            submitted_at: report.submitted_at,
            withdrawn_at: report.withdrawn_at,
            has_payout: bit(report.payout != null),
            payout_status: report.payout?.status ?? null,
            fetched_at: fetchedAt,
            cvss_score: cvssScore(report.cvss_vector),
          }) as { seq: number };
          upsertDocument.run(seq, document);
          attachments.write(report);
          result.changes.push({
            id: report.id,
            previousStatus: stored?.status ?? null,
            status: report.status,
            previousRevision: stored?.revision ?? null,
            revision: report.revision,
          });
        }
      });
      return result;
    },

    upsertSummaries(summaries) {
      const marked: string[] = [];
      db.transaction(() => {
        for (const summary of summaries) {
          const updatedMs = timeMs(summary.updated_at);
          const stored = selectVersion.get(summary.id);
          if (stored) {
            const incoming = { revision: summary.revision, updated_ms: updatedMs };
            const same = incoming.revision === stored.revision && updatedMs === stored.updated_ms;
            if (isOlder(incoming, stored) || (same && stored.report_json !== null)) continue;
          }
          // Named parameters bind only the columns the statement names: a full report's other
          // fields are not stored here.
          upsertSummary.run({ ...summary, updated_ms: updatedMs });
          marked.push(summary.id);
        }
      });
      return marked;
    },

    listStaleIds(limit = 1000) {
      return selectStale.all(limit).map((row) => row.id);
    },

    listStaleByNeed(limit, skip = new Set()) {
      for (const [group, statement] of staleGroups) {
        const ids = statement
          .all(limit + skip.size)
          .map((row) => row.id)
          .filter((id) => !skip.has(id))
          .slice(0, limit);
        if (ids.length > 0) return { group, ids };
      }
      return null;
    },

    countMirrored() {
      // Kept until migration 13's counter moves; never inside a transaction (a rollback would
      // take the counter back to a number these counts no longer match).
      const version = mirrorVersion.get() ?? 0;
      if (counted?.version === version && !sqlite.inTransaction) return { ...counted.counts };
      const counts = selectMirrored.get() ?? { listed: 0, full: 0, current: 0, staleThreads: 0 };
      counted = sqlite.inTransaction ? null : { version, counts };
      return { ...counts };
    },

    listIds() {
      return selectIds.all();
    },

    listPayoutFollowUps() {
      return selectPayoutFollowUps.pluck().all();
    },

    listOfProgram(programId) {
      return selectOfProgram.all(programId).map(toStoredReportRow);
    },

    listPaid() {
      return selectPaid
        .all()
        .map((row) => readDocument(row.id, row.report_json))
        .filter((report) => report !== null);
    },

    getReport(id) {
      const row = selectJson.get(id);
      return row ? readDocument(id, row.report_json) : null;
    },

    getStoredRow(id) {
      const row = selectStoredRow.get(id);
      return row ? toStoredReportRow(row) : null;
    },

    listAttachments(reportId) {
      return attachments.list(reportId);
    },

    markNeedsInfoAnswered(id) {
      setSeen.run(id);
    },

    markNeedsInfoUnanswered(id) {
      setUnseen.run(id);
    },

    listUnseenNeedsInfo() {
      return selectUnseen.all().map((row) => row.id);
    },

    deleteReport(id) {
      deleteOne.run(id);
    },
  };
}

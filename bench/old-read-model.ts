/**
 * The "before" of the UI benchmark: the reports list as the engine computed it before the list was read in windows,
 * kept verbatim (from src/engine/commands/read-model.ts and src/engine/store/reports.ts at e62096c^),
 * run on this process's thread the way the engine then ran on Electron's main thread. It read
 * every matching row (limit MAX_SAFE_INTEGER) and sliced in JavaScript, merged drafts and the
 * outbox in JavaScript, and indexed the whole search-index queue before a search (`flush`).
 * Only the list query reads the current schema, whose `reports_list` index serves the same
 * ORDER BY as the `reports_by_update` it replaced, and whose search index's rowids are keys.
 */
import type { ReportListItemView, ReportQuery } from '../src/shared/bridge/views';
import type { StoredReportRow as StoredItem, Store } from '../src/engine/store';
import type { ReportStatus } from '../src/shared/api';
import { toFtsMatch } from '../src/engine/store';
import { seqOfKeySql } from '../src/engine/store/report-index-key';

interface Row extends Omit<StoredItem, 'has_payout' | 'needs_info_seen' | 'stale' | 'has_full'> {
  needs_info_seen: number;
}

const columns = `id, program_id, program_name, status, display_status, title, revision,
  created_at, updated_at, submitted_at, withdrawn_at, has_payout, payout_status, needs_info_seen,
  stale, has_full`;

/** The old `reports.listReports`: flush the index queue first when searching. */
function oldStoreList(store: Store, status: ReportStatus[], search: string | undefined): Row[] {
  const match = search === undefined ? null : toFtsMatch(search, {});
  const where: string[] = [];
  const params: unknown[] = [...status];
  if (status.length) where.push(`status IN (${status.map(() => '?').join(', ')})`);
  if (match !== null) {
    store.searchIndex.flush();
    // The index's rowids are keys of the list's order since migration 14 (report-index-key.ts).
    where.push(
      `seq IN (SELECT ${seqOfKeySql('rowid')} FROM reports_fts WHERE reports_fts MATCH ?)`,
    );
    params.push(match);
  }
  params.push(Number.MAX_SAFE_INTEGER, 0);
  return store.db.sqlite
    .prepare(
      `SELECT ${columns} FROM reports ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY updated_ms DESC, id LIMIT ? OFFSET ?`,
    )
    .all(...params) as Row[];
}

/** The old `ReadModel.listReports`. */
export function oldListReports(
  store: Store,
  query: ReportQuery,
): { items: ReportListItemView[]; total: number } {
  const limit = Math.min(Math.max(query.limit ?? 100, 1), 10_000);
  const offset = Math.max(query.offset ?? 0, 0);
  const drafts = new Map(store.drafts.list().map((d) => [d.reportId, d]));
  const open = store.outbox.list();
  const unsent = new Set(open.filter((e) => e.state !== 'done').map((e) => e.reportId));
  const parked = new Set(open.filter((e) => e.state === 'parked').map((e) => e.reportId));
  // What the list says since (a submit or withdraw on its way), read as the old model would.
  const queued = new Map<string, 'submit' | 'withdraw'>();
  for (const e of open) {
    if (e.state === 'done' || e.state === 'parked') continue;
    if (e.kind === 'submit' || e.kind === 'withdraw') queued.set(e.reportId, e.kind);
  }
  const status = query.status && query.status.length > 0 ? query.status : undefined;
  const search = query.search?.trim() || undefined;
  const mirrored = oldStoreList(store, status ?? [], search);
  const mirroredIds = new Set(mirrored.map((r) => r.id));
  const localOnly = [...drafts.values()]
    .filter((d) => !mirroredIds.has(d.reportId) && store.reports.getStoredRow(d.reportId) === null)
    .filter(() => !status || status.includes('draft'))
    .filter((d) => !search || d.title.toLowerCase().includes(search.toLowerCase()))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  const items: ReportListItemView[] = [
    ...localOnly.map((d) => ({
      id: d.reportId,
      programId: d.programId,
      programName: store.programs.getSummary(d.programId)?.name ?? d.programId,
      status: 'draft' as const,
      displayStatus: 'Draft (not sent yet)',
      title: d.title,
      updatedAt: d.updatedAt,
      unsent: true,
      conflict: d.conflict !== null,
      needsAction: parked.has(d.reportId),
      queuedAction: queued.get(d.reportId) ?? null,
    })),
    ...mirrored.map((row) => {
      const draft = drafts.get(row.id) ?? null;
      return {
        id: row.id,
        programId: row.program_id,
        programName: row.program_name,
        status: row.status,
        displayStatus: row.display_status,
        title: draft?.title ?? row.title,
        updatedAt: row.updated_at,
        unsent: unsent.has(row.id),
        conflict: draft?.conflict != null,
        needsAction:
          parked.has(row.id) || (row.status === 'needs_info' && row.needs_info_seen !== 1),
        queuedAction: queued.get(row.id) ?? null,
      };
    }),
  ];
  return { items: items.slice(offset, offset + limit), total: items.length };
}

import { contentOf } from '../../shared/bridge/draft-content';
import type {
  ChecklistView,
  ProgramPageView,
  ProgramQuery,
  ProgramView,
  ReportDetailView,
  ReportListItem,
  ReportQuery,
} from '../../shared/bridge/views';
import { submitChecklist } from '../domain/checklist';
import { serverDraft } from './local-drafts';
import type { SessionContext } from './session-context';
import { toDraftView, toEvidenceView, toListItem, toOutboxView } from './views';

/** What the screens read: the mirror, the local drafts and the outbox, as views. Never writes. */
export class ReadModel {
  readonly #ctx: SessionContext;

  constructor(ctx: SessionContext) {
    this.#ctx = ctx;
  }

  listPrograms(query: ProgramQuery): ProgramPageView {
    return this.#ctx.store.programs.listPrograms(query);
  }

  getProgram(programId: string): ProgramView | null {
    return this.#ctx.store.programs.getProgram(programId);
  }

  listReports(query: ReportQuery): { items: ReportListItem[]; total: number } {
    const { store } = this.#ctx;
    const limit = Math.min(Math.max(query.limit ?? 100, 1), 10_000);
    const offset = Math.max(query.offset ?? 0, 0);
    const drafts = new Map(store.drafts.list().map((d) => [d.reportId, d]));
    const open = store.outbox.list();
    const unsent = new Set(open.filter((e) => e.state !== 'done').map((e) => e.reportId));
    const parked = new Set(open.filter((e) => e.state === 'parked').map((e) => e.reportId));
    const status = query.status && query.status.length > 0 ? query.status : undefined;
    const search = query.search?.trim() || undefined;
    const mirrored = store.reports.listReports({
      ...(status ? { status } : {}),
      ...(search ? { search } : {}),
      limit: Number.MAX_SAFE_INTEGER,
    });
    const mirroredIds = new Set(mirrored.map((r) => r.id));
    // Drafts created offline are not in the mirror yet; they come first.
    const localOnly = [...drafts.values()]
      .filter((d) => !mirroredIds.has(d.reportId) && store.reports.getListItem(d.reportId) === null)
      .filter(() => !status || status.includes('draft'))
      .filter((d) => !search || d.title.toLowerCase().includes(search.toLowerCase()))
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    const items: ReportListItem[] = [
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
      })),
      ...mirrored.map((row) =>
        toListItem(row, drafts.get(row.id) ?? null, unsent.has(row.id), parked.has(row.id)),
      ),
    ];
    return { items: items.slice(offset, offset + limit), total: items.length };
  }

  getReport(reportId: string): ReportDetailView | null {
    const { store } = this.#ctx;
    const report = store.reports.getReport(reportId);
    const draft = store.drafts.get(reportId) ?? serverDraft(store, reportId);
    if (!report && !draft) return null;
    const outbox = store.outbox.list({ reportId });
    return {
      id: reportId,
      report,
      draft: draft
        ? toDraftView(
            draft,
            outbox.some((e) => e.state !== 'done'),
          )
        : null,
      evidence: store.evidence.listForReport(reportId).map(toEvidenceView),
      messages: store.messages.listThread(reportId),
      outbox: outbox.map(toOutboxView),
    };
  }

  getChecklist(reportId: string): ChecklistView {
    const { store } = this.#ctx;
    const draft = store.drafts.get(reportId);
    const report = store.reports.getReport(reportId);
    const account = store.account.get();
    const programId = draft?.programId ?? report?.program_id ?? '';
    const active = store.reports.listReports({
      status: ['triaging', 'needs_info', 'paused'],
      limit: Number.MAX_SAFE_INTEGER,
    }).length;
    return submitChecklist({
      me: account.me,
      payments: account.payments,
      program: store.programs.getSummary(programId),
      content: draft
        ? contentOf(draft)
        : report
          ? contentOf(report)
          : { title: '', asset: '', description: '', cvss_vector: '' },
      attachments: report?.attachments ?? null,
      uploads: store.evidence
        .listForReport(reportId)
        .filter((e) => e.purpose === 'report')
        .map((e) => ({ name: e.name, state: e.state })),
      activeReports: account.me ? Math.max(active, account.me.active_reports) : null,
    });
  }
}

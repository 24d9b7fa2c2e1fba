import { contentOf } from '@shared/bridge/draft-content';
import type {
  ChecklistView,
  ProgramPageView,
  ProgramQuery,
  ProgramView,
  ReportDetailView,
  ReportListPageView,
  ReportQuery,
} from '@shared/bridge/views';
import type { SimilarReportView } from '@shared/bridge/evidence-views';
import { submitChecklist } from '../domain/checklist';
import { rankSimilar, type Candidate } from '../domain/similar-reports';
import { draftSendState, policyVersionAtStart, serverDraft } from './local-drafts';
import type { SessionContext } from './session-context';
import { toDraftView, toEvidenceView, toListItemView, toOutboxView } from './to-views';

/** What the screens read: the mirror, the local drafts and the outbox, as views. Never writes. */
export class ReadCommands {
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

  /**
   * One page of the reports list: paged, sorted, filtered, counted and searched in SQL
   * (store/report-list/), so its cost does not grow with the mirror.
   */
  listReports(query: ReportQuery): ReportListPageView {
    const limit = Math.min(Math.max(query.limit ?? 100, 1), 1_000);
    const offset = Math.max(query.offset ?? 0, 0);
    const page = this.#ctx.store.reportList.page({
      ...listOf(query),
      offset,
      limit,
      ...(query.rowsFirst ? { rowsFirst: true } : {}),
    });
    return {
      items: page.rows.map(toListItemView),
      total: page.total,
      ...(page.totalPending ? { totalPending: true as const } : {}),
      counts: page.counts,
      statusLabels: page.statusLabels,
      programs: page.programs,
      indexing: page.indexing,
    };
  }

  /** The exact total of the list `listReports` pages (after a page said `totalPending`). */
  countReports(query: ReportQuery): number {
    return this.#ctx.store.reportList.count(listOf(query));
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
        ? toDraftView(draft, draftSendState(store, draft), policyVersionAtStart(store, reportId))
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
    const counts = store.reportList.countByStatus();
    const active = (counts.triaging ?? 0) + (counts.needs_info ?? 0) + (counts.paused ?? 0);
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

  /** The researcher's own reports for the same program whose asset or title is close. */
  findSimilarReports(reportId: string): SimilarReportView[] {
    const { store } = this.#ctx;
    const draft = store.drafts.get(reportId) ?? serverDraft(store, reportId);
    const report = store.reports.getReport(reportId);
    const content = draft ? contentOf(draft) : report ? contentOf(report) : null;
    const programId = draft?.programId ?? report?.program_id;
    if (!content || !programId) return [];
    const mine = store.reports.listOfProgram(programId).filter((r) => r.id !== reportId);
    const ids = new Set(mine.map((r) => r.id));
    const local = store.drafts
      .list()
      .filter((d) => d.programId === programId && d.reportId !== reportId && !ids.has(d.reportId));
    const candidates: (Candidate & Omit<SimilarReportView, 'reasons'>)[] = [
      ...mine.map((r) => {
        const localDraft = store.drafts.get(r.id);
        return {
          id: r.id,
          title: localDraft?.title || r.title,
          status: r.status,
          displayStatus: r.display_status,
          asset: localDraft?.asset ?? store.reports.getReport(r.id)?.asset ?? '',
        };
      }),
      ...local.map((d) => ({
        id: d.reportId,
        title: d.title,
        status: 'draft' as const,
        displayStatus: 'Draft (not sent yet)',
        asset: d.asset,
      })),
    ];
    const byId = new Map(candidates.map((c) => [c.id, c]));
    return rankSimilar(content, candidates)
      .slice(0, 10)
      .flatMap((s) => {
        const c = byId.get(s.id);
        return c
          ? [
              {
                id: c.id,
                title: c.title,
                status: c.status,
                displayStatus: c.displayStatus,
                reasons: s.reasons,
              },
            ]
          : [];
      });
  }
}

/** The filters, search and order of a query, as the store's list takes them. */
function listOf(query: ReportQuery) {
  const search = query.search?.trim() || undefined;
  return {
    ...(query.status && query.status.length > 0 ? { status: query.status } : {}),
    ...(query.program ? { program: query.program } : {}),
    ...(search ? { search } : {}),
    ...(query.sort ? { sort: query.sort } : {}),
  };
}

import {
  FINAL_DECISIONS,
  TERMINAL_STATUSES,
  type Message,
  type Report,
  type ReportStatus,
} from '@shared/api';
import { isApiError, type Priority } from '../api';
import { contentOf, sameContent } from '@shared/bridge/draft-content';
import { forEachLimited, type SyncContext } from './context';
import { startThreadCount, triageCount } from './inbox';

const FINAL = new Set<ReportStatus>(FINAL_DECISIONS);
const TERMINAL = new Set<ReportStatus>(TERMINAL_STATUSES);

interface Fetched {
  report: Report;
  messages: Message[] | null;
  /** The thread was put off (sync/mirror.ts): it is fetched last, as history. */
  deferred?: boolean;
}

export interface FetchOptions {
  /** Fetch the threads too (default); the payout follow-up reads reports only. */
  threads?: boolean;
  /**
   * Put off the threads of decided and withdrawn reports new to the mirror (the first mirror's
   * order: they are history, fetched after everything else).
   */
  deferTerminalThreads?: boolean;
}

/** A report has a thread once it has been submitted; a draft's thread is empty by definition. */
export function hasThread(report: Pick<Report, 'status' | 'submitted_at'>): boolean {
  return report.status !== 'draft' || report.submitted_at !== null;
}

/**
 * Fetches reports in full (and their threads where they were submitted), writes each batch in one
 * transaction and emits the events the shell turns into notifications.
 */
export async function fetchReports(
  ctx: SyncContext,
  ids: readonly string[],
  priority: Priority,
  signal?: AbortSignal,
  options: FetchOptions = {},
): Promise<number> {
  const threads = options.threads ?? true;
  const call = { priority, ...(signal ? { signal } : {}) };
  const batch: Fetched[] = [];
  let written = 0;
  const mine: string[] = [];
  const flush = (): void => {
    if (batch.length === 0) return;
    written += writeBatch(ctx, batch.splice(0, batch.length));
  };
  await forEachLimited(ids, ctx.concurrency, async (id) => {
    // The mirror's chunk was taken a while ago: a report read meanwhile (on demand) or being read
    // now is skipped.
    if (options.deferTerminalThreads) {
      if (ctx.reading?.has(id) || ctx.store.reports.getStoredRow(id)?.stale === false) return;
    }
    ctx.reading?.add(id);
    mine.push(id);
    try {
      const report = await ctx.api.getReport(id, call);
      ctx.fetchedAt?.set(id, Date.now());
      const deferred =
        threads &&
        options.deferTerminalThreads === true &&
        TERMINAL.has(report.status) &&
        ctx.store.reports.getStoredRow(id)?.has_full !== true;
      const messages =
        threads && !deferred && hasThread(report)
          ? (await ctx.api.listMessages(id, call)).messages
          : null;
      batch.push({ report, messages, deferred });
      if (batch.length >= 200) flush();
    } catch (error) {
      if (isApiError(error) && error.code === 'not_found') {
        ctx.store.reports.deleteReport(id);
        ctx.store.syncState.forgetDeferredThreads([id]);
        return;
      }
      throw error;
    }
  }).finally(() => {
    // Written (or failed) before the marks go: a report read but not written yet stays marked.
    try {
      flush();
    } finally {
      for (const id of mine) ctx.reading?.delete(id);
    }
  });
  return written;
}

/**
 * The threads the mirror put off: history of reports new to the mirror, so what they hold counts
 * as read (like every thread of a first mirror).
 */
export async function fetchDeferredThreads(
  ctx: SyncContext,
  ids: readonly string[],
  priority: Priority,
  signal?: AbortSignal,
): Promise<number> {
  const call = { priority, ...(signal ? { signal } : {}) };
  const done: string[] = [];
  await forEachLimited(ids, ctx.concurrency, async (id) => {
    let messages: Message[] | null = null;
    try {
      messages = (await ctx.api.listMessages(id, call)).messages;
    } catch (error) {
      if (!(isApiError(error) && error.code === 'not_found')) throw error;
    }
    if (messages) {
      const thread = messages;
      ctx.store.db.transaction(() => {
        ctx.store.messages.replaceThread(id, thread);
        startThreadCount(ctx.store, id, null);
      });
      ctx.events.emit('report-changed', { reportId: id });
    }
    done.push(id);
  }).finally(() => {
    // One rewrite of the put-off list per chunk (a thread written twice after a crash is the same).
    ctx.store.syncState.forgetDeferredThreads(done);
  });
  return done.length;
}

function writeBatch(ctx: SyncContext, batch: Fetched[]): number {
  const { store, events } = ctx;
  const notices: (() => void)[] = [];
  store.db.transaction(() => {
    // The stored full documents before this write (the list page may already have moved the
    // summary columns). A report seen for the first time raises no decision or payout notice:
    // the first mirror of an account must not notify about its whole history.
    const before = new Map(
      batch.map(({ report }) => [report.id, store.reports.getReport(report.id)]),
    );
    const { changes } = store.reports.upsertReports(batch.map((f) => f.report));
    const changed = new Set(changes.map((c) => c.id));
    const deferred: string[] = [];
    for (const { report, messages, deferred: putOff } of batch) {
      const previous = before.get(report.id) ?? null;
      // A put-off thread read now (on demand) is history too, like a new report's.
      const history = !previous || store.syncState.isThreadDeferred(report.id);
      const known = history ? null : triageCount(store, report.id);
      if (messages) store.messages.replaceThread(report.id, messages);
      followLocalDraft(ctx, report);
      // A put-off thread starts counting when it arrives (fetchDeferredThreads), as history.
      if (putOff && hasThread(report)) deferred.push(report.id);
      else startThreadCount(store, report.id, known);
      if (changed.has(report.id) || !previous) {
        notices.push(() => events.emit('report-changed', { reportId: report.id }));
      }
      if (report.status === 'needs_info' && store.syncState.claimNeedsInfoNotification(report.id)) {
        notices.push(() => events.emit('needs-info', { reportId: report.id, title: report.title }));
      }
      if (!previous) continue;
      if (FINAL.has(report.status) && previous.status !== report.status) {
        notices.push(() =>
          events.emit('decision', {
            reportId: report.id,
            title: report.title,
            outcome: report.status,
          }),
        );
      }
      const was = previous.payout ?? null;
      const now = report.payout ?? null;
      if (now && (was?.status !== now.status || was.amount_cents !== now.amount_cents)) {
        notices.push(() =>
          events.emit('payout-changed', {
            reportId: report.id,
            title: report.title,
            status: now.status,
            amountCents: now.amount_cents,
          }),
        );
      }
    }
    store.syncState.deferThreads(deferred);
    // A thread read now (on demand, or the report changed) is no longer put off.
    store.syncState.forgetDeferredThreads(
      batch.filter((f) => f.messages !== null).map((f) => f.report.id),
    );
    store.syncState.forgetNeedsInfoNotLongerPending();
  });
  // Events only after the commit: a listener that reads the mirror sees the new state.
  for (const notice of notices) notice();
  return batch.length;
}

/**
 * Another client (or the website) changed a draft this client holds. Without unsent local edits
 * the local copy simply follows the server; with them, the outbox merges when it sends.
 */
function followLocalDraft(ctx: SyncContext, report: Report): void {
  const { store } = ctx;
  const draft = store.drafts.get(report.id);
  if (!draft) return;
  const unsent = store.outbox.countUnsent(report.id) > 0;
  if (report.status !== 'draft') {
    if (!unsent) store.drafts.delete(report.id);
    return;
  }
  if (unsent || draft.conflict) return;
  if (draft.baseRevision !== null && report.revision <= draft.baseRevision) return;
  const local = contentOf(draft);
  if (draft.base && !sameContent(draft.base, local)) return; // edits not queued yet
  const theirs = contentOf(report);
  store.drafts.acknowledge(report.id, theirs, report.revision);
  store.drafts.setContent(report.id, draft.programId, theirs);
}

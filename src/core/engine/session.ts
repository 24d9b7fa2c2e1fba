import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { KeyScope, Me } from '../../shared/api';
import type {
  ChecklistView,
  ConflictChoice,
  DraftContent,
  DraftField,
  DraftView,
  EvidenceView,
  ProgramPageView,
  ProgramQuery,
  ProgramView,
  ReportDetailView,
  ReportListItem,
  ReportQuery,
  StatusView,
} from '../../shared/bridge/views';
import { descriptionTemplate, insertFileLink, removeFileLinks } from '../../shared/rules';
import {
  RequestBudget,
  ResearcherApi,
  type Clock,
  type ResearcherApiOptions,
  type RetryPolicy,
  systemClock,
} from '../api';
import { submitChecklist } from '../domain/checklist';
import { contentOf, mergeDraft, sameContent } from '../domain/merge';
import { validateFile, validateMessage, validateReportInput } from '../domain/validate';
import { OutboxWorker } from '../outbox';
import {
  messageFingerprint,
  openStore,
  type Draft,
  type DraftConflict,
  type EnqueueInput,
  type Store,
} from '../store';
import { SyncScheduler, type Cadences, type SyncJob } from '../sync';
import { describeError } from '../../shared/errors/describe-error';
import type { EngineEvents } from './events';
import { contentTypeFor } from './content-type';
import { toDraftView, toEvidenceView, toOutboxView, toListItem } from './views';

export class EngineInputError extends Error {
  override readonly name = 'EngineInputError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

export class ReadOnlyError extends Error {
  override readonly name = 'ReadOnlyError';
  constructor() {
    super('This API key can only read: sign in with a key of scope "write" to make changes.');
  }
}

export interface SessionOptions {
  serverUrl: string;
  apiKey: string;
  scope: KeyScope;
  dir: string;
  events: EngineEvents;
  clock?: Clock;
  cadences?: Partial<Cadences>;
  retry?: Partial<RetryPolicy>;
  budgetLimit?: number;
  syncConcurrency?: number;
  /** Reports whose queued writes are sent at once (each report's entries stay in order). */
  outboxConcurrency?: number;
  /** Request timeouts (tests shorten them to provoke the uncertain outcome of a timeout). */
  timeouts?: ResearcherApiOptions['timeouts'];
  fetch?: (input: Request) => Promise<Response>;
}

const USER = { priority: 'user' } as const;

/**
 * One signed-in account: its API (budget, retries), its mirror, its outbox worker and its sync.
 * Every write lands in SQLite before anything is sent.
 */
export class AccountSession {
  readonly api: ResearcherApi;
  readonly store: Store;
  readonly scope: KeyScope;
  readonly #events: EngineEvents;
  readonly #worker: OutboxWorker;
  readonly #scheduler: SyncScheduler;
  readonly #clock: Clock;
  readonly #unsubscribe: (() => void)[] = [];
  #syncing = false;
  #lastSyncAt: string | null = null;
  #lastError: StatusView['lastError'] = null;

  constructor(options: SessionOptions) {
    this.scope = options.scope;
    this.#events = options.events;
    this.#clock = options.clock ?? systemClock;
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    this.store = openStore({ file: join(options.dir, 'mirror.sqlite'), dataDir: options.dir });
    this.api = new ResearcherApi({
      serverUrl: options.serverUrl,
      apiKey: options.apiKey,
      clock: this.#clock,
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.timeouts ? { timeouts: options.timeouts } : {}),
      ...(options.budgetLimit
        ? { budget: new RequestBudget({ clock: this.#clock, limit: options.budgetLimit }) }
        : {}),
    });
    const ctx = {
      api: this.api,
      store: this.store,
      events: this.#events,
      concurrency: options.syncConcurrency ?? 4,
      fetchedAt: new Map<string, number>(),
    };
    this.#worker = new OutboxWorker(
      {
        ...ctx,
        now: () => this.#clock.now(),
        requestSync: () => this.#scheduler.soon(),
      },
      {
        ...(options.retry ? { retry: options.retry } : {}),
        ...(options.outboxConcurrency ? { concurrency: options.outboxConcurrency } : {}),
      },
    );
    this.#scheduler = new SyncScheduler(ctx, options.cadences ?? {}, {
      onSyncStart: () => {
        this.#syncing = true;
        this.#emitStatus();
      },
      onSyncEnd: (error) => {
        this.#syncing = false;
        if (!error) {
          this.#lastSyncAt = new Date().toISOString();
          this.#lastError = null;
        } else {
          this.#lastError = errorView(error);
          if (this.#lastError) this.#events.emit('sync-error', this.#lastError);
        }
        this.#emitStatus();
      },
    });
    this.api.connectivity.on('online', () => {
      this.#events.emit('connectivity', { state: 'online' });
      this.#worker.kick();
      // A flapping connection must not start a full poll on every answer: one poll, shortly.
      this.#scheduler.soon();
      this.#emitStatus();
    });
    this.api.connectivity.on('offline', () => {
      this.#events.emit('connectivity', { state: 'offline' });
      this.#emitStatus();
    });
    // The bus outlives this session (the engine keeps it across sign-ins): unsubscribe on stop.
    this.#unsubscribe.push(this.#events.on('report-changed', () => this.#emitStatus()));
  }

  start(): void {
    if (this.scope === 'write') this.#worker.start();
    this.#scheduler.start();
  }

  async stop(): Promise<void> {
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    await this.#scheduler.stop();
    await this.#worker.stop();
    this.store.close();
  }

  /** Resolves when the outbox has sent everything it can (tests and the CLI use it). */
  drain(timeoutMs?: number): Promise<void> {
    return this.#worker.idle(timeoutMs);
  }

  syncNow(jobs?: SyncJob[]): Promise<void> {
    return this.#scheduler.syncNow(jobs);
  }

  getStatus(): StatusView {
    const entries = this.store.outbox.list();
    const budget = this.api.budget.snapshot();
    return {
      connectivity: this.api.connectivity.state,
      syncing: this.#syncing,
      lastSyncAt: this.#lastSyncAt ?? this.store.syncState.getLastSync('reports'),
      unsent: entries.filter((e) => e.state !== 'done').length,
      needsAction: entries.filter((e) => e.state === 'parked').length,
      budget: { used: budget.used, limit: this.api.budget.limit },
      lastError: this.#lastError,
    };
  }

  #emitStatus(): void {
    this.#events.emit('status', this.getStatus());
  }

  /**
   * A draft made elsewhere (the website, another device) as this client's merge base, without
   * writing anything: the report views show it as an editable draft.
   */
  #serverDraft(reportId: string): Draft | null {
    const report = this.store.reports.getReport(reportId);
    if (!report || report.status !== 'draft') return null;
    const content = contentOf(report);
    return {
      reportId,
      programId: report.program_id,
      ...content,
      base: content,
      baseRevision: report.revision,
      conflict: null,
      localOnly: false,
      updatedAt: report.updated_at ?? new Date(0).toISOString(),
    };
  }

  /** The local draft, created from the mirror on the first edit of a draft made elsewhere. */
  #adoptDraft(reportId: string): Draft | null {
    const local = this.store.drafts.get(reportId);
    if (local) return local;
    const server = this.#serverDraft(reportId);
    if (!server) return null;
    return this.store.db.transaction(() => {
      this.store.drafts.saveContent(reportId, server.programId, contentOf(server));
      this.store.drafts.acknowledge(reportId, contentOf(server), server.baseRevision ?? 0);
      return this.store.drafts.get(reportId);
    });
  }

  #writable(): void {
    if (this.scope !== 'write') throw new ReadOnlyError();
  }

  /**
   * Queues a change of a draft's content or files. A parked submit (it waits for the user to fix
   * its cause, e.g. incomplete_report) would otherwise hold the fix behind it in the report's
   * queue, so the submit moves behind the new entry, still parked with its error: retrying it
   * then submits the fixed draft.
   */
  #enqueueDraftChange<K extends 'save_draft' | 'upload_file' | 'remove_file'>(
    input: EnqueueInput<K>,
  ): void {
    this.store.db.transaction(() => {
      const parked = this.store.outbox
        .list({ reportId: input.reportId })
        .filter((e) => e.kind === 'submit' && e.state === 'parked');
      for (const entry of parked) this.store.outbox.cancel(entry.id);
      this.store.outbox.enqueue(input);
      for (const entry of parked) {
        const again = this.store.outbox.enqueue({
          reportId: input.reportId,
          kind: 'submit',
          payload: {},
        });
        this.store.outbox.park(again.id, entry.lastError);
      }
    });
  }

  // ---- programs -----------------------------------------------------------------------------

  listPrograms(query: ProgramQuery): ProgramPageView {
    return this.store.programs.listPrograms(query);
  }

  getProgram(programId: string): ProgramView | null {
    return this.store.programs.getProgram(programId);
  }

  // ---- reports ------------------------------------------------------------------------------

  listReports(query: ReportQuery): { items: ReportListItem[]; total: number } {
    const limit = Math.min(Math.max(query.limit ?? 100, 1), 10_000);
    const offset = Math.max(query.offset ?? 0, 0);
    const drafts = new Map(this.store.drafts.list().map((d) => [d.reportId, d]));
    const open = this.store.outbox.list();
    const unsent = new Set(open.filter((e) => e.state !== 'done').map((e) => e.reportId));
    const parked = new Set(open.filter((e) => e.state === 'parked').map((e) => e.reportId));
    const status = query.status && query.status.length > 0 ? query.status : undefined;
    const search = query.search?.trim() || undefined;
    const mirrored = this.store.reports.listReports({
      ...(status ? { status } : {}),
      ...(search ? { search } : {}),
      limit: Number.MAX_SAFE_INTEGER,
    });
    const mirroredIds = new Set(mirrored.map((r) => r.id));
    // Drafts created offline are not in the mirror yet; they come first.
    const localOnly = [...drafts.values()]
      .filter(
        (d) => !mirroredIds.has(d.reportId) && this.store.reports.getListItem(d.reportId) === null,
      )
      .filter(() => !status || status.includes('draft'))
      .filter((d) => !search || d.title.toLowerCase().includes(search.toLowerCase()))
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    const items: ReportListItem[] = [
      ...localOnly.map((d) => ({
        id: d.reportId,
        programId: d.programId,
        programName: this.store.programs.getSummary(d.programId)?.name ?? d.programId,
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
    const report = this.store.reports.getReport(reportId);
    const draft = this.store.drafts.get(reportId) ?? this.#serverDraft(reportId);
    if (!report && !draft) return null;
    const outbox = this.store.outbox.list({ reportId });
    if (report?.status === 'needs_info') this.store.reports.markNeedsInfoSeen(reportId);
    return {
      id: reportId,
      report,
      draft: draft
        ? toDraftView(
            draft,
            outbox.some((e) => e.state !== 'done'),
          )
        : null,
      evidence: this.store.evidence.listForReport(reportId).map(toEvidenceView),
      messages: this.store.messages.listThread(reportId),
      outbox: outbox.map(toOutboxView),
    };
  }

  createDraft(programId: string): DraftView {
    this.#writable();
    if (!/^[a-z0-9-]{1,80}$/.test(programId)) {
      throw new EngineInputError('program_id', 'must be 1 to 80 lowercase letters, digits or "-"');
    }
    const reportId = randomUUID();
    const content: DraftContent = {
      title: '',
      asset: '',
      description: descriptionTemplate(),
      cvss_vector: '',
    };
    return this.store.db.transaction(() => {
      const draft = this.store.drafts.saveContent(reportId, programId, content);
      this.store.outbox.enqueue({
        reportId,
        kind: 'save_draft',
        payload: { program_id: programId, ...content },
      });
      this.#worker.kick();
      return toDraftView(draft, true);
    });
  }

  /**
   * Autosave: the content is on disk before anything else happens. Invalid content is kept and
   * reported field by field; it is sent once it is valid.
   */
  saveDraft(reportId: string, content: DraftContent, basedOn?: DraftContent): DraftView {
    this.#writable();
    const existing = this.#adoptDraft(reportId);
    if (!existing) throw new EngineInputError('report_id', 'no local draft with this id');
    const draft = this.store.db.transaction(() => {
      const { content: clean, conflict } = this.#rebaseEdit(existing, content, basedOn);
      const saved = this.store.drafts.saveContent(reportId, existing.programId, clean);
      if (conflict) this.store.drafts.setConflict(reportId, conflict);
      const issues = validateReportInput({ program_id: existing.programId, ...clean, revision: 0 });
      if (issues.length === 0) {
        this.#enqueueDraftChange({
          reportId,
          kind: 'save_draft',
          payload: { program_id: existing.programId, ...clean },
        });
      }
      return conflict ? (this.store.drafts.get(reportId) ?? saved) : saved;
    });
    this.#worker.kick();
    return toDraftView(draft, this.store.outbox.countUnsent(reportId) > 0);
  }

  /**
   * The editor sends what the user typed on top of `basedOn`, the content it last received. If
   * the engine changed the draft since (the server's edits merged in while the user typed), a
   * plain save would silently undo that merge: fold the edit in with the same three-way merge,
   * and where both touched a field differently keep both for the user to choose.
   */
  #rebaseEdit(
    existing: Draft,
    edit: DraftContent,
    basedOn: DraftContent | undefined,
  ): { content: DraftContent; conflict: DraftConflict | null } {
    const local = contentOf(existing);
    const typed = contentOf(edit);
    if (!basedOn || sameContent(contentOf(basedOn), local))
      return { content: typed, conflict: null };
    const merge = mergeDraft(contentOf(basedOn), typed, local);
    if (merge.conflicts.length === 0) return { content: merge.merged, conflict: null };
    const conflict: DraftConflict = { ...(existing.conflict ?? {}) };
    for (const c of merge.conflicts) {
      conflict[c.field] = {
        local: c.ours,
        remote: existing.conflict?.[c.field]?.remote ?? c.theirs,
      };
    }
    return { content: merge.merged, conflict };
  }

  resolveConflicts(
    reportId: string,
    choices: Partial<Record<DraftField, ConflictChoice>>,
  ): DraftView {
    this.#writable();
    const draft = this.store.drafts.get(reportId);
    if (!draft) throw new EngineInputError('report_id', 'no local draft with this id');
    const conflict = draft.conflict ?? {};
    const content = contentOf(draft);
    const remaining: typeof conflict = {};
    for (const [field, sides] of Object.entries(conflict) as [
      DraftField,
      { local: string; remote: string },
    ][]) {
      const choice = choices[field];
      if (choice === undefined) {
        remaining[field] = sides;
        continue;
      }
      content[field] =
        choice === 'ours' ? sides.local : choice === 'theirs' ? sides.remote : choice.custom;
    }
    const stillConflicting = Object.keys(remaining).length > 0;
    const saved = this.store.db.transaction(() => {
      const next = this.store.drafts.saveContent(reportId, draft.programId, content);
      this.store.drafts.setConflict(reportId, stillConflicting ? remaining : null);
      if (!stillConflicting) {
        for (const entry of this.store.outbox.list({ reportId })) {
          if (entry.state === 'parked') this.store.outbox.unpark(entry.id, this.#clock.now());
        }
        this.store.outbox.enqueue({
          reportId,
          kind: 'save_draft',
          payload: { program_id: draft.programId, ...content },
        });
      }
      return this.store.drafts.get(reportId) ?? next;
    });
    this.#worker.kick();
    return toDraftView(saved, true);
  }

  /**
   * Copies evidence into the local store (hashing it), links it in the description at `insertAt`
   * when given, and queues the upload before the save that carries the link.
   */
  async attachFiles(
    reportId: string,
    files: { path: string; insertAt?: number }[],
    purpose: 'report' | 'message' = 'report',
  ): Promise<EvidenceView[]> {
    this.#writable();
    const draft = this.#adoptDraft(reportId);
    if (purpose === 'report' && !draft)
      throw new EngineInputError('report_id', 'only a draft takes evidence');
    const added: EvidenceView[] = [];
    for (const file of files) {
      const name = basename(file.path);
      const info = await stat(file.path);
      const issues = validateFile({ name, size: info.size });
      const first = issues[0];
      if (first) throw new EngineInputError(`file "${name}"`, first.message);
      const fileId = randomUUID();
      const evidence = await this.store.evidence.add({
        reportId,
        fileId,
        name,
        contentType: contentTypeFor(name),
        sourcePath: file.path,
        purpose,
      });
      this.store.db.transaction(() => {
        this.#enqueueDraftChange({
          reportId,
          kind: 'upload_file',
          payload: {
            file_id: fileId,
            name,
            content_type: evidence.contentType,
            size: evidence.size,
            sha256: evidence.sha256,
          },
        });
        const current = this.store.drafts.get(reportId);
        if (purpose === 'report' && current && file.insertAt !== undefined) {
          const description = insertFileLink(current.description, file.insertAt, {
            name,
            reportId,
            fileId,
            image: evidence.contentType.startsWith('image/'),
          });
          const content = { ...contentOf(current), description };
          this.store.drafts.saveContent(reportId, current.programId, content);
          this.#enqueueDraftChange({
            reportId,
            kind: 'save_draft',
            payload: { program_id: current.programId, ...content },
          });
        }
      });
      added.push(toEvidenceView(evidence));
    }
    this.#worker.kick();
    return added;
  }

  /** Links go first (a save), then the file: the server refuses to remove a linked file. */
  removeFile(reportId: string, fileId: string): void {
    this.#writable();
    this.store.db.transaction(() => {
      const draft = this.#adoptDraft(reportId);
      if (draft) {
        const description = removeFileLinks(draft.description, fileId);
        if (description !== draft.description) {
          const content = { ...contentOf(draft), description };
          this.store.drafts.saveContent(reportId, draft.programId, content);
          this.#enqueueDraftChange({
            reportId,
            kind: 'save_draft',
            payload: { program_id: draft.programId, ...content },
          });
        }
      }
      // A file never tried only needs its queued upload cancelled. Once an attempt was made, the
      // server may hold the file even though no answer came back (a dropped connection after
      // the upload was carried out), so the removal must be sent.
      const queuedUpload = this.store.outbox
        .list({ reportId })
        .find(
          (e) =>
            e.kind === 'upload_file' &&
            e.state === 'pending' &&
            e.attempts === 0 &&
            (e.payload as { file_id: string }).file_id === fileId,
        );
      const onServer = this.store.reports.getReport(reportId)?.attachments[fileId];
      if (queuedUpload && !onServer) {
        this.store.outbox.cancel(queuedUpload.id);
        this.store.evidence.remove(fileId);
        return;
      }
      this.#enqueueDraftChange({ reportId, kind: 'remove_file', payload: { file_id: fileId } });
    });
    this.#worker.kick();
  }

  getChecklist(reportId: string): ChecklistView {
    const draft = this.store.drafts.get(reportId);
    const report = this.store.reports.getReport(reportId);
    const account = this.store.account.get();
    const programId = draft?.programId ?? report?.program_id ?? '';
    const active = this.store.reports.listReports({
      status: ['triaging', 'needs_info', 'paused'],
      limit: Number.MAX_SAFE_INTEGER,
    }).length;
    return submitChecklist({
      me: account.me,
      payments: account.payments,
      program: this.store.programs.getSummary(programId),
      content: draft
        ? contentOf(draft)
        : report
          ? contentOf(report)
          : { title: '', asset: '', description: '', cvss_vector: '' },
      attachments: report?.attachments ?? null,
      uploads: this.store.evidence
        .listForReport(reportId)
        .filter((e) => e.purpose === 'report')
        .map((e) => ({ name: e.name, state: e.state })),
      activeReports: account.me ? Math.max(active, account.me.active_reports) : null,
    });
  }

  submit(reportId: string): void {
    this.#writable();
    if (!this.store.drafts.get(reportId) && !this.store.reports.getReport(reportId)) {
      throw new EngineInputError('report_id', 'unknown report');
    }
    this.store.outbox.enqueue({ reportId, kind: 'submit', payload: {} });
    this.#worker.kick();
  }

  withdraw(reportId: string): void {
    this.#writable();
    this.store.outbox.enqueue({ reportId, kind: 'withdraw', payload: {} });
    this.#worker.kick();
  }

  /** Files are uploaded as message evidence first; the message waits for them in the queue. */
  async postMessage(reportId: string, input: { body: string; filePaths: string[] }): Promise<void> {
    this.#writable();
    const evidence = await this.attachFiles(
      reportId,
      input.filePaths.map((path) => ({ path })),
      'message',
    );
    const files = evidence.map((e) => e.fileId);
    const first = validateMessage({ body: input.body, files })[0];
    if (first) throw new EngineInputError(first.field, first.message);
    this.store.outbox.enqueue({
      reportId,
      kind: 'post_message',
      payload: { body: input.body, files },
      localId: randomUUID(),
      bodyHash: messageFingerprint(input.body, files),
    });
    this.#worker.kick();
  }

  /** Saves a file to `destination`. Evidence may be hostile: it is never opened. */
  async downloadFile(
    reportId: string,
    fileId: string,
    destination: string,
  ): Promise<{ savedTo: string }> {
    const result = await this.api.downloadFile(reportId, fileId, destination, USER);
    return { savedTo: result.path };
  }

  retryEntry(entryId: number): void {
    this.store.outbox.unpark(entryId, this.#clock.now());
    this.#worker.kick();
  }

  discardEntry(entryId: number): void {
    this.store.outbox.cancel(entryId);
    this.#emitStatus();
  }

  async refreshPayments(): Promise<void> {
    const payments = await this.api.getPaymentsStatus(USER);
    this.store.account.setPayments(payments);
  }

  async refreshMe(): Promise<Me> {
    const me = await this.api.getMe(USER);
    this.store.account.setMe(me);
    return me;
  }

  async sendVerificationEmail(): Promise<{ alreadyVerified: boolean }> {
    const result = await this.api.sendVerificationEmail(USER);
    return { alreadyVerified: result.already_verified === true };
  }
}

function errorView(error: unknown): StatusView['lastError'] {
  if (error && typeof error === 'object' && 'code' in error && 'status' in error) {
    const e = error as { status: number; code: string; detail?: string; requestId?: string };
    return describeError(e);
  }
  return null;
}

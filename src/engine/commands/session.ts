import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyScope } from '@shared/api';
import type { StatusView } from '@shared/bridge/views';
import {
  RequestBudget,
  ResearcherApi,
  systemClock,
  type Clock,
  type ResearcherApiOptions,
  type RetryPolicy,
} from '../api';
import { OutboxWorker } from '../outbox';
import { storageProblem, type Store } from '../store';
import { openMirror, type MirrorRecovery } from '../store/open-mirror';
import {
  fetchReports,
  SyncScheduler,
  type Cadences,
  type SyncContext,
  type SyncJob,
} from '../sync';
import type { ChecklistView, ErrorView, ReportDetailView } from '@shared/bridge/views';
import { AccountCommands } from './account-commands';
import { DraftCommands } from './draft-commands';
import type { EngineEvents } from '../events/engine-events';
import { EvidenceCommands } from './evidence-commands';
import { LazyHttpImportCommands } from './lazy-http-import';
import { ReportFileCommands } from './report-file-commands';
import { TemplateCommands } from './template-commands';
import { OutboxCommands } from './outbox-commands';
import { PayoutCommands } from './payout-commands';
import { ReadCommands } from './read-commands';
import { SecretCommands } from './secret-commands';
import type { SessionContext } from './session-context';
import { sessionStatus } from './session-status';
import { TriageCommands } from './triage-commands';
import { apiErrorView } from './to-views';
import type { Logger } from '../log/logger';

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
  /** Read every page of the mirror before using it (a call met a damaged one). */
  checkMirror?: boolean;
  /** SQLite met a damaged page (a call, the sync or the outbox): the engine starts again checked. */
  onDamaged?: () => void;
  /** What an earlier session of this run recovered: still said after a restart on a checked file. */
  earlierRecovery?: MirrorRecovery | null;
  /** The process's log: the mirror says there which unreadable rows it repaired or dropped. */
  log?: Logger;
}

/**
 * One signed-in account: its API (budget, retries), its mirror, its outbox worker and its sync,
 * and the calls of the app grouped by concern (reads, drafts, evidence, triage, outbox, account,
 * secrets, HTTP import, payouts, report files, templates).
 * Every write lands in SQLite before anything is sent.
 */
export class AccountSession {
  readonly api: ResearcherApi;
  readonly store: Store;
  readonly scope: KeyScope;
  readonly reads: ReadCommands;
  readonly drafts: DraftCommands;
  readonly evidence: EvidenceCommands;
  readonly triage: TriageCommands;
  readonly outbox: OutboxCommands;
  readonly account: AccountCommands;
  /** The credential scan and its decisions; also the check before a write leaves. */
  readonly secrets: SecretCommands;
  /** Pasted or dropped HTTP evidence made a redacted block of the description. */
  readonly httpImport: LazyHttpImportCommands;
  readonly payouts: PayoutCommands;
  /** Reports as Markdown files. */
  readonly reportFiles: ReportFileCommands;
  readonly templates: TemplateCommands;
  readonly #events: EngineEvents;
  readonly #worker: OutboxWorker;
  readonly #scheduler: SyncScheduler;
  readonly #clock: Clock;
  readonly #unsubscribe: (() => void)[] = [];
  #syncing = false;
  #lastSyncAt: string | null = null;
  #lastError: StatusView['lastError'] = null;
  readonly #syncCtx: SyncContext;
  /** Reports downloading on demand, and those that failed (with why) until the next attempt. */
  readonly #onDemand = new Map<string, Promise<void>>();
  readonly #onDemandFailed = new Map<string, { error: ErrorView; at: number }>();
  /** Reports the server said it does not have (an id opened from a link). */
  readonly #missing = new Set<string>();
  /** The disk refused a write (see StoragePort): sending and syncing wait for a write to land. */
  #diskFull = false;
  readonly #onDamaged: (() => void) | undefined;
  readonly #log: Logger | undefined;
  /** The damaged mirror this start found and replaced, if any. */
  readonly recovery: MirrorRecovery | null;

  constructor(options: SessionOptions) {
    this.scope = options.scope;
    this.#events = options.events;
    this.#clock = options.clock ?? systemClock;
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    this.#onDamaged = options.onDamaged;
    this.#log = options.log;
    const mirror = openMirror({
      file: join(options.dir, 'mirror.sqlite'),
      dataDir: options.dir,
      check: options.checkMirror === true,
      ...(options.log ? { log: options.log } : {}),
    });
    this.store = mirror.store;
    this.recovery = mirror.recovery ?? options.earlierRecovery ?? null;
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
    const syncCtx: SyncContext = {
      api: this.api,
      store: this.store,
      events: this.#events,
      concurrency: options.syncConcurrency ?? 4,
      fetchedAt: new Map<string, number>(),
      reading: new Set<string>(),
    };
    this.#syncCtx = syncCtx;
    const ctx: SessionContext = {
      api: this.api,
      store: this.store,
      scope: this.scope,
      clock: this.#clock,
      events: this.#events,
      // On the next turn: the call that queued the write answers first (woken at once, the
      // worker's own synchronous start ran before that reply: 3 ms of every saved draft).
      kick: () => void setImmediate(() => this.#worker.kick()),
      emitStatus: () => this.#emitStatus(),
    };
    this.reads = new ReadCommands(ctx);
    this.drafts = new DraftCommands(ctx);
    this.evidence = new EvidenceCommands(ctx);
    this.triage = new TriageCommands(ctx);
    this.outbox = new OutboxCommands(ctx);
    this.account = new AccountCommands(ctx);
    this.secrets = new SecretCommands(ctx, [options.apiKey]);
    const evidence = this.evidence;
    this.httpImport = new LazyHttpImportCommands(async () => {
      const { HttpImportCommands } = await import('./http-import-commands');
      return new HttpImportCommands(ctx, evidence, [options.apiKey]);
    });
    this.payouts = new PayoutCommands(ctx);
    this.reportFiles = new ReportFileCommands(ctx, this.reads);
    this.templates = new TemplateCommands(ctx, this.drafts, this.secrets);
    this.#worker = new OutboxWorker(
      {
        ...syncCtx,
        // Saves, uploads and messages are checked for credentials right before they are sent.
        outgoing: this.secrets,
        now: () => this.#clock.now(),
        requestSync: () => this.#scheduler.soon(),
        storage: { failed: (error) => this.noteFailure(error), wrote: () => this.#diskWrote() },
      },
      {
        ...(options.retry ? { retry: options.retry } : {}),
        ...(options.outboxConcurrency ? { concurrency: options.outboxConcurrency } : {}),
      },
    );
    this.#scheduler = new SyncScheduler(syncCtx, options.cadences ?? {}, {
      onSyncStart: () => {
        this.#syncing = true;
        this.#emitStatus();
      },
      onSyncEnd: (error) => {
        this.#syncing = false;
        if (!error) {
          this.#lastSyncAt = new Date().toISOString();
          this.#lastError = null;
          this.#diskWrote();
        } else {
          this.noteFailure(error);
          this.#lastError = apiErrorView(error);
          if (this.#lastError) this.#events.emit('sync-error', this.#lastError);
        }
        this.#emitStatus();
      },
      onMirrorEnd: (error) => {
        if (error) {
          this.noteFailure(error);
          const view = apiErrorView(error);
          if (view) this.#events.emit('sync-error', view);
        }
        this.#emitStatus();
      },
    });
    this.api.connectivity.on('online', () => {
      this.#events.emit('connectivity', { state: 'online' });
      this.#worker.networkBack();
      // A flapping connection must not start a full poll on every answer: one poll, shortly.
      this.#scheduler.soon();
      this.#emitStatus();
    });
    this.api.connectivity.on('offline', () => {
      this.#events.emit('connectivity', { state: 'offline' });
      this.#emitStatus();
    });
    // The bus outlives this session (the engine keeps it across sign-ins): unsubscribe on stop.
    // One status for a burst of changes, on the next turn: a sync writes 200 reports a batch, and
    // a status per report made main forward 10,000 of them during a first mirror.
    let soon: NodeJS.Immediate | null = null;
    this.#unsubscribe.push(
      // Any committed write says the disk takes writes again.
      this.store.db.onCommit(() => this.#diskWrote()),
      this.#events.on('report-changed', () => {
        soon ??= setImmediate(() => {
          soon = null;
          this.#emitStatus();
        });
      }),
      () => {
        if (soon) clearImmediate(soon);
      },
    );
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

  /**
   * The user's "Sync now" (no `jobs`): everything the app shows, whatever its cadence: reports,
   * payouts (which the poll cannot see), the account, and the programs with their policies.
   * Tests name the jobs they need.
   */
  syncNow(jobs: SyncJob[] = ['account', 'reports', 'payouts', 'programs']): Promise<void> {
    return this.#scheduler.syncNow(jobs);
  }

  /** "Resync everything" (the reconcile now). */
  resyncEverything(): Promise<void> {
    return this.#scheduler.resync();
  }

  /** The submit preconditions, then the evidence checks (credentials, image metadata). */
  async getChecklist(reportId: string): Promise<ChecklistView> {
    const checklist = this.reads.getChecklist(reportId);
    const items = [...checklist.items, ...(await this.secrets.checklistItems(reportId))];
    return { ok: items.every((i) => i.ok), items };
  }

  /** Resolves once the background mirror stopped (tests and benchmarks). */
  mirrorIdle(): Promise<void> {
    return this.#scheduler.mirrorIdle();
  }

  /**
   * The mirror's view of a report, read ahead of a click on a row the list shows: null for one
   * `getReport` would download (a row merely shown starts no request to the service).
   */
  peekReport(reportId: string): ReportDetailView | null {
    const view = this.reads.getReport(reportId);
    return view === null || this.#incomplete(reportId, view) ? null : view;
  }

  /** Only listed, its thread put off, or not in the mirror (and not known to be gone). */
  #incomplete(reportId: string, view: ReportDetailView | null): boolean {
    if (this.#missing.has(reportId)) return false;
    const item = this.store.reports.getStoredRow(reportId);
    return (
      (item === null && view === null) ||
      (item !== null && !item.has_full) ||
      this.store.syncState.isThreadDeferred(reportId)
    );
  }

  /**
   * A report as the report screen shows it. One that is only listed (the first mirror has not
   * reached it), whose thread was put off, or that is not in the mirror at all (a link) is
   * downloaded now at the person's priority, ahead of everything else; the view says so, and a
   * `report-changed` event follows when it is in (or when it failed, or the server has no such
   * report: then the view is null).
   */
  getReport(reportId: string): ReportDetailView | null {
    const view = this.reads.getReport(reportId);
    if (!this.#incomplete(reportId, view)) return view;
    // A failure shows for a while; opening (or reloading) the report after that tries again.
    const failed = this.#onDemandFailed.get(reportId);
    if (failed && !this.#onDemand.has(reportId) && Date.now() - failed.at < RETRY_DOWNLOAD_MS) {
      const download = { state: 'failed' as const, error: failed.error };
      return { ...(view ?? emptyDetail(reportId)), download };
    }
    this.#download(reportId);
    return { ...(view ?? emptyDetail(reportId)), download: { state: 'downloading' } };
  }

  #download(reportId: string): void {
    if (this.#onDemand.has(reportId)) return;
    const done = fetchReports(this.#syncCtx, [reportId], 'user')
      .then(() => {
        this.#onDemandFailed.delete(reportId);
        if (!this.store.reports.getStoredRow(reportId)) this.#missing.add(reportId);
      })
      .catch((error: unknown) => {
        const view = apiErrorView(error) ?? {
          status: 0,
          code: 'download_failed',
          title: 'The report could not be downloaded',
          advice: 'Check your connection; opening the report again tries again.',
        };
        this.#onDemandFailed.set(reportId, { error: view, at: Date.now() });
      })
      .finally(() => {
        this.#onDemand.delete(reportId);
        this.#events.emit('report-changed', { reportId });
      });
    this.#onDemand.set(reportId, done);
  }

  getStatus(): StatusView {
    return sessionStatus(this.store, this.api, {
      syncing: this.#syncing,
      lastSyncAt: this.#lastSyncAt,
      lastError: this.#lastError,
      diskFull: this.#diskFull,
      recovery: this.recovery,
    });
  }

  /**
   * A call, the sync or the outbox met `error`: a full disk is noted once (the status says so and
   * the worker waits); true when it was the disk's.
   */
  noteFailure(error: unknown): boolean {
    const problem = storageProblem(error);
    if (problem === 'damaged') this.#onDamaged?.();
    if (problem !== 'disk-full') return false;
    if (!this.#diskFull) {
      this.#diskFull = true;
      this.#emitStatus();
    }
    return true;
  }

  #diskWrote(): void {
    if (!this.#diskFull) return;
    this.#diskFull = false;
    this.#emitStatus();
    this.#worker.kick();
    this.#scheduler.soon();
  }

  /**
   * The status is read from the mirror on timers and events: a damaged page or a full disk met
   * there is noted like any call's (a damaged mirror is rechecked), never thrown into a timer,
   * where it ended the engine's process and the session's unsent work waited for a restart.
   */
  #emitStatus(): void {
    let status: StatusView;
    try {
      status = this.getStatus();
    } catch (error) {
      this.noteFailure(error);
      if (!storageProblem(error)) {
        this.#log?.error('session', 'status-failed', {
          error: error instanceof Error ? error.name : typeof error,
        });
      }
      return;
    }
    this.#events.emit('status', status);
  }
}

/** How long a failed on-demand download shows before opening the report tries again. */
const RETRY_DOWNLOAD_MS = 10_000;

function emptyDetail(reportId: string): ReportDetailView {
  return { id: reportId, report: null, draft: null, evidence: [], messages: [], outbox: [] };
}

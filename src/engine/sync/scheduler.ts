import { isApiError } from '../api';
import type { SyncContext } from './context';
import { followPayouts, refreshAccount, refreshPrograms } from './follow-ups';
import { fetchBacklog, mirrorProgress } from './mirror';
import { pollReports } from './report-poller';

export interface Cadences {
  /** The poll of part 6: at most once a minute in normal use (all requests share 120/min). */
  reportsMs: number;
  payoutsMs: number;
  programsMs: number;
  accountMs: number;
  /**
   * The reconcile: every list page without `updated_since`, so that a report the incremental
   * poll cannot see (imported or backdated on the server, clock skew) still arrives, and one the
   * server dropped goes. 6 hours: 100 pages for 10,000 reports, under 0.4% of the budget of those
   * hours (2.3% at 100,000 reports).
   */
  reconcileMs: number;
  /** Delay of the extra poll after the user's own action (the agent may answer soon). */
  afterActionMs: number;
}

export const DEFAULT_CADENCES: Readonly<Cadences> = {
  reportsMs: 60_000,
  payoutsMs: 10 * 60_000,
  programsMs: 60 * 60_000,
  accountMs: 5 * 60_000,
  reconcileMs: 6 * 60 * 60_000,
  afterActionMs: 3_000,
};

export type SyncJob = 'reports' | 'payouts' | 'programs' | 'account' | 'reconcile';
type Job = SyncJob;

export interface SchedulerHooks {
  onSyncStart(): void;
  onSyncEnd(error: unknown): void;
  /** The background mirror stopped: done, or failed (it starts again after the next pass). */
  onMirrorEnd?(error: unknown): void;
}

/**
 * Runs each part of the sync on its own cadence, one job at a time, and remembers when each last
 * succeeded (in the mirror, so a restart does not refetch everything at once). A backlog too big
 * for a pass (the first mirror of a large account) is read by the background mirror, beside the
 * passes, at prefetch priority and in the mirror's order (mirror.ts): a pass (the minute's poll,
 * "Sync now") still runs meanwhile and never restarts it.
 */
export class SyncScheduler {
  readonly #ctx: SyncContext;
  readonly #cadences: Cadences;
  readonly #hooks: SchedulerHooks;
  readonly #abort = new AbortController();
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #forced = new Set<Job>();
  /** When the extra poll after the user's own write is due (epoch ms), if one is asked for. */
  #soonAt: number | null = null;
  readonly #failedAt = new Map<Job, number>();
  #mirror: Promise<void> | null = null;

  constructor(ctx: SyncContext, cadences: Partial<Cadences>, hooks: SchedulerHooks) {
    this.#ctx = ctx;
    this.#cadences = { ...DEFAULT_CADENCES, ...cadences };
    this.#hooks = hooks;
  }

  start(): void {
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running?.catch(() => undefined);
    await this.#mirror;
  }

  /** True while the background mirror reads the backlog. */
  get mirroring(): boolean {
    return this.#mirror !== null;
  }

  /** Resolves when the background mirror (if any) stopped (tests and benchmarks). */
  async mirrorIdle(): Promise<void> {
    while (this.#mirror) await this.#mirror;
  }

  /** "Resync everything": the reconcile now, whatever its cadence. */
  resync(): Promise<void> {
    this.#forced.add('reconcile');
    return this.#runNow();
  }

  /** The user asked, or came back online: everything due, and the given jobs regardless. */
  syncNow(jobs: readonly SyncJob[] = ['reports']): Promise<void> {
    for (const job of jobs) this.#forced.add(job);
    return this.#runNow();
  }

  /**
   * After the user's own write: one extra poll shortly. Repeated calls keep the earliest time (a
   * busy user must not push the poll away), and the time survives a pass that ends meanwhile
   * (it reschedules from #nextDueIn, which includes it).
   */
  soon(): void {
    const at = Date.now() + this.#cadences.afterActionMs;
    if (this.#soonAt === null || at < this.#soonAt) this.#soonAt = at;
    this.#schedule(this.#nextDueIn());
  }

  refreshAccountNow(): Promise<void> {
    this.#forced.add('account');
    return this.#runNow();
  }

  /** Runs until nothing is forced or due; the returned promise settles with the pass. */
  async #runNow(): Promise<void> {
    while (this.#running) await this.#running.catch(() => undefined);
    this.#running = this.#pass();
    try {
      await this.#running;
    } finally {
      this.#running = null;
      this.#startMirror();
      this.#schedule(this.#nextDueIn());
    }
  }

  #startMirror(): void {
    if (this.#mirror || this.#abort.signal.aborted) return;
    if (!mirrorProgress(this.#ctx)) return;
    this.#mirror = (async () => {
      let failure: unknown = null;
      try {
        await fetchBacklog(this.#ctx, 'prefetch', this.#abort.signal);
      } catch (error) {
        failure = error;
      }
      this.#mirror = null;
      if (!this.#abort.signal.aborted) this.#hooks.onMirrorEnd?.(failure);
    })();
  }

  #schedule(delayMs: number): void {
    if (this.#abort.signal.aborted) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () => {
        this.#timer = null;
        void this.#runNow().catch(() => undefined);
      },
      Math.max(0, delayMs),
    );
  }

  #interval(job: Job): number {
    const c = this.#cadences;
    return {
      reports: c.reportsMs,
      payouts: c.payoutsMs,
      programs: c.programsMs,
      account: c.accountMs,
      reconcile: c.reconcileMs,
    }[job];
  }

  #dueIn(job: Job): number {
    const soon = job === 'reports' && this.#soonAt !== null ? this.#soonAt - Date.now() : Infinity;
    const last = this.#ctx.store.syncState.getLastSync(job);
    // A failed run counts as a run for the timing: without it a job that keeps failing (offline,
    // server errors) would be due again at once, in a tight loop. Coming back online asks soon().
    const tried = Math.max(
      last ? Date.parse(last) : -Infinity,
      this.#failedAt.get(job) ?? -Infinity,
    );
    if (tried === -Infinity) return 0;
    return Math.min(soon, tried + this.#interval(job) - Date.now());
  }

  #nextDueIn(): number {
    const jobs: Job[] = ['reports', 'payouts', 'programs', 'account', 'reconcile'];
    return Math.min(...jobs.map((job) => this.#dueIn(job)));
  }

  async #pass(): Promise<void> {
    const signal = this.#abort.signal;
    const jobs: Job[] = ['account', 'reconcile', 'reports', 'payouts', 'programs'];
    let todo = jobs.filter((job) => this.#forced.has(job) || this.#dueIn(job) <= 0);
    // The reconcile's listing holds every change the poll would list.
    if (todo.includes('reconcile')) todo = todo.filter((job) => job !== 'reports');
    const passStartedAt = Date.now();
    this.#forced.clear();
    if (todo.length === 0) return;
    this.#hooks.onSyncStart();
    let failure: unknown = null;
    for (const job of todo) {
      if (signal.aborted) break;
      // A soon() during this poll asks for another one: the poll may have listed already.
      if (job === 'reports' || job === 'reconcile') this.#soonAt = null;
      try {
        await this.#runJob(job, signal, passStartedAt);
        const at = new Date().toISOString();
        this.#ctx.store.syncState.setLastSync(job, at);
        if (job === 'reconcile') this.#ctx.store.syncState.setLastSync('reports', at);
      } catch (error) {
        failure = error;
        this.#failedAt.set(job, Date.now());
        // Offline: the other jobs would fail the same way; the connectivity event restarts us.
        if (isApiError(error) && error.kind !== 'http') break;
      }
    }
    this.#hooks.onSyncEnd(failure);
  }

  async #runJob(job: Job, signal: AbortSignal, passStartedAt: number): Promise<void> {
    switch (job) {
      case 'reports':
      case 'reconcile':
        // While the background mirror reads the backlog, the pass only lists.
        await pollReports(this.#ctx, signal, {
          full: job === 'reconcile',
          ...(this.#mirror ? { inlineBacklog: 0 } : {}),
        });
        return;
      case 'payouts':
        // What the poll of this same pass read is current (the first mirror reads them all).
        await followPayouts(this.#ctx, { signal, skipFetchedSince: passStartedAt });
        return;
      case 'programs':
        await refreshPrograms(this.#ctx, signal);
        return;
      case 'account':
        await refreshAccount(this.#ctx, { freshPayments: true, signal });
        return;
    }
  }
}

/**
 * The sandbox's triage agent and owner team. With agent 'auto', after a delay on the sandbox
 * clock it asks for more information when a submitted report has no evidence file, otherwise moves
 * the report on: human review, then a decision by the owner team, then the payout steps. With
 * 'manual' nothing is scheduled. Due actions run on a real-time tick and on every request.
 */
import { parseCvss31 } from '@shared/rules';
import type { SandboxClock } from './clock';
import { act, setPayout } from './state/reports';
import type { ReportRecord } from './state/types';
import type { World } from './state/world';

type Step = 'turn' | 'decide' | 'payout';

interface Due {
  at: number;
  step: Step;
  reportId: string;
}

export class TriageAgent {
  private readonly queue = new Map<string, Due>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly world: World,
    private readonly clock: SandboxClock,
    readonly mode: 'auto' | 'manual',
    private readonly delayMs: number,
    private readonly changed: () => void,
  ) {}

  start(tickMs: number): void {
    this.timer = setInterval(() => this.runDue(), tickMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private schedule(step: Step, reportId: string): void {
    if (this.mode !== 'auto') return;
    const key = step === 'payout' ? `payout:${reportId}` : `report:${reportId}`;
    this.queue.set(key, { at: this.clock.now() + this.delayMs, step, reportId });
  }

  /** A report entered `triaging` (submit, reply, control route): a new turn is queued. */
  turnQueued(reportId: string): void {
    this.schedule('turn', reportId);
  }

  /** Withdrawn or moved by hand: a queued turn stops. */
  cancel(reportId: string): void {
    this.queue.delete(`report:${reportId}`);
  }

  /** After reset or load: queue what the stored statuses call for. */
  rescan(): void {
    this.queue.clear();
    for (const r of this.world.reports.values()) this.queueFor(r);
  }

  queueFor(r: ReportRecord): void {
    if (r.status === 'triaging' || r.status === 'paused') this.schedule('turn', r.id);
    else if (r.status === 'human_review') this.schedule('decide', r.id);
    if (r.payout && (r.payout.status === 'approving' || r.payout.status === 'transferred')) {
      this.schedule('payout', r.id);
    }
  }

  get pending(): number {
    return this.queue.size;
  }

  runDue(): void {
    if (this.queue.size === 0) return;
    const now = this.clock.now();
    const due = [...this.queue.entries()]
      .filter(([, d]) => d.at <= now)
      .sort((a, b) => a[1].at - b[1].at);
    for (const [key, d] of due) {
      this.queue.delete(key);
      const r = this.world.reports.get(d.reportId);
      if (r) this.perform(d.step, r);
    }
    if (due.length) this.changed();
  }

  private perform(step: Step, r: ReportRecord): void {
    if (step === 'turn') this.turn(r);
    else if (step === 'decide') this.decide(r);
    else this.payoutStep(r);
  }

  private turn(r: ReportRecord): void {
    if (r.status !== 'triaging' && r.status !== 'paused') return;
    const program = this.world.programs.get(r.program_id);
    const blocked = !program || program.pool_paused || program.intake !== 'open';
    if (blocked) {
      if (r.status === 'triaging') {
        act(
          this.world,
          r,
          'agent',
          'paused',
          'Triage is paused: the program is not taking work right now. It resumes automatically.',
        );
      }
      this.schedule('turn', r.id);
      return;
    }
    if (r.status === 'paused') {
      act(this.world, r, 'agent', 'triaging', 'Triage resumed.');
      this.schedule('turn', r.id);
      return;
    }
    const hasEvidence =
      Object.keys(r.submission?.attachments ?? {}).length > 0 ||
      r.messages.some((m) => m.author === 'researcher' && m.attachments.length > 0);
    if (!hasEvidence && r.agent_asks === 0) {
      r.agent_asks += 1;
      act(
        this.world,
        r,
        'agent',
        'needs_info',
        'Thanks for the report. Please attach evidence (a screenshot, an HTTP log or a proof of concept) and reply here.',
      );
      return;
    }
    act(
      this.world,
      r,
      'agent',
      'human_review',
      'Triage summary: the report was reproduced as described and is forwarded to the program team.',
    );
    this.schedule('decide', r.id);
  }

  /** The owner team decides: by CVSS score, or duplicate when an earlier report had the same title. */
  private decide(r: ReportRecord): void {
    if (r.status !== 'human_review') return;
    const content = r.submission?.content;
    const cvss = parseCvss31(content?.cvss_vector ?? '');
    const earlierSameTitle = [...this.world.reports.values()].some(
      (o) =>
        o !== r &&
        o.program_id === r.program_id &&
        o.submitted_at !== null &&
        r.submitted_at !== null &&
        o.submitted_at < r.submitted_at &&
        o.title.trim().toLowerCase() === r.title.trim().toLowerCase(),
    );
    if (earlierSameTitle) {
      act(this.world, r, 'founder', 'duplicate', 'This was reported before; thank you.');
    } else if (!cvss.ok || cvss.baseScore === 0) {
      act(
        this.world,
        r,
        'founder',
        'insufficient_info',
        'We could not assess the impact without a CVSS vector.',
      );
    } else if (cvss.severity === 'low') {
      act(this.world, r, 'founder', 'rejected', 'The impact is too low for this program.');
    } else {
      act(
        this.world,
        r,
        'founder',
        'accepted',
        `Accepted as ${cvss.severity} severity. A reward is on its way.`,
      );
      const severity = cvss.severity as 'medium' | 'high' | 'critical';
      const dollars = r.submission?.program.rewards[severity] ?? 0;
      setPayout(this.world, r, 'approving', dollars * 100);
      this.schedule('payout', r.id);
    }
  }

  private payoutStep(r: ReportRecord): void {
    if (r.payout?.status === 'approving') {
      setPayout(this.world, r, 'transferred', undefined);
      this.schedule('payout', r.id);
    } else if (r.payout?.status === 'transferred') {
      setPayout(this.world, r, 'received', undefined);
    }
  }
}

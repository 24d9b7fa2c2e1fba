/** The events of a submitted report in time order, from the report and its thread. Pure. */
import type { Message, Report } from '../../../shared/api';
import { ownValue } from '../../../shared/lookup/own';

export interface TimelineEvent {
  at: string;
  label: string;
}

const AUTHOR_NAMES: Record<string, string> = {
  agent: 'Triage agent',
  researcher: 'You',
  founder: 'Program team',
};

export function authorName(author: string): string {
  return ownValue(AUTHOR_NAMES, author) ?? author;
}

const OUTCOME_LABELS: Record<string, string> = {
  accepted: 'Accepted',
  rejected: 'Rejected',
  duplicate: 'Closed as duplicate',
  insufficient_info: 'Closed: insufficient information',
};

export function outcomeLabel(outcome: string): string {
  return ownValue(OUTCOME_LABELS, outcome) ?? outcome;
}

export function buildTimeline(report: Report, messages: readonly Message[]): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  const add = (at: string | null | undefined, label: string): void => {
    if (at) events.push({ at, label });
  };
  add(report.created_at, 'Draft created');
  add(report.submitted_at, 'Submitted for triage');
  for (const m of messages) {
    add(m.at, `Message from ${authorName(m.author).replace(/^You$/u, 'you')}`);
  }
  add(report.decision?.at, `Decision: ${outcomeLabel(report.decision?.outcome ?? '')}`);
  add(report.withdrawn_at, 'Withdrawn');
  const p = report.payout;
  if (p) {
    add(p.approved_at, 'Reward approved');
    add(p.transferred_at, 'Payout transferred');
    add(p.received_at, 'Payout received');
    add(p.payout_failed_at, 'Payout failed');
  }
  // Stable sort keeps same-time events in the order they happen in a report's life.
  return events
    .map((e, i) => ({ e, i, t: Date.parse(e.at) }))
    .sort((a, b) => (a.t === b.t || Number.isNaN(a.t - b.t) ? a.i - b.i : a.t - b.t))
    .map(({ e }) => e);
}

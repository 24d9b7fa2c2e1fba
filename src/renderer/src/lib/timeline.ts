/** The events of a submitted report in time order, from the report and its thread. Pure. */
import type { Message, Report } from '@shared/api';
import { ownValue } from '@shared/lookup/own';
import { authorName } from '@shared/words/authors';
import { statusLabel } from './format';

export interface TimelineEvent {
  at: string;
  label: string;
}

export { authorName };

const OUTCOME_LABELS: Record<string, string> = {
  accepted: 'Accepted',
  rejected: 'Rejected',
  duplicate: 'Closed as duplicate',
  insufficient_info: 'Closed: insufficient information',
};

export function outcomeLabel(outcome: string): string {
  return ownValue(OUTCOME_LABELS, outcome) ?? outcome;
}

/**
 * The report's life in time order: its status changes among the thread, the decision and the
 * payout. The API keeps no status history, so the changes are the ones its rules let the client
 * know: a submit starts triage; a message of the triage agent or the program team always comes
 * with a status change (the last one set the status the report has now); a reply to a question
 * starts a new triage turn; a decision and a withdrawal set their own.
 */
export function buildTimeline(report: Report, messages: readonly Message[]): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  const add = (at: string | null | undefined, label: string): void => {
    if (at) events.push({ at, label });
  };
  const status = (value: string): string =>
    statusLabel(value, value === report.status ? report.display_status : null);
  add(report.created_at, 'Draft created');
  add(report.submitted_at, 'Submitted for triage');
  const lastFromThem = messages.findLastIndex((m) => m.author !== 'researcher');
  const lastReply = messages.findLastIndex((m) => m.author === 'researcher');
  // Only a submitted report changes status; a decision and a withdrawal say their own.
  const settled = !report.submitted_at || report.decision !== null || report.withdrawn_at !== null;
  messages.forEach((m, i) => {
    add(m.at, `Message from ${authorName(m.author).replace(/^You$/u, 'you')}`);
    if (settled || report.status === 'draft') return;
    if (i === lastFromThem && report.status !== 'triaging') {
      add(m.at, `Status: ${status(report.status)}`);
    } else if (i === lastReply && lastReply > lastFromThem && lastFromThem >= 0) {
      if (report.status === 'triaging') add(m.at, `Status: ${status('triaging')} again`);
    }
  });
  // No message set the status the report has now (a pause, a review): it changed by the last update.
  if (
    !settled &&
    lastFromThem < 0 &&
    ['needs_info', 'paused', 'human_review'].includes(report.status)
  ) {
    add(report.updated_at, `Status: ${status(report.status)}`);
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

import type { BridgeEvents } from '@shared/bridge/contract';
import type { EventSource } from './ipc';
import { ownValue } from '@shared/lookup/own';

/** The part of an Electron `Notification` used here. */
export interface NotificationLike {
  on(event: 'click' | 'close', listener: () => void): unknown;
  show(): void;
}

export type MakeNotification = (options: { title: string; body: string }) => NotificationLike;

export interface NotifyDeps {
  events: EventSource;
  make: MakeNotification;
  /**
   * Brings the window to the front at this report, creating it if it was closed: the route a
   * `bountydesk://report/<id>` link takes (src/main/deep-links.ts).
   */
  openReport(reportId: string): void;
}

const OUTCOMES: Record<string, string> = {
  accepted: 'Accepted',
  rejected: 'Rejected',
  duplicate: 'Duplicate',
  insufficient_info: 'Insufficient info',
};

const PAYOUTS: Record<string, string> = {
  approving: 'approved, being paid',
  transferred: 'transferred',
  received: 'received',
  payout_failed: 'failed',
};

export function needsInfoText(e: BridgeEvents['needs-info']): { title: string; body: string } {
  return { title: 'Needs your input', body: `The triage team asks for more about “${e.title}”.` };
}

export function decisionText(e: BridgeEvents['decision']): { title: string; body: string } {
  return { title: `Decision: ${ownValue(OUTCOMES, e.outcome) ?? e.outcome}`, body: e.title };
}

export function payoutText(e: BridgeEvents['payout-changed']): { title: string; body: string } {
  const amount = (e.amountCents / 100).toLocaleString('en-US', {
    style: 'currency',
    currency: 'USD',
  });
  return { title: `Payout ${ownValue(PAYOUTS, e.status) ?? e.status}: ${amount}`, body: e.title };
}

/**
 * OS notifications for what the researcher must see even with the window hidden: a report that
 * needs their input, a decision, a payout change. Clicking one opens the report in the window. Returns an unsubscribe.
 */
export function wireNotifications(deps: NotifyDeps): () => void {
  // Shown notifications are kept referenced until clicked or closed, or their click is lost.
  const live = new Set<NotificationLike>();
  const show = (text: { title: string; body: string }, reportId: string): void => {
    const notification = deps.make(text);
    live.add(notification);
    notification.on('click', () => {
      live.delete(notification);
      deps.openReport(reportId);
    });
    notification.on('close', () => live.delete(notification));
    notification.show();
  };
  const offs = [
    deps.events.on('needs-info', (e) => show(needsInfoText(e), e.reportId)),
    deps.events.on('decision', (e) => show(decisionText(e), e.reportId)),
    deps.events.on('payout-changed', (e) => show(payoutText(e), e.reportId)),
  ];
  return () => {
    offs.forEach((off) => off());
    live.clear();
  };
}

import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as electron from 'electron';
import { EngineEvents } from '../../src/engine/commands';
import { wireNotifications } from '../../src/main/notifications';
import type { ElectronMock } from './electron-mock';

vi.mock('electron', async () => (await import('./electron-mock')).electronMock());
const { Notification } = electron as unknown as ElectronMock;

const REPORT = '3f1c2a9e-8d4b-4c1e-9f2a-7b6c5d4e3f21';

function setup() {
  const events = new EngineEvents();
  const opened: string[] = [];
  const off = wireNotifications({
    events,
    make: (options) => new Notification(options),
    openReport: (reportId) => opened.push(reportId),
  });
  return { events, opened, off };
}

describe('OS notifications from engine events', () => {
  beforeEach(() => (Notification.shown.length = 0));

  it('a report entering needs_info shows one; clicking it opens the report', () => {
    const { events, opened } = setup();
    events.emit('needs-info', { reportId: REPORT, title: 'XSS in search' });
    expect(Notification.shown).toHaveLength(1);
    const [shown] = Notification.shown;
    expect(shown?.options.title).toBe('Needs your input');
    expect(shown?.options.body).toContain('XSS in search');
    expect(opened).toEqual([]);
    shown?.listeners.get('click')?.();
    expect(opened).toEqual([REPORT]);
  });

  it('a decision and a payout change each show one that opens their report', () => {
    const { events, opened } = setup();
    events.emit('decision', { reportId: REPORT, title: 'SQLi', outcome: 'accepted' });
    events.emit('payout-changed', {
      reportId: REPORT,
      title: 'SQLi',
      status: 'transferred',
      amountCents: 150_000,
    });
    expect(Notification.shown.map((n) => n.options)).toEqual([
      { title: 'Decision: Accepted', body: 'SQLi' },
      { title: 'Payout transferred: $1,500.00', body: 'SQLi' },
    ]);
    Notification.shown[1]?.listeners.get('click')?.();
    expect(opened).toEqual([REPORT]);
  });

  it('other events show nothing, and unsubscribing stops them', () => {
    const { events, off } = setup();
    events.emit('report-changed', { reportId: REPORT });
    events.emit('connectivity', { state: 'offline' });
    off();
    events.emit('needs-info', { reportId: REPORT, title: 'late' });
    expect(Notification.shown).toEqual([]);
  });
});

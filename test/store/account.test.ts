import { describe, expect, it } from 'vitest';
import { makeMe, makeReport, useTempStore } from './fixtures';

const t = useTempStore();

const me = makeMe();

describe('account', () => {
  it('starts empty and keeps the connection, Me and payments across a re-open', () => {
    expect(t.store.account.get()).toEqual({
      serverUrl: null,
      keyScope: null,
      me: null,
      meFetchedAt: null,
      payments: null,
      paymentsFetchedAt: null,
    });
    t.store.account.setConnection({ serverUrl: 'http://127.0.0.1:1234', keyScope: 'read' });
    t.store.account.setMe(me, '2025-01-01T00:00:00.000Z');
    t.reopen();
    expect(t.store.account.get()).toMatchObject({
      serverUrl: 'http://127.0.0.1:1234',
      keyScope: 'read',
      me,
      payments: me.payments,
    });
  });

  it("a fresh payments status is not overwritten by Me's older stored copy", () => {
    const fresh = { ...me.payments, status: 'ready' as const, ready: true };
    t.store.account.setPayments(fresh, '2025-01-02T00:00:00.000Z');
    t.store.account.setMe(me, '2025-01-01T00:00:00.000Z');
    expect(t.store.account.get().payments).toEqual(fresh);
  });
});

describe('sync state', () => {
  it('keeps since and last sync times across a re-open', () => {
    t.store.syncState.setSince('2025-01-01T00:00:00Z');
    t.store.syncState.setLastSync('reports', '2025-01-01T00:01:00Z');
    t.store.syncState.set('custom', { page: 2 });
    t.reopen();
    expect(t.store.syncState.getSince()).toBe('2025-01-01T00:00:00Z');
    expect(t.store.syncState.getLastSync('reports')).toBe('2025-01-01T00:01:00Z');
    expect(t.store.syncState.getLastSync('payouts')).toBeNull();
    expect(t.store.syncState.get('custom')).toEqual({ page: 2 });
    t.store.syncState.setSince(null);
    expect(t.store.syncState.getSince()).toBeNull();
  });

  it('notifies needs_info once across restarts, and again after the report left it', () => {
    const report = makeReport({ status: 'needs_info' });
    t.store.reports.upsertReports([report]);
    expect(t.store.syncState.claimNeedsInfoNotification(report.id)).toBe(true);
    t.reopen();
    expect(t.store.syncState.claimNeedsInfoNotification(report.id)).toBe(false);
    expect(t.store.syncState.forgetNeedsInfoNotLongerPending()).toEqual([]);

    t.store.reports.upsertReports([
      { ...report, status: 'triaging', updated_at: '2030-01-01T00:00:00Z' },
    ]);
    expect(t.store.syncState.forgetNeedsInfoNotLongerPending()).toEqual([report.id]);
    expect(t.store.syncState.claimNeedsInfoNotification(report.id)).toBe(true);
    expect(t.store.syncState.notifiedNeedsInfo()).toEqual([report.id]);
  });
});

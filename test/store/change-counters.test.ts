import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrations, openDatabase, openStore } from '../../src/core/store';
import { makeMessage, makeReport, summaryOf, tempStore, type TempStore } from './fixtures';

let t: TempStore;
beforeEach(() => (t = tempStore()));
afterEach(() => t.cleanup());

describe('change counters', () => {
  it('the inbox counter moves with what the inbox reads, and only with that', () => {
    const inbox = () => t.store.changes.inbox();
    const report = makeReport({ status: 'triaging', submitted_at: '2025-01-01T00:00:00Z' });
    let last = inbox();
    const moved = (): boolean => {
      const now = inbox();
      const changed = now !== last;
      last = now;
      return changed;
    };

    t.store.reports.upsertReports([report]);
    expect(moved()).toBe(true);
    t.store.messages.replaceThread(report.id, [makeMessage()]);
    expect(moved()).toBe(true);
    t.store.reports.upsertReports([{ ...report, status: 'needs_info', revision: 2 }]);
    expect(moved()).toBe(true);
    t.store.reports.markNeedsInfoSeen(report.id);
    expect(moved()).toBe(true);
    t.store.threadSeen.start(report.id, 1);
    expect(moved()).toBe(true);
    t.store.threadSeen.start(report.id, 2);
    expect(moved()).toBe(false);
    t.store.threadSeen.mark(report.id, 2);
    expect(moved()).toBe(true);
    expect(t.store.threadSeen.all()).toEqual({ [report.id]: 2 });

    // The same report again, a draft, the outbox, other state: the inbox is unchanged.
    t.store.reports.upsertReports([{ ...report, status: 'needs_info', revision: 2 }]);
    t.store.reports.upsertSummaries([summaryOf(report, { status: 'needs_info', revision: 2 })]);
    t.store.drafts.setContent('local', 'acme-web', {
      title: 'x',
      asset: '',
      description: '',
      cvss_vector: '',
    });
    t.store.outbox.enqueue({ reportId: 'local', kind: 'save_report', payload: {} });
    t.store.syncState.set('something.else', 1);
    t.store.threadSeen.mark(report.id, 2);
    expect(moved()).toBe(false);

    t.store.reports.deleteReport(report.id);
    expect(moved()).toBe(true);
  });
});

describe('threads read', () => {
  it('migration 6 moves the JSON object of version 5 into one row per report', () => {
    const file = `${t.file}.v5`;
    const v5 = openDatabase(file, { migrations: migrations.slice(0, 5) });
    v5.sqlite
      .prepare("INSERT INTO sync_state (name, value_json, updated_at) VALUES (?, ?, 'now')")
      .run('inbox.thread_seen', JSON.stringify({ r1: 2, r2: 0 }));
    v5.close();
    const v6 = openStore({ file, dataDir: t.dir });
    try {
      expect(v6.threadSeen.all()).toEqual({ r1: 2, r2: 0 });
      expect(v6.syncState.get('inbox.thread_seen')).toBeNull();
    } finally {
      v6.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { migrations, openDatabase, openStore } from '../../src/engine/store';
import { makeMessage, makeReport, summaryOf, useTempStore } from './fixtures';

const t = useTempStore();

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
    t.store.reports.markNeedsInfoAnswered(report.id);
    expect(moved()).toBe(true);
    t.store.threads.start(report.id, 0);
    expect(moved()).toBe(true);
    t.store.threads.start(report.id, 1);
    expect(moved()).toBe(false);
    t.store.threads.markRead(report.id);
    expect(moved()).toBe(true);
    expect(t.store.threads.unread()).toEqual([]);

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
    t.store.threads.markRead(report.id);
    expect(moved()).toBe(false);

    t.store.reports.deleteReport(report.id);
    expect(moved()).toBe(true);
  });
});

describe('the mirror counts', () => {
  it('are kept while nothing they count changes, and follow every change that does', () => {
    const fresh = () =>
      t.store.db.sqlite
        .prepare(
          `SELECT count(*) AS listed, coalesce(sum(has_full = 1), 0) AS full,
             coalesce(sum(has_full = 1 AND stale = 0), 0) AS current,
             coalesce(sum(stale = 1 AND (status <> 'draft' OR submitted_at IS NOT NULL)), 0)
               AS staleThreads
           FROM reports`,
        )
        .get();
    const mirror = () => t.store.changes.mirror();
    const a = makeReport({ status: 'triaging', submitted_at: '2025-01-01T00:00:00Z' });
    const b = makeReport({ status: 'draft', submitted_at: null });

    expect(t.store.reports.countMirrored()).toEqual(fresh());
    // Listed only (a list page): counted, stale.
    t.store.reports.upsertSummaries([summaryOf(a), summaryOf(b)]);
    expect(t.store.reports.countMirrored()).toEqual({
      listed: 2,
      full: 0,
      current: 0,
      staleThreads: 1,
    });
    // Stored in full.
    t.store.reports.upsertReports([a]);
    expect(t.store.reports.countMirrored()).toEqual(fresh());
    expect(t.store.reports.countMirrored()).toMatchObject({ full: 1, current: 1 });
    // A newer list page marks it stale again; its status moves.
    t.store.reports.upsertSummaries([summaryOf(a, { status: 'accepted', revision: 2 })]);
    expect(t.store.reports.countMirrored()).toEqual(fresh());
    // What the counts do not read leaves the counter alone: drafts, the outbox, sync state.
    const before = mirror();
    t.store.drafts.setContent(b.id, 'acme-web', {
      title: 'x',
      asset: '',
      description: 'y',
      cvss_vector: '',
    });
    t.store.outbox.enqueue({ reportId: b.id, kind: 'save_report', payload: {} });
    t.store.syncState.set('something.else', 1);
    expect(mirror()).toBe(before);
    // Dropped by a reconcile.
    t.store.reports.deleteReport(b.id);
    expect(t.store.reports.countMirrored()).toEqual(fresh());
    expect(t.store.reports.countMirrored().listed).toBe(1);
    // Counted inside a transaction that is rolled back: the counts after it are the data's.
    expect(() =>
      t.store.db.transaction(() => {
        t.store.reports.upsertSummaries([summaryOf(b)]);
        expect(t.store.reports.countMirrored().listed).toBe(2);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(t.store.reports.countMirrored()).toEqual(fresh());
    expect(t.store.reports.countMirrored().listed).toBe(1);
  });
});

describe('threads', () => {
  it('count their triage messages as they come and go, and index the unread ones', () => {
    const report = makeReport({ status: 'triaging', submitted_at: '2025-01-01T00:00:00Z' });
    t.store.reports.upsertReports([report]);
    const agent = makeMessage({ author: 'agent' });
    const mine = makeMessage({ author: 'researcher' });
    t.store.messages.replaceThread(report.id, [agent, mine]);
    expect(t.store.threads.triage(report.id)).toBe(1);
    // Not counted yet: nothing is unread (a report seen for the first time is history).
    expect(t.store.threads.isCounted(report.id)).toBe(false);
    expect(t.store.threads.unread()).toEqual([]);
    t.store.threads.start(report.id, 0);
    expect(t.store.threads.unread()).toEqual([{ reportId: report.id, unread: 1 }]);
    const team = makeMessage({ author: 'founder' });
    t.store.messages.replaceThread(report.id, [agent, mine, team]);
    expect(t.store.threads.unread()).toEqual([{ reportId: report.id, unread: 2 }]);
    t.store.threads.markRead(report.id);
    expect(t.store.threads.unread()).toEqual([]);
    t.store.messages.replaceThread(report.id, [mine]);
    expect(t.store.threads.triage(report.id)).toBe(0);
    expect(t.store.threads.triage('no-such-report')).toBe(0);
  });

  it('migrations 6 and 8 keep the threads read of a version-5 file and count its messages', () => {
    const file = `${t.file}.v5`;
    const v5 = openDatabase(file, { migrations: migrations.slice(0, 5) });
    const insert = v5.sqlite.prepare(
      `INSERT INTO reports (id, program_id, program_name, status, display_status, title, revision,
         updated_ms) VALUES (?, 'p', 'P', 'triaging', 'x', 't', 1, 0)`,
    );
    const message = v5.sqlite.prepare(
      `INSERT INTO messages (report_id, id, position, author, body, attachments_json, fingerprint)
       VALUES (?, ?, ?, ?, 'hi', '[]', 'f')`,
    );
    for (const id of ['r1', 'r2', 'r3']) insert.run(id);
    ['agent', 'founder', 'researcher'].forEach((author, i) =>
      message.run('r1', `m${i}`, i, author),
    );
    message.run('r2', 'm9', 0, 'agent');
    v5.sqlite
      .prepare("INSERT INTO sync_state (name, value_json, updated_at) VALUES (?, ?, 'now')")
      .run('inbox.thread_seen', JSON.stringify({ r1: 1, r3: 0 }));
    v5.close();
    const v8 = openStore({ file, dataDir: t.dir });
    try {
      expect(v8.threads.unread()).toEqual([{ reportId: 'r1', unread: 1 }]);
      expect(['r1', 'r2', 'r3'].map((id) => v8.threads.isCounted(id))).toEqual([true, false, true]);
      expect(['r1', 'r2', 'r3'].map((id) => v8.threads.triage(id))).toEqual([2, 1, 0]);
      expect(v8.syncState.get('inbox.thread_seen')).toBeNull();
    } finally {
      v8.close();
    }
  });
});

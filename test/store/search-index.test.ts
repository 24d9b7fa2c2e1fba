import { describe, expect, it } from 'vitest';
import { migrations, openDatabase, openStore, type ReportListQuery } from '../../src/engine/store';
import { INDEX_BATCH } from '../../src/engine/store/fts-index';
import { indexKeySql } from '../../src/engine/store/report-index-key';
import { QUEUE_SCAN_LIMIT } from '../../src/engine/store/report-search';
import { iso, listed, makeMessage, makeReport, summaryOf, useTempStore } from './fixtures';

const t = useTempStore();

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const ids = (hits: { id: string }[]): string[] => hits.map((h) => h.id);

function integrityCheck(): void {
  t.store.db.sqlite.exec("INSERT INTO reports_fts (reports_fts) VALUES ('integrity-check')");
}

function indexedRows(): number {
  return (t.store.db.sqlite.prepare('SELECT count(*) AS n FROM reports_fts').get() as { n: number })
    .n;
}

describe('report search index, filled after the write', () => {
  it('a search right after the write finds the report without waiting for the index', () => {
    const report = makeReport({ title: 'Open redirect in login', description: 'next= param' });
    t.store.reports.upsertReports([report]);
    // Nothing has had a turn of the event loop: the report is still queued ...
    expect(t.store.searchIndex.pending()).toBe(1);
    // ... every search path finds it anyway, and none of them indexed it meanwhile.
    expect(ids(t.store.search.searchReports('redirect'))).toEqual([report.id]);
    expect(ids(listed(t.store, { search: 'redirect', limit: 10 }))).toEqual([report.id]);
    expect(t.store.reportList.page({ search: 'redirect', offset: 0, limit: 10 }).total).toBe(1);
    expect(t.store.searchIndex.pending()).toBe(1);
    t.store.searchIndex.flush();
    // Queued again while the index holds the older text: the index's hit for it is ignored.
    t.store.reports.upsertReports([{ ...report, revision: 2, description: 'returnTo param' }]);
    expect(t.store.searchIndex.pending()).toBe(1);
    expect(ids(listed(t.store, { search: 'returnto', limit: 10 }))).toEqual([report.id]);
    expect(listed(t.store, { search: 'next', limit: 10 })).toEqual([]);
    expect(t.store.search.searchReports('next')).toEqual([]);
    expect(t.store.reportList.page({ search: 'next', offset: 0, limit: 10 }).total).toBe(0);
    integrityCheck();
  });

  it('past the queue a search scans, it answers from the index and says how much it missed', () => {
    const indexed = makeReport({ title: 'Needle in the index', updated_at: iso(1) });
    t.store.reports.upsertReports([indexed]);
    t.store.searchIndex.flush();
    const queued = Array.from({ length: QUEUE_SCAN_LIMIT + 1 }, (_, i) =>
      makeReport({ title: `Needle ${i}`, updated_at: iso(10 + i) }),
    );
    t.store.reports.upsertReports(queued);
    const page = t.store.reportList.page({ search: 'needle', offset: 0, limit: 10 });
    expect(page.indexing).toBe(QUEUE_SCAN_LIMIT + 1);
    expect(page.rows.map((r) => r.id)).toEqual([indexed.id]);
    expect(page.total).toBe(1);
    t.store.searchIndex.flush();
    const after = t.store.reportList.page({ search: 'needle', offset: 0, limit: 10 });
    expect(after.indexing).toBe(0);
    expect(after.total).toBe(QUEUE_SCAN_LIMIT + 2);
  });

  it('a search answers the same while reports wait for the index as after it drained', () => {
    // Indexed reports, some of them then changed (queued while the index holds their old text),
    // reports never indexed yet, and local drafts of indexed ones: each a different path of the
    // count and of the page (index hits, skipped hits, hits found without the index, drafts).
    const words = ['redirect', 'token', 'cookie', 'header'];
    const text = (i: number) => `${words[i % 4]} ${words[(i * 7) % 4]} finding ${i}`;
    const reports = Array.from({ length: 120 }, (_, i) =>
      makeReport({ title: `Report ${i}`, description: text(i), updated_at: iso(i) }),
    );
    t.store.reports.upsertReports(reports.slice(0, 80));
    t.store.searchIndex.flush();
    t.store.reports.upsertReports(
      reports
        .slice(0, 30)
        .map((r, i) => ({ ...r, revision: 2, description: text(i + 1), updated_at: iso(200 + i) })),
    );
    t.store.reports.upsertReports(reports.slice(80));
    for (const report of reports.slice(20, 45))
      t.store.drafts.setContent(report.id, 'acme-web', {
        title: `Draft ${report.title}`,
        asset: 'https://acme.example/',
        description: 'cookie jar',
        cvss_vector: '',
      });
    expect(t.store.searchIndex.pending()).toBe(70);
    const queries: Partial<ReportListQuery>[] = [
      { search: 'redirect' },
      { search: 'cookie' },
      { search: 'token header' },
      { search: 'finding' },
      { search: 'cookie', status: ['draft'] },
      { search: 'redirect', sort: 'status' },
    ];
    const answer = (query: Partial<ReportListQuery>) => {
      const page = t.store.reportList.page({ offset: 0, limit: 500, ...query });
      return { total: page.total, ids: page.rows.map((r) => r.id), indexing: page.indexing };
    };
    const before = queries.map(answer);
    expect(t.store.searchIndex.pending()).toBe(70);
    t.store.searchIndex.flush();
    expect(queries.map(answer)).toEqual(before);
    expect(before.map((a) => a.total)).toEqual(before.map((a) => a.ids.length));
    expect(before[3]?.total).toBe(120);
    integrityCheck();
  });

  it('a search read again sees every write since: this connection, another one, a rollback', () => {
    const first = makeReport({ title: 'Token leak in logs', updated_at: iso(1) });
    t.store.reports.upsertReports([first]);
    t.store.searchIndex.flush();
    const total = () => t.store.reportList.page({ search: 'token', offset: 0, limit: 50 }).total;
    const shown = () =>
      t.store.reportList.page({ search: 'token', offset: 0, limit: 50 }).rows.map((r) => r.id);
    expect(total()).toBe(1);
    expect(total()).toBe(1);
    // A new matching report (queued for the index), then the index drained.
    const second = makeReport({ title: 'Second token finding', updated_at: iso(2) });
    t.store.reports.upsertReports([second]);
    expect(shown()).toEqual([second.id, first.id]);
    t.store.searchIndex.flush();
    expect(shown()).toEqual([second.id, first.id]);
    // A draft edit that stops matching hides nothing of the mirror's text (drafts add hits).
    t.store.drafts.setContent(first.id, 'acme-web', {
      title: 'Renamed',
      asset: 'https://acme.example/',
      description: 'nothing here',
      cvss_vector: '',
    });
    expect(total()).toBe(2);
    // Another connection's commit.
    const other = openStore({ file: t.file, dataDir: t.dir });
    try {
      other.reports.upsertReports([
        makeReport({ title: 'Token from elsewhere', updated_at: iso(3) }),
      ]);
      other.searchIndex.flush();
    } finally {
      other.close();
    }
    expect(total()).toBe(3);
    // A search inside a transaction that is rolled back leaves nothing of it behind.
    const third = makeReport({ title: 'Token rolled back', updated_at: iso(4) });
    expect(() =>
      t.store.db.transaction(() => {
        t.store.reports.upsertReports([third]);
        expect(total()).toBe(4);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(total()).toBe(3);
    expect(shown()).not.toContain(third.id);
    // A rolled-back delete (nothing queued: the index forgets the report at once).
    expect(() =>
      t.store.db.transaction(() => {
        t.store.reports.deleteReport(second.id);
        expect(total()).toBe(2);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(total()).toBe(3);
    expect(shown()).toContain(second.id);
  });

  it('drains by itself after the commit, one batch per event-loop turn', async () => {
    const count = 2 * INDEX_BATCH + 500;
    const reports = Array.from({ length: count }, (_, i) =>
      makeReport({ title: `Finding ${i}`, description: i === count - 1 ? 'needle' : 'hay' }),
    );
    t.store.reports.upsertReports(reports);
    expect(t.store.searchIndex.pending()).toBe(count);
    await turn();
    expect(t.store.searchIndex.pending()).toBe(count - INDEX_BATCH);
    await t.store.searchIndex.idle();
    expect(t.store.searchIndex.pending()).toBe(0);
    expect(indexedRows()).toBe(count);
    expect(ids(t.store.search.searchReports('needle'))).toEqual([reports[count - 1]?.id]);
    integrityCheck();
  });

  it('merges the index in steps of its own, after the batches, until nothing is left to merge', async () => {
    const sqlite = t.store.db.sqlite;
    // FTS5's merging inside a write is off: it made whichever batch filled a level slow.
    expect(
      sqlite.prepare("SELECT v FROM reports_fts_config WHERE k = 'automerge'").pluck().get(),
    ).toBe(0);
    const mergeWork = (): number => {
      const before = sqlite.prepare('SELECT total_changes()').pluck().get() as number;
      sqlite.exec("INSERT INTO reports_fts (reports_fts, rank) VALUES ('merge', 1000)");
      return (sqlite.prepare('SELECT total_changes()').pluck().get() as number) - before;
    };
    // Many small batches make many segments, as a sync's writes do.
    for (let round = 0; round < 40; round++) {
      t.store.reports.upsertReports(
        Array.from({ length: 25 }, (_, i) =>
          makeReport({ title: `Finding ${round}-${i}`, description: `round${round} hay` }),
        ),
      );
      await turn();
      await turn();
    }
    await t.store.searchIndex.idle();
    expect(t.store.searchIndex.pending()).toBe(0);
    // The drain left no merge work behind (FTS5: fewer than two rows changed by a merge).
    expect(mergeWork()).toBeLessThan(2);
    expect(indexedRows()).toBe(1000);
    expect(ids(t.store.search.searchReports('round7'))).toHaveLength(25);
    integrityCheck();
  });

  it('indexes a report once per write, with title, description and thread together', async () => {
    const report = makeReport({ title: 'SSRF via webhook', description: 'metadata endpoint' });
    // The sync's shape: list page, full report and thread in one transaction.
    t.store.db.transaction(() => {
      t.store.reports.upsertSummaries([summaryOf(report)]);
      t.store.reports.upsertReports([report]);
      t.store.messages.replaceThread(report.id, [
        makeMessage({ body: 'Which cloud provider?' }),
        makeMessage({ author: 'researcher', body: 'The staging cluster.' }),
      ]);
      // A search inside the transaction sees what it wrote so far.
      expect(ids(t.store.search.searchReports('staging cluster'))).toEqual([report.id]);
    });
    t.store.reports.upsertReports([report]);
    await t.store.searchIndex.idle();
    expect(t.store.searchIndex.pending()).toBe(0);
    expect(indexedRows()).toBe(1);
    for (const query of ['ssrf', 'metadata', 'cloud provider'])
      expect(ids(t.store.search.searchReports(query)), query).toEqual([report.id]);
    integrityCheck();
  });

  it('a payout change queues nothing; status, program, title, description and thread changes do', () => {
    const report = makeReport({ status: 'triaging', submitted_at: '2025-01-01T00:00:00Z' });
    t.store.reports.upsertReports([report]);
    t.store.searchIndex.flush();
    const paid = {
      status: 'approving' as const,
      amount_cents: 50_000,
      approved_at: iso(9),
      transferred_at: null,
      received_at: null,
      payout_failed_at: null,
    };
    t.store.reports.upsertReports([{ ...report, payout: paid }]);
    expect(t.store.searchIndex.pending()).toBe(0);
    // A new update time in the same bucket of the index's rowids (report-index-key.ts, about
    // 4.7 hours from 03:54 UTC on 2025-01-01) leaves the report where it is in the index.
    t.store.reports.upsertReports([{ ...report, payout: paid, updated_at: iso(10) }]);
    expect(t.store.searchIndex.pending()).toBe(0);
    // One in another bucket moves it in the list's order, which the rowids follow: it is queued
    // to be indexed under its new place.
    t.store.reports.upsertReports([{ ...report, payout: paid, updated_at: iso(24 * 60) }]);
    expect(t.store.searchIndex.pending()).toBe(1);
    t.store.searchIndex.flush();
    // The status is in the index (its facets), so that a filtered search is FTS5's alone.
    t.store.reports.upsertReports([
      { ...report, status: 'accepted', updated_at: iso(24 * 60 + 1) },
    ]);
    expect(t.store.searchIndex.pending()).toBe(1);
    t.store.searchIndex.flush();
    t.store.reports.upsertSummaries([
      summaryOf(report, { title: 'Renamed', revision: 2, updated_at: '2026-02-01T00:00:00Z' }),
    ]);
    expect(t.store.searchIndex.pending()).toBe(1);
    expect(ids(t.store.search.searchReports('renamed'))).toEqual([report.id]);
    expect(t.store.search.searchReports('stored')).toEqual([]);
    t.store.messages.replaceThread(report.id, [makeMessage({ body: 'Thanks, paid.' })]);
    expect(t.store.searchIndex.pending()).toBe(1);
    expect(ids(t.store.search.searchReports('paid'))).toEqual([report.id]);
  });

  it('a deleted report leaves the index whether or not it was indexed yet', () => {
    const indexed = makeReport({ title: 'Indexed finding' });
    const queued = makeReport({ title: 'Queued finding' });
    const kept = makeReport({ title: 'Kept finding' });
    t.store.reports.upsertReports([indexed]);
    t.store.messages.replaceThread(indexed.id, [makeMessage({ body: 'finding confirmed' })]);
    t.store.searchIndex.flush();
    t.store.reports.upsertReports([queued, kept]);
    t.store.messages.replaceThread(queued.id, [makeMessage({ body: 'finding confirmed' })]);
    t.store.reports.deleteReport(indexed.id);
    t.store.reports.deleteReport(queued.id);
    expect(t.store.searchIndex.pending()).toBe(1);
    expect(ids(t.store.search.searchReports('finding'))).toEqual([kept.id]);
    t.store.searchIndex.flush();
    expect(indexedRows()).toBe(1);
    integrityCheck();
  });

  it('a report is in the index once, under the key of its update time, through every change', () => {
    const keys = () =>
      t.store.db.sqlite
        .prepare('SELECT rowid FROM reports_fts ORDER BY rowid')
        .pluck()
        .safeIntegers()
        .all();
    const wanted = () =>
      t.store.db.sqlite
        .prepare(
          `SELECT ${indexKeySql('r')} FROM reports r
           WHERE NOT EXISTS (SELECT 1 FROM reports_fts_pending p WHERE p.seq = r.seq AND p.indexed = 0)
           ORDER BY 1`,
        )
        .pluck()
        .safeIntegers()
        .all();
    const day = 24 * 60;
    const a = makeReport({ title: 'Cache poisoning via header', updated_at: iso(1) });
    const b = makeReport({ title: 'Open redirect after login', updated_at: iso(2) });
    t.store.reports.upsertReports([a, b]);
    t.store.searchIndex.flush();
    const renamed = { ...a, revision: 2, title: 'Renamed' };
    const steps: [string, () => void][] = [
      // Queued with its older version indexed, then moved to another bucket while queued.
      ['renamed', () => t.store.reports.upsertReports([renamed])],
      [
        'moved',
        () => t.store.reports.upsertReports([{ ...renamed, revision: 3, updated_at: iso(day) }]),
      ],
      ['drained', () => t.store.searchIndex.flush()],
      // Inside its bucket: the entry stays where it is.
      [
        'nudged',
        () =>
          t.store.reports.upsertReports([{ ...renamed, revision: 4, updated_at: iso(day + 1) }]),
      ],
      ['drained again', () => t.store.searchIndex.flush()],
      // Never indexed, moved, then deleted; and deleted while queued with its older version.
      [
        'new and moved',
        () => {
          const c = makeReport({ title: 'Never indexed', updated_at: iso(3) });
          t.store.reports.upsertReports([c]);
          t.store.reports.upsertReports([{ ...c, revision: 2, updated_at: iso(2 * day) }]);
          t.store.reports.deleteReport(c.id);
        },
      ],
      [
        'b moved and deleted',
        () => {
          t.store.reports.upsertReports([{ ...b, revision: 2, updated_at: iso(3 * day) }]);
          t.store.reports.deleteReport(b.id);
        },
      ],
      ['drained last', () => t.store.searchIndex.flush()],
    ];
    for (const [label, step] of steps) {
      step();
      expect(keys(), label).toEqual(wanted());
      integrityCheck();
    }
    expect(ids(t.store.search.searchReports('renamed'))).toEqual([a.id]);
    expect(t.store.search.searchReports('poisoning')).toEqual([]);
    expect(t.store.search.searchReports('redirect')).toEqual([]);
    expect(indexedRows()).toBe(1);
  });

  it('a queue left in the file (closed before the drain) is indexed after the next open', async () => {
    const report = makeReport({ title: 'Prototype pollution in merge' });
    t.store.reports.upsertReports([report]);
    t.reopen();
    expect(t.store.searchIndex.pending()).toBe(1);
    await t.store.searchIndex.idle();
    expect(t.store.searchIndex.pending()).toBe(0);
    expect(ids(t.store.search.searchReports('pollution'))).toEqual([report.id]);
  });

  it('a rolled-back write queues nothing and tells no commit listener', () => {
    let commits = 0;
    const off = t.store.db.onCommit(() => commits++);
    t.store.db.transaction(() => {
      t.store.db.transaction(() => t.store.reports.upsertReports([makeReport()]));
    });
    expect(commits).toBe(1);
    t.store.searchIndex.flush();
    expect(() =>
      t.store.db.transaction(() => {
        t.store.reports.upsertReports([makeReport()]);
        throw new Error('abort');
      }),
    ).toThrow('abort');
    expect(commits).toBe(1);
    expect(t.store.searchIndex.pending()).toBe(0);
    off();
  });

  it('a version-1 file: its reports are indexed again (migration 10), found meanwhile, and later writes queue', () => {
    const v1 = openDatabase(`${t.file}.v1`, { migrations: migrations.slice(0, 1) });
    // A version-1 file as the app left it (its triggers indexed inside the write).
    v1.sqlite
      .prepare(
        `INSERT INTO reports (id, program_id, program_name, status, display_status, title,
           revision, updated_ms) VALUES ('r1', 'p', 'P', 'draft', 'Draft', 'Legacy title', 1, 0)`,
      )
      .run();
    v1.close();
    const v2 = openStore({ file: `${t.file}.v1`, dataDir: t.dir });
    try {
      expect(v2.db.schemaVersion()).toBe(migrations.length);
      // The index was made again with the facets column: the report waits for it, and is found.
      expect(v2.searchIndex.pending()).toBe(1);
      expect(ids(v2.search.searchReports('legacy'))).toEqual(['r1']);
      v2.searchIndex.flush();
      expect(ids(v2.search.searchReports('legacy'))).toEqual(['r1']);
      const drafts = v2.reportList.page({
        search: 'legacy',
        status: ['draft'],
        offset: 0,
        limit: 5,
      });
      expect(drafts.rows.map((row) => row.id)).toEqual(['r1']);
      v2.reports.upsertSummaries([
        summaryOf(makeReport({ id: 'r1', title: 'Current title', revision: 2 })),
      ]);
      expect(v2.searchIndex.pending()).toBe(1);
      expect(ids(v2.search.searchReports('current'))).toEqual(['r1']);
      expect(v2.search.searchReports('legacy')).toEqual([]);
    } finally {
      v2.close();
    }
  });
});

import { randomUUID } from '../support/random';
import { describe, expect, it } from 'vitest';
import { migrations, openDatabase, openStore, type ReportListQuery } from '../../src/engine/store';
import { createReportHits } from '../../src/engine/store/report-list/hits';
import { BUCKET_MS } from '../../src/engine/store/report-index-key';
import { createReportListRepository } from '../../src/engine/store/report-list';
import { createOrderedSearch, ORDERED_ROWS } from '../../src/engine/store/report-list/ordered';
import { createReportSearcher, QUEUE_SCAN_LIMIT } from '../../src/engine/store/report-search';
import type { Report, ReportStatus } from '../../src/shared/api';
import { makeMessage, makeReport, summaryOf, useTempStore } from './fixtures';

/**
 * A search's first pages in the default order are read from the search index in that order
 * (report-list/ordered.ts, rowids from report-index-key.ts); deeper pages, other orders and a
 * search that could not see the whole queue read the set of every hit (report-list/hits.ts). Both must
 * list the same rows: each query below is asked of a list that reads in order and of one that
 * never does, on the same mirror, through ties of update time, changes of status, update time and
 * text, deletions, re-syncs, queued reports and local drafts.
 */
const t = useTempStore();

const STATUSES: ReportStatus[] = ['triaging', 'needs_info', 'accepted', 'rejected', 'draft'];
const PROGRAMS = ['acme', 'acme-web', 'Prögramm / Süd'];
const WORDS = ['token', 'tokenizer', 'session', 'cookie', 'redirect', 'sessionid'];
const BASE = Date.UTC(2025, 0, 1);

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;
const at = (ms: number): string => new Date(BASE + ms).toISOString();

/**
 * Reports whose update times tie often: 90 at one instant (more than a page and its slack), runs
 * a few milliseconds apart inside one bucket of the index's key, and a spread over days.
 */
function world(n: number): Report[] {
  return Array.from({ length: n }, (_, i) => {
    const updated =
      i < 90 ? 400 * 86_400_000 : i % 7 === 0 ? (i % 5) * 3 : ((i * 7919) % 5_000) * 60_000;
    return makeReport({
      status: pick(STATUSES, i * 3 + (i >> 2)),
      program_id: pick(PROGRAMS, i * 5 + (i >> 3)),
      program_name: pick(PROGRAMS, i * 5 + (i >> 3)),
      title: `Report ${i} ${pick(WORDS, i * 11)}`,
      updated_at: at(updated),
      description: `The ${pick(WORDS, i)} leaks via the ${pick(WORDS, i * 5 + 1)}: session-token ${i % 9 === 0 ? 'cookie-jar' : 'form'}`,
    });
  });
}

/** As the search box sends them: prefixes (the last word, or a star), phrases, several words. */
const SEARCHES = [
  'token',
  'tok',
  'sess*',
  'session-token',
  'cookie-jar',
  'leaks cookie',
  '"redirect"',
];

const QUERIES: Omit<ReportListQuery, 'offset' | 'limit'>[] = SEARCHES.flatMap((search) => [
  { search },
  { search, status: ['accepted'] as ReportStatus[] },
  { search, program: 'acme-web' },
  { search, program: 'Prögramm / Süd', status: ['needs_info', 'rejected'] as ReportStatus[] },
]);

/** Windows at the top, across page ends inside the tied run, and past the ordered rows. */
const WINDOWS = [
  { offset: 0, limit: 200 },
  { offset: 0, limit: 10 },
  { offset: 10, limit: 10 },
  { offset: 37, limit: 50 },
  { offset: ORDERED_ROWS - 150, limit: 200 },
];

/** Pages asked rows first that answered before counting (a lower bound). */
let pendingTotals = 0;

function compareBothPaths(when: string): number {
  const db = t.store.db;
  const inOrder = createReportListRepository(db);
  const fromHits = createReportListRepository(db, { indexOrder: false });
  let rows = 0;
  for (const query of QUERIES) {
    for (const sort of ['updated', 'status'] as const) {
      // Another order never reads the index in order: one window checks it stays so.
      for (const window of sort === 'updated' ? WINDOWS : WINDOWS.slice(0, 1)) {
        const q = { ...query, ...window, sort };
        const label = `${when}: ${JSON.stringify(q)}`;
        const want = fromHits.page(q);
        expect(want.totalPending, label).toBe(false);
        // The rows first (a new search, as the screen asks): the same rows, a total that is
        // exact or a lower bound of it, then the exact count, and the next page knows it.
        const early = createReportListRepository(db).page({ ...q, rowsFirst: true });
        expect({ ...early, total: want.total, totalPending: false }, label).toEqual(want);
        if (early.totalPending) {
          pendingTotals++;
          expect(early.total, label).toBeLessThanOrEqual(want.total);
          expect(early.total, label).toBeGreaterThanOrEqual(q.offset + early.rows.length);
        } else {
          expect(early.total, label).toBe(want.total);
        }
        const got = inOrder.page({ ...q, rowsFirst: true });
        expect(inOrder.count(query), label).toBe(want.total);
        expect(inOrder.page({ ...q, rowsFirst: true }), label).toEqual(want);
        expect(inOrder.page(q), label).toEqual(want);
        rows += got.rows.length;
      }
    }
  }
  return rows;
}

function ids(query: Partial<ReportListQuery>): string[] {
  return t.store.reportList.page({ offset: 0, limit: 10_000, ...query }).rows.map((r) => r.id);
}

describe('a search read from the index in the list order', () => {
  it('lists what the set of every hit lists, through changes, deletions and re-syncs', () => {
    const reports = world(1_300);
    t.store.reports.upsertReports(reports);
    // Not indexed yet: more are queued than a search scans (both answer from the empty index).
    compareBothPaths('queued');
    t.store.searchIndex.flush();
    pendingTotals = 0;
    expect(compareBothPaths('indexed')).toBeGreaterThan(3_000);
    expect(pendingTotals).toBeGreaterThan(20);

    // The team moves reports on: statuses, update times (some back in time), titles.
    const moved = reports
      .filter((_, i) => i % 4 === 1)
      .map((r, i) => ({
        ...r,
        status: pick(STATUSES, i + 1),
        updated_at: at(i % 3 === 0 ? 400 * 86_400_000 : (i % 11) * 1_000),
        title: i % 5 === 0 ? `Renamed ${pick(WORDS, i)}` : r.title,
      }));
    t.store.reports.upsertReports(moved);
    expect(t.store.searchIndex.pending()).toBeLessThanOrEqual(QUEUE_SCAN_LIMIT);
    expect(t.store.searchIndex.pending()).toBeGreaterThan(0);
    // Queued and matched without the index (its old keys and facets left out).
    compareBothPaths('moved, queued');
    t.store.searchIndex.flush();
    compareBothPaths('moved, indexed');

    // Deleted reports, a re-sync with a new thread and summaries with new update times.
    for (const r of reports.filter((_, i) => i % 10 === 3)) t.store.reports.deleteReport(r.id);
    const resynced = reports.filter((_, i) => i % 10 === 7);
    t.store.reports.upsertReports(
      resynced.map((r, i) => ({ ...r, revision: 2, updated_at: at(5 * 86_400_000 + i) })),
    );
    for (const r of resynced.slice(0, 20))
      t.store.messages.replaceThread(r.id, [makeMessage({ body: 'The sessionid rotates now.' })]);
    t.store.reports.upsertSummaries(
      reports
        .filter((_, i) => i % 10 === 9)
        .slice(0, 40)
        .map((r) => summaryOf(r, { revision: 3, updated_at: at(401 * 86_400_000) })),
    );
    compareBothPaths('deleted and re-synced, queued');
    t.store.searchIndex.flush();
    compareBothPaths('deleted and re-synced, indexed');

    // Local drafts: of mirrored reports (their text is searched instead) and made offline.
    for (const r of reports.filter((_, i) => i % 50 === 8)) {
      t.store.drafts.setContent(r.id, r.program_id, {
        title: 'Draft about a tokenizer',
        asset: 'https://acme.example/',
        description: 'The session cookie',
        cvss_vector: '',
      });
    }
    t.store.drafts.setContent(randomUUID(), 'acme', {
      title: 'Offline session token draft',
      asset: '',
      description: '',
      cvss_vector: '',
    });
    compareBothPaths('with drafts');
  }, 120_000);

  it('past the queue-scan limit, both read the set of hits and agree', () => {
    const reports = world(400);
    t.store.reports.upsertReports(reports);
    t.store.searchIndex.flush();
    t.store.reports.upsertReports(
      world(QUEUE_SCAN_LIMIT + 50).map((r, i) => ({ ...r, updated_at: at(i * 9_000) })),
    );
    expect(t.store.reportList.page({ search: 'token', offset: 0, limit: 1 }).indexing).toBe(
      QUEUE_SCAN_LIMIT + 50,
    );
    compareBothPaths('bulk write, queue not scanned');
  });

  it('orders ties of update time by id, across page ends, as the list does', () => {
    const tied = world(120).map((r) => ({ ...r, updated_at: at(0), description: 'token' }));
    t.store.reports.upsertReports(tied);
    t.store.searchIndex.flush();
    const byId = tied.map((r) => r.id).sort();
    expect(ids({ search: 'token' })).toEqual(byId);
    const pages = [0, 1, 2, 3, 4, 5].flatMap((p) =>
      t.store.reportList.page({ search: 'token', offset: p * 25, limit: 25 }).rows.map((r) => r.id),
    );
    expect(pages).toEqual(byId);
  });

  it('reads about a window of hits, not every hit', () => {
    // One report a bucket apart: the index's order is the list's.
    const reports = world(600).map((r, i) => ({
      ...r,
      updated_at: at(i * BUCKET_MS),
      description: 'token',
    }));
    t.store.reports.upsertReports(reports);
    t.store.searchIndex.flush();
    const search = createReportSearcher(t.store.db).prepare('token');
    if (!search) throw new Error('a searchable word');
    const ordered = createOrderedSearch(t.store.db, createReportHits(t.store.db));
    const facets = { statuses: [], program: null };
    expect(ordered.count(search, facets)).toBe(600);
    const { seqs, every } = ordered.candidates(search, facets, 20);
    expect(seqs.length).toBeLessThan(60);
    expect(every).toBe(false);
    expect(ordered.candidates(search, facets, 600)).toEqual({
      seqs: expect.any(Array) as number[],
      every: true,
    });
    // Newest first: the last written reports.
    const newest = reports.slice(-20).map((r) => r.id);
    expect(ids({ search: 'token', limit: 20 })).toEqual(newest.reverse());
  });

  it('an old mirror (version 13) upgrades, is indexed again in the background and searches the same', () => {
    const file = `${t.file}.v13`;
    const v13 = openDatabase(file, { migrations: migrations.slice(0, 13) });
    const insert = v13.sqlite.prepare<[string, string, string, string, string, number]>(
      `INSERT INTO reports (id, program_id, program_name, status, display_status, title, revision,
         updated_ms) VALUES (?, ?, ?, ?, 'x', ?, 1, ?) RETURNING seq`,
    );
    const document = v13.sqlite.prepare<[number, string]>(
      'INSERT INTO report_documents (seq, report_json) VALUES (?, ?)',
    );
    const message = v13.sqlite.prepare<[string, string]>(
      `INSERT INTO messages (report_id, id, position, author, body, attachments_json, fingerprint)
       VALUES (?, 'm1', 0, 'triage', ?, '[]', 'f')`,
    );
    for (const [i, r] of world(700).entries()) {
      const ms = Date.parse(r.updated_at ?? '');
      const { seq } = insert.get(r.id, r.program_id, r.program_name, r.status, r.title, ms) as {
        seq: number;
      };
      document.run(seq, JSON.stringify({ id: r.id, description: r.description, asset: r.asset }));
      if (i % 6 === 0) message.run(r.id, `Triage: the ${pick(WORDS, i + 2)} is reproducible`);
    }
    // Indexed as version 13 did: rowid = seq.
    v13.sqlite.exec(`
      INSERT INTO reports_fts (rowid, title, description, messages, facets, asset)
      SELECT seq, title, description, messages, facets, asset FROM report_fts_source;
      DELETE FROM reports_fts_pending;`);
    // What version 13 listed for each search: its hits by rowid, newest first, then by id.
    const before = new Map<string, string[]>();
    const oldSearch = v13.sqlite.prepare<[string, string, string], string>(
      `SELECT id FROM reports WHERE seq IN (SELECT rowid FROM reports_fts WHERE reports_fts MATCH ?)
         AND (? = '' OR status = ?) ORDER BY updated_ms DESC, id`,
    );
    const searcher = createReportSearcher(v13);
    for (const search of SEARCHES) {
      const fts = searcher.prepare(search)?.fts ?? '';
      for (const status of ['', 'accepted'])
        before.set(`${search}|${status}`, oldSearch.pluck().all(fts, status, status));
    }
    expect(before.get('token|')?.length).toBeGreaterThan(100);
    v13.close();

    const v14 = openStore({ file, dataDir: t.dir });
    try {
      expect(v14.db.schemaVersion()).toBe(migrations.length);
      // Every report queued for the new index; a search says how many it could not see yet.
      expect(v14.searchIndex.pending()).toBe(700);
      expect(v14.reportList.page({ search: 'token', offset: 0, limit: 10 }).indexing).toBe(700);
      v14.searchIndex.flush();
      v14.db.sqlite.exec("INSERT INTO reports_fts (reports_fts) VALUES ('integrity-check')");
      for (const search of SEARCHES) {
        for (const status of ['', 'accepted']) {
          const query = { search, ...(status ? { status: [status as ReportStatus] } : {}) };
          const want = before.get(`${search}|${status}`);
          const label = JSON.stringify(query);
          const first = v14.reportList.page({ ...query, offset: 0, limit: 200 });
          expect(
            first.rows.map((r) => r.id),
            label,
          ).toEqual(want?.slice(0, 200));
          expect(first.total, label).toBe(want?.length);
          const all = v14.reportList.page({ ...query, offset: 0, limit: 10_000 });
          expect(
            all.rows.map((r) => r.id),
            label,
          ).toEqual(want);
        }
      }
    } finally {
      v14.close();
    }
  });
});

import { randomUUID } from '../support/random';
import { describe, expect, it } from 'vitest';
import { migrations, openDatabase, openStore } from '../../src/engine/store';
import type { ReportListQuery, ReportListRepository, ReportListRow } from '../../src/engine/store';
import { createReportListRepository } from '../../src/engine/store/report-list';
import type { Report, ReportStatus } from '../../src/shared/api';
import type { ReportSort } from '../../src/shared/bridge/views';
import { compareBinary, compareNoCase } from '../../src/engine/store/report-order';
import { parseCvss31 } from '../../src/shared/rules/cvss';
import { iso, makeProgram, makeReport, useTempStore } from './fixtures';

const t = useTempStore();

const CRITICAL = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'; // 9.8
const MEDIUM = 'CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N'; // 5.4
const LOW = 'CVSS:3.1/AV:P/AC:H/PR:H/UI:R/S:U/C:L/I:N/A:N'; // 1.6
const VECTORS = [CRITICAL, MEDIUM, LOW, '', 'not a vector'];
const score = (vector: string): number | null => {
  const parsed = parseCvss31(vector);
  return parsed.ok ? parsed.baseScore : null;
};

/** The order of the statuses in the list, written out here independently of the code. */
const STATUS_ORDER: ReportStatus[] = [
  'draft',
  'triaging',
  'needs_info',
  'paused',
  'human_review',
  'accepted',
  'rejected',
  'duplicate',
  'insufficient_info',
  'withdrawn',
];
const STATUSES: ReportStatus[] = ['draft', 'triaging', 'needs_info', 'accepted', 'rejected'];
/** Names whose order depends on folding case: "acme Web" sorts before "Beta" and "beta Labs". */
const PROGRAMS = [
  { id: 'beta-labs', name: 'beta Labs' },
  { id: 'acme-web', name: 'acme Web' },
  { id: 'zeta', name: 'Zeta' },
  { id: 'beta', name: 'Beta' },
];

const TINY = { id: 'tiny', name: 'Tiny' };
/** The `i`-th item of a list, going round. */
const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;

const content = (title: string, cvss_vector = '') => ({
  title,
  asset: 'https://acme.example/',
  description: 'Steps.',
  cvss_vector,
});

/** What the list shows of a report, in the model the expected orders are computed from. */
interface Model {
  id: string;
  local: boolean;
  status: ReportStatus;
  programId: string;
  programName: string;
  score: number | null;
  /** Epoch ms of the mirrored update, or of the local draft's last edit. */
  updated: number;
}

/** The expected list, from the model alone (no SQL). */
function expected(models: Model[], query: Partial<ReportListQuery>): string[] {
  const sort: ReportSort =
    query.program && query.sort === 'program' ? 'updated' : (query.sort ?? 'updated');
  const rows = models.filter(
    (m) =>
      (!query.status?.length || query.status.includes(m.status)) &&
      (!query.program || m.programId === query.program),
  );
  const leading = (a: Model, b: Model): number => {
    switch (sort) {
      case 'updated':
        return 0;
      case 'status':
        return STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status);
      case 'program': {
        const x = a.programName.toLowerCase();
        const y = b.programName.toLowerCase();
        if (x !== y) return x < y ? -1 : 1;
        return a.programId < b.programId ? -1 : a.programId > b.programId ? 1 : 0;
      }
      case 'severity':
        return (b.score ?? -1) - (a.score ?? -1);
    }
  };
  return rows
    .sort(
      (a, b) =>
        leading(a, b) ||
        Number(a.local === false) - Number(b.local === false) ||
        b.updated - a.updated ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .map((m) => m.id);
}

/**
 * The list the checks read: the store's, or one that reads every search from the set of its hits
 * (never the index in order, report-list/ordered.ts), whose pages resume where the last ended.
 */
let fromHits: ReportListRepository | null = null;
const list = (): ReportListRepository => fromHits ?? t.store.reportList;
const page = (query: Partial<ReportListQuery>) => list().page({ offset: 0, limit: 1000, ...query });
const ids = (query: Partial<ReportListQuery> = {}): string[] => page(query).rows.map((r) => r.id);

/** Every page of `size` rows, concatenated: must be the list read in one go. */
function paged(size: number, query: Partial<ReportListQuery> = {}): string[] {
  const all: string[] = [];
  for (let offset = 0; ; offset += size) {
    const rows = list().page({ ...query, offset, limit: size }).rows;
    all.push(...rows.map((r) => r.id));
    if (rows.length < size) return all;
  }
}

/**
 * A mirror where every key repeats (statuses, programs, scores and update times), drafts made
 * offline in every program with every kind of vector, and mirrored drafts edited here whose local
 * vector differs from the server's.
 */
function world(count: number): Model[] {
  const models: Model[] = [];
  const reports: Report[] = [];
  for (let i = 0; i < count; i++) {
    // A few reports in a small program: its filter reads them instead of walking the order.
    const program = i % 53 === 0 ? TINY : pick(PROGRAMS, i * 7);
    const vector = pick(VECTORS, i * 3);
    const status = pick(STATUSES, i);
    const minute = 100 + ((i * 13) % 40);
    const report = makeReport({
      status,
      program_id: program.id,
      program_name: program.name,
      cvss_vector: vector,
      updated_at: iso(minute),
    });
    reports.push(report);
    models.push({
      id: report.id,
      local: false,
      status,
      programId: program.id,
      programName: program.name,
      score: score(vector),
      updated: Date.parse(iso(minute)),
    });
  }
  t.store.reports.upsertReports(reports);
  for (const program of PROGRAMS) t.store.programs.upsertProgram(makeProgram(program));
  // Drafts made offline.
  for (let i = 0; i < 9; i++) {
    const program = pick(PROGRAMS, i);
    const vector = pick(VECTORS, i);
    const id = randomUUID();
    const at = iso(i % 3 === 0 ? 120 : 500 + i);
    t.store.drafts.setContent(id, program.id, content(`Offline ${i}`, vector), at);
    models.push({
      id,
      local: true,
      status: 'draft',
      programId: program.id,
      programName: program.name,
      score: score(vector),
      updated: Date.parse(at),
    });
  }
  // Mirrored drafts edited here: the local vector is what the list sorts by.
  const mirroredDrafts = models.filter((m) => !m.local && m.status === 'draft').slice(0, 6);
  mirroredDrafts.forEach((m, i) => {
    const vector = pick(VECTORS, i + 1);
    t.store.drafts.setContent(m.id, m.programId, content(`Edited ${i}`, vector));
    m.score = score(vector);
  });
  return models;
}

/** The SQL the store prepares from now on (each statement once: the store keeps them). */
function recordPrepared(): string[] {
  const sqlite = t.store.db.sqlite;
  const prepare = sqlite.prepare.bind(sqlite);
  const prepared: string[] = [];
  sqlite.prepare = ((sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  }) as typeof sqlite.prepare;
  return prepared;
}

const SORTS: ReportSort[] = ['updated', 'status', 'program', 'severity'];

describe('the reports list, sorted and filtered by program in SQL', () => {
  it('each order, with and without filters, read whole and in pages of any size', () => {
    const prepared = recordPrepared();
    const models = world(160);
    const filters: Partial<ReportListQuery>[] = [
      {},
      { status: ['draft'] },
      { status: ['accepted', 'triaging'] },
      { status: ['needs_info'] },
      { program: 'zeta' },
      { program: 'acme-web', status: ['draft', 'rejected'] },
      { program: 'beta', status: ['triaging'] },
      { program: 'tiny' },
      { program: 'tiny', status: ['draft', 'needs_info'] },
      { program: 'nothing-here' },
    ];
    for (const sort of SORTS) {
      for (const filter of filters) {
        const query = { ...filter, sort };
        const want = expected(models, query);
        const label = JSON.stringify(query);
        expect(ids(query), label).toEqual(want);
        expect(page(query).total, label).toBe(want.length);
        for (const size of [1, 3, 7, 50])
          expect(paged(size, query), `${label} by ${size}`).toEqual(want);
        // A window anywhere, offset not a multiple of the size.
        const window = t.store.reportList.page({ ...query, offset: 5, limit: 11 });
        expect(
          window.rows.map((r) => r.id),
          `${label} window`,
        ).toEqual(want.slice(5, 16));
      }
    }
    // Both ways of reading were taken: walking an order's index, and reading a filter's rows.
    const pages = prepared.filter((sql) => sql.includes('WITH page AS'));
    for (const index of [
      'reports_by_severity',
      'reports_by_status_rank',
      'reports_by_program_name',
    ])
      expect(
        pages.some((sql) => sql.includes(`INDEXED BY ${index}`)),
        index,
      ).toBe(true);
    const readsRows = (sql: string) =>
      /INDEXED BY reports_by_(program|status) /u.test(sql) && !/ORDER BY k\.updated_ms/u.test(sql);
    expect(pages.some(readsRows)).toBe(true);
  });

  it('a search read page after page resumes where the last page ended, and agrees with one read', () => {
    const prepared = recordPrepared();
    // Many equal update times (the order's tie-break decides), a dense and a sparse word.
    const reports = Array.from({ length: 300 }, (_, i) => {
      const program = pick(PROGRAMS, i);
      return makeReport({
        status: pick(STATUSES, i * 3),
        program_id: program.id,
        program_name: program.name,
        updated_at: iso(100 + ((i * 13) % 40)),
        description: `${i % 3 === 0 ? 'plain' : 'token'} ${i % 17 === 0 ? 'cookie' : ''} finding`,
      });
    });
    t.store.reports.upsertReports(reports);
    for (let i = 0; i < 5; i++)
      t.store.drafts.setContent(randomUUID(), 'acme-web', content(`Token draft ${i}`), iso(90 + i));
    t.store.searchIndex.flush();
    const queries: Partial<ReportListQuery>[] = [
      { search: 'token' },
      { search: 'token', status: ['accepted', 'draft'] },
      { search: 'token', program: 'zeta' },
      { search: 'cookie' },
      { search: 'token', sort: 'severity' },
    ];
    const check = () => {
      for (const query of queries) {
        const want = ids(query);
        const label = JSON.stringify(query);
        for (const size of [1, 7, 50])
          expect(paged(size, query), `${label} by ${size}`).toEqual(want);
        expect(t.store.reportList.page({ ...query, offset: 40, limit: 5 }).total, label).toBe(
          want.length,
        );
        // Windows anywhere, after the pages above left their resume points.
        for (const [offset, limit] of [
          [13, 9],
          [0, 30],
          [101, 40],
          [7, 1],
        ] as const) {
          const rows = list().page({ ...query, offset, limit }).rows;
          expect(
            rows.map((r) => r.id),
            `${label} at ${offset}`,
          ).toEqual(want.slice(offset, offset + limit));
        }
      }
    };
    check();
    expect(ids({ search: 'token' }).length).toBeGreaterThan(190);
    // A write in the middle of the order: the points and totals of before are forgotten.
    const filtered = { search: 'token', status: ['accepted', 'draft'] as ReportStatus[] };
    const totalBefore = page(filtered).total;
    t.store.reports.upsertReports([
      makeReport({
        updated_at: iso(120),
        description: 'token',
        title: 'New one',
        status: 'accepted',
        program_id: 'zeta',
        program_name: 'Zeta',
      }),
    ]);
    expect(page(filtered).total).toBe(totalBefore + 1);
    check();
    // The same from the set of hits, whose pages did resume (a walk after a row), not only start
    // from the top (the store's reads these first pages from the index in order).
    fromHits = createReportListRepository(t.store.db, { indexOrder: false });
    try {
      check();
    } finally {
      fromHits = null;
    }
    expect(prepared.some((sql) => sql.includes('@afterMs'))).toBe(true);
  });

  it('a long jump into a search lays resume points on its way; jumps back and forth agree with one read', () => {
    const prepared = recordPrepared();
    // More matching rows than the points' spacing (2,000) twice over; runs of equal update times.
    const reports = Array.from({ length: 9_000 }, (_, i) =>
      makeReport({
        status: pick(STATUSES, i),
        updated_at: iso(10_000 - Math.floor(i / 3)),
        description: i % 2 === 0 ? 'token here' : 'nothing',
      }),
    );
    t.store.reports.upsertReports(reports);
    t.store.searchIndex.flush();
    const query = { search: 'token' };
    const want = ids({ ...query, limit: 10_000 });
    expect(want).toHaveLength(4_500);
    for (const offset of [4_300, 2_050, 10, 4_499, 2_000, 1_999, 3_999, 4_001, 150]) {
      const rows = t.store.reportList.page({ ...query, offset, limit: 40 }).rows;
      expect(
        rows.map((r) => r.id),
        `at ${offset}`,
      ).toEqual(want.slice(offset, offset + 40));
    }
    // The long walks went in steps (the point statement), not in one OFFSET from the top.
    expect(prepared.some((sql) => sql.includes('LIMIT 1 OFFSET @offset'))).toBe(true);
  });

  it('sorts by severity from the stored score: the local draft’s vector while there is one', () => {
    const server = makeReport({ status: 'draft', cvss_vector: LOW, updated_at: iso(3) });
    const other = makeReport({ status: 'triaging', cvss_vector: MEDIUM, updated_at: iso(2) });
    const none = makeReport({ status: 'accepted', cvss_vector: '', updated_at: iso(1) });
    t.store.reports.upsertReports([server, other, none]);
    const scores = () =>
      Object.fromEntries(page({ sort: 'severity' }).rows.map((r) => [r.id, r.severity_score]));
    expect(scores()).toEqual({ [server.id]: 1.6, [other.id]: 5.4, [none.id]: null });
    expect(ids({ sort: 'severity' })).toEqual([other.id, server.id, none.id]);

    // Edited here: the draft's vector counts, also when the server's copy changes meanwhile.
    t.store.drafts.setContent(server.id, server.program_id, content('Mine', CRITICAL));
    expect(ids({ sort: 'severity' })).toEqual([server.id, other.id, none.id]);
    t.store.reports.upsertReports([
      { ...server, revision: 2, cvss_vector: MEDIUM, updated_at: iso(4) },
    ]);
    expect(scores()[server.id]).toBe(9.8);
    t.store.drafts.setContent(server.id, server.program_id, content('Mine', ''));
    // No score: last, newest update first.
    expect(ids({ sort: 'severity' })).toEqual([other.id, server.id, none.id]);
    expect(scores()[server.id]).toBeNull();
    // The local copy gone (submitted, or following the server again): the server's vector.
    t.store.drafts.delete(server.id);
    expect(scores()[server.id]).toBe(5.4);
    expect(ids({ sort: 'severity' })).toEqual([server.id, other.id, none.id]);
    // A list page carries no vector: the stored score stays.
    t.store.reports.upsertSummaries([
      {
        ...other,
        status: 'accepted',
        display_status: 'Accepted',
        revision: 5,
        updated_at: iso(9),
      },
    ]);
    expect(scores()[other.id]).toBe(5.4);
    // A draft made offline sorts by its own vector among the mirrored reports.
    const offline = randomUUID();
    t.store.drafts.setContent(offline, 'acme-web', content('Offline', MEDIUM), iso(0));
    expect(ids({ sort: 'severity' })).toEqual([offline, other.id, server.id, none.id]);
    expect(page({ sort: 'severity' }).rows[0]).toMatchObject({
      local_only: true,
      severity_score: 5.4,
    });
  });

  it('filters by program, drafts made offline included, and lists every program with its count', () => {
    const a = makeReport({ program_id: 'acme-web', program_name: 'Acme Web', status: 'accepted' });
    const b = makeReport({ program_id: 'beta', program_name: 'Beta', status: 'triaging' });
    const c = makeReport({ program_id: 'beta', program_name: 'Beta', status: 'draft' });
    t.store.reports.upsertReports([a, b, c]);
    const offline = randomUUID();
    t.store.drafts.setContent(offline, 'gamma', content('Offline'), iso(0));
    expect(ids({ program: 'beta' }).sort()).toEqual([b.id, c.id].sort());
    expect(ids({ program: 'gamma' })).toEqual([offline]);
    expect(ids({ program: 'gamma', status: ['accepted'] })).toEqual([]);
    expect(ids({ program: 'beta', status: ['draft'] })).toEqual([c.id]);
    const result = page({ program: 'beta' });
    expect(result.total).toBe(2);
    // Counts per status stay those of every report.
    expect(result.counts).toEqual({ accepted: 1, triaging: 1, draft: 2 });
    // Names from the programs mirrored, else from the reports, else the id; by name.
    t.store.programs.upsertProgram(makeProgram({ id: 'beta', name: 'Beta Bank' }));
    expect(page({}).programs).toEqual([
      { id: 'acme-web', name: 'Acme Web', count: 1 },
      { id: 'beta', name: 'Beta Bank', count: 2 },
      { id: 'gamma', name: 'gamma', count: 1 },
    ]);
    // The counts follow status changes and deletes (kept by triggers).
    t.store.reports.upsertReports([{ ...b, status: 'accepted', revision: 2, updated_at: iso(9) }]);
    expect(ids({ program: 'beta', status: ['accepted'] })).toEqual([b.id]);
    expect(page({ program: 'beta', status: ['accepted'] }).total).toBe(1);
    t.store.reports.deleteReport(c.id);
    t.store.reports.deleteReport(b.id);
    expect(page({}).programs.map((p) => p.id)).toEqual(['acme-web', 'gamma']);
    const groupBy = t.store.db.sqlite
      .prepare('SELECT program_id, status, count(*) AS n FROM reports GROUP BY 1, 2')
      .all();
    const kept = t.store.db.sqlite
      .prepare('SELECT program_id, status, n FROM report_program_counts WHERE n > 0 ORDER BY 1, 2')
      .all();
    expect(kept).toEqual(groupBy);
    // The program list is kept between writes; a commit of another connection shows too.
    expect(page({}).programs).toEqual(page({}).programs);
    const other = openDatabase(t.file);
    try {
      other.sqlite
        .prepare(
          `INSERT INTO reports (id, program_id, program_name, status, display_status, title,
             revision, updated_ms) VALUES ('elsewhere', 'delta', 'Delta', 'draft', 'x', 't', 1, 1)`,
        )
        .run();
    } finally {
      other.close();
    }
    expect(page({}).programs.map((p) => [p.id, p.count])).toEqual([
      ['acme-web', 1],
      ['delta', 1],
      ['gamma', 1],
    ]);
  });

  it('searches within a program and an order', async () => {
    const hit = (title: string, program: string, vector: string, minute: number) =>
      makeReport({
        title,
        program_id: program,
        program_name: program,
        cvss_vector: vector,
        updated_at: iso(minute),
      });
    const reports = [
      hit('Redirect one', 'p1', LOW, 1),
      hit('Redirect two', 'p1', CRITICAL, 2),
      hit('Redirect three', 'p2', MEDIUM, 3),
      hit('Other', 'p1', CRITICAL, 4),
    ];
    t.store.reports.upsertReports(reports);
    await t.store.searchIndex.idle();
    const offline = randomUUID();
    t.store.drafts.setContent(offline, 'p1', content('Redirect offline', MEDIUM), iso(0));
    const [one, two, three] = reports.map((r) => r.id);
    expect(ids({ search: 'redirect', sort: 'severity' })).toEqual([two, offline, three, one]);
    expect(ids({ search: 'redirect', sort: 'severity', program: 'p1' })).toEqual([
      two,
      offline,
      one,
    ]);
    expect(page({ search: 'redirect', program: 'p1' }).total).toBe(3);
    expect(ids({ search: 'redirect', sort: 'program', status: ['draft'] })).toEqual([
      offline,
      two,
      one,
      three,
    ]);
  });

  it('compares program names as SQLite does (NOCASE), so drafts made offline merge in place', () => {
    const names = [
      'Zeta',
      'zeta',
      'acme Web',
      'Acme web',
      'Éclair',
      'éclair',
      'beta',
      'Beta',
      '\u{1D518}nicode',
      '\uFF21 wide',
      '_under',
      '',
    ];
    const sql = t.store.db.sqlite
      .prepare<[string], string>(
        'SELECT value FROM json_each(?) ORDER BY value COLLATE NOCASE, value',
      )
      .pluck()
      .all(JSON.stringify(names));
    const js = [...names].sort((a, b) => compareNoCase(a, b) || compareBinary(a, b));
    expect(js).toEqual(sql);
  });

  it('migration 7 scores, ranks and counts what a version-6 file already holds', () => {
    const file = `${t.file}.v6`;
    const v6 = openDatabase(file, { migrations: migrations.slice(0, 6) });
    const insert = v6.sqlite.prepare<[string, string, string, number]>(
      `INSERT INTO reports (id, program_id, program_name, status, display_status, title, revision,
         updated_ms) VALUES (?, 'acme-web', 'Acme Web', ?, 'x', ?, 1, ?) RETURNING seq`,
    );
    const document = v6.sqlite.prepare<[number, string]>(
      'INSERT INTO report_documents (seq, report_json) VALUES (?, ?)',
    );
    const mirror = (status: ReportStatus, vector: string, at: number): string => {
      const id = randomUUID();
      const { seq } = insert.get(id, status, `Report ${at}`, at) as { seq: number };
      document.run(seq, JSON.stringify({ id, cvss_vector: vector }));
      return id;
    };
    const critical = { id: mirror('accepted', CRITICAL, 1) };
    const edited = { id: mirror('draft', LOW, 2) };
    const plain = { id: mirror('triaging', '', 3) };
    v6.sqlite
      .prepare(
        `INSERT INTO drafts (report_id, program_id, title, asset, description, cvss_vector,
           updated_at) VALUES (?, 'acme-web', 'Edited', '', '', ?, ?)`,
      )
      .run(edited.id, MEDIUM, iso(2));
    v6.close();
    const v7 = openStore({ file, dataDir: t.dir });
    try {
      expect(v7.db.schemaVersion()).toBe(migrations.length);
      const list = (sort: ReportSort) =>
        v7.reportList.page({ sort, offset: 0, limit: 10 }).rows.map((r: ReportListRow) => r.id);
      expect(list('severity')).toEqual([critical.id, edited.id, plain.id]);
      expect(list('status')).toEqual([edited.id, plain.id, critical.id]);
      expect(v7.reportList.page({ program: 'acme-web', offset: 0, limit: 10 }).programs).toEqual([
        { id: 'acme-web', name: 'Acme Web', count: 3 },
      ]);
      const row = v7.db.sqlite
        .prepare('SELECT cvss_score, severity_score FROM reports WHERE id = ?')
        .get(edited.id);
      expect(row).toEqual({ cvss_score: 1.6, severity_score: 5.4 });
    } finally {
      v7.close();
    }
    // The step itself keeps the numbering.
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
  });
});

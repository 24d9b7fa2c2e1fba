import { randomUUID } from '../support/random';
import { describe, expect, it } from 'vitest';
import { migrations, openDatabase, openStore } from '../../src/engine/store';
import type { ReportListQuery } from '../../src/engine/store';
import type { ReportStatus } from '../../src/shared/api';
import { iso, makeProgram, makeReport, useTempStore } from './fixtures';

const t = useTempStore();

const content = (title: string, description = 'Steps.') => ({
  title,
  asset: 'https://acme.example/',
  description,
  cvss_vector: '',
});

/** A draft made offline: in the drafts table, not in the mirror. */
function offlineDraft(title: string, at: number, description?: string): string {
  const id = randomUUID();
  t.store.drafts.setContent(id, 'acme-web', content(title, description), iso(at));
  return id;
}

const ids = (query: Partial<ReportListQuery> = {}): string[] =>
  t.store.reportList.page({ offset: 0, limit: 1000, ...query }).rows.map((r) => r.id);

/** Every page of `size` rows, concatenated: must be the list read in one go. */
function paged(size: number, query: Partial<ReportListQuery> = {}): string[] {
  const all: string[] = [];
  for (let offset = 0; ; offset += size) {
    const page = t.store.reportList.page({ ...query, offset, limit: size });
    all.push(...page.rows.map((r) => r.id));
    if (page.rows.length < size) return all;
  }
}

const statuses: ReportStatus[] = ['draft', 'triaging', 'needs_info', 'accepted', 'rejected'];

describe('the reports list, paged in SQL', () => {
  it('lists drafts made offline first, then the mirror by newest update; pages add up', () => {
    const reports = Array.from({ length: 37 }, (_, i) =>
      makeReport({ status: statuses[i % 5], updated_at: iso(100 + ((i * 7) % 37)) }),
    );
    t.store.reports.upsertReports(reports);
    const older = offlineDraft('Older offline draft', 1);
    const newer = offlineDraft('Newer offline draft', 2);
    const byUpdate = [...reports]
      .sort((a, b) => (b.updated_at ?? '').localeCompare(a.updated_at ?? ''))
      .map((r) => r.id);
    expect(ids()).toEqual([newer, older, ...byUpdate]);
    for (const size of [1, 2, 5, 10, 36]) expect(paged(size), `pages of ${size}`).toEqual(ids());
    const page = t.store.reportList.page({ offset: 1, limit: 3 });
    expect(page.rows.map((r) => r.id)).toEqual([older, ...byUpdate.slice(0, 2)]);
    expect(page.total).toBe(39);
    expect(page.rows[0]).toMatchObject({
      title: 'Older offline draft',
      status: 'draft',
      display_status: 'Draft (not sent yet)',
      program_name: 'acme-web',
      local_only: true,
      unsent: true,
    });
    // Once the program is mirrored, its name shows.
    t.store.programs.upsertProgram(makeProgram({ id: 'acme-web', name: 'Acme Web' }));
    expect(t.store.reportList.page({ offset: 0, limit: 1 }).rows[0]?.program_name).toBe('Acme Web');
    // A draft the mirror holds is listed once, as the mirrored report.
    t.store.reports.upsertReports([makeReport({ id: newer, updated_at: iso(1000) })]);
    expect(ids()).toEqual([older, newer, ...byUpdate]);
  });

  it('filters by one or several statuses, deep pages included', () => {
    const reports = Array.from({ length: 60 }, (_, i) =>
      makeReport({ status: statuses[i % 5], updated_at: iso(i % 20) }),
    );
    t.store.reports.upsertReports(reports);
    const local = offlineDraft('Offline', 500);
    const expected = (wanted: ReportStatus[]): string[] =>
      t.store.db.sqlite
        .prepare(
          `SELECT id FROM reports WHERE status IN (${wanted.map(() => '?').join()})
           ORDER BY updated_ms DESC, id`,
        )
        .pluck()
        .all(...wanted) as string[];
    for (const wanted of [
      ['triaging'],
      ['accepted', 'rejected'],
      ['needs_info', 'triaging', 'accepted'],
    ] as ReportStatus[][]) {
      expect(ids({ status: wanted }), wanted.join()).toEqual(expected(wanted));
      expect(paged(7, { status: wanted }), wanted.join()).toEqual(expected(wanted));
      const page = t.store.reportList.page({ status: wanted, offset: 5, limit: 4 });
      expect(page.rows.map((r) => r.id)).toEqual(expected(wanted).slice(5, 9));
      expect(page.total).toBe(expected(wanted).length);
    }
    // Drafts made offline are drafts.
    expect(ids({ status: ['draft'] })).toEqual([local, ...expected(['draft'])]);
    expect(ids({ status: ['accepted'] })).not.toContain(local);
  });

  it('counts by status from counts the triggers keep, however reports change', () => {
    const a = makeReport({ status: 'draft' });
    const b = makeReport({ status: 'triaging', submitted_at: iso(2) });
    const c = makeReport({ status: 'triaging', submitted_at: iso(2) });
    t.store.reports.upsertReports([a, b, c]);
    offlineDraft('Offline', 1);
    const groupBy = (): Partial<Record<ReportStatus, number>> =>
      Object.fromEntries(
        (
          t.store.db.sqlite
            .prepare('SELECT status, count(*) AS n FROM reports GROUP BY status')
            .all() as { status: ReportStatus; n: number }[]
        ).map((row) => [row.status, row.n]),
      );
    const check = (): void => {
      expect(t.store.reportList.countByStatus()).toEqual(groupBy());
    };
    check();
    expect(t.store.reportList.page({ offset: 0, limit: 1 }).counts).toEqual({
      draft: 2,
      triaging: 2,
    });
    // Status changes, in full reports and in list pages; an unchanged copy; a delete.
    t.store.reports.upsertReports([{ ...b, status: 'accepted', revision: 2, updated_at: iso(9) }]);
    t.store.reports.upsertSummaries([
      { ...c, status: 'needs_info', display_status: 'Needs info', revision: 3, updated_at: iso(9) },
    ]);
    t.store.reports.upsertReports([a]);
    check();
    t.store.reports.deleteReport(a.id);
    check();
    expect(t.store.reportList.countByStatus()).toEqual({ accepted: 1, needs_info: 1 });
    expect(t.store.reportList.page({ offset: 0, limit: 1 }).counts).toEqual({
      draft: 1,
      accepted: 1,
      needs_info: 1,
    });
    // A rolled-back write leaves the counts as they were.
    expect(() =>
      t.store.db.transaction(() => {
        t.store.reports.upsertReports([makeReport({ status: 'rejected' })]);
        throw new Error('abort');
      }),
    ).toThrow('abort');
    check();
  });

  it("joins each row's local draft and outbox: title, unsent, needs your action, conflict", () => {
    const mirrored = makeReport({ title: 'Server title', updated_at: iso(3) });
    const waiting = makeReport({
      status: 'needs_info',
      submitted_at: iso(1),
      updated_at: iso(2),
    });
    t.store.reports.upsertReports([mirrored, waiting]);
    const row = (id: string) =>
      t.store.reportList.page({ offset: 0, limit: 10 }).rows.find((r) => r.id === id);
    expect(row(mirrored.id)).toMatchObject({
      title: 'Server title',
      unsent: false,
      parked: false,
      conflict: false,
      local_only: false,
    });
    expect(row(waiting.id)?.needs_info_unseen).toBe(true);
    t.store.reports.markNeedsInfoAnswered(waiting.id);
    expect(row(waiting.id)?.needs_info_unseen).toBe(false);

    t.store.drafts.setContent(mirrored.id, 'acme-web', content('Local title'));
    const entry = t.store.outbox.enqueue({
      reportId: mirrored.id,
      kind: 'save_report',
      payload: {},
    });
    expect(row(mirrored.id)).toMatchObject({ title: 'Local title', unsent: true, parked: false });
    t.store.outbox.park(entry.id, { code: 'incomplete_report' });
    expect(row(mirrored.id)).toMatchObject({ unsent: true, parked: true });
    t.store.drafts.setConflict(mirrored.id, { title: { base: 'a', ours: 'b', theirs: 'c' } });
    expect(row(mirrored.id)?.conflict).toBe(true);
    t.store.outbox.cancel(entry.id);
    expect(row(mirrored.id)).toMatchObject({ unsent: false, parked: false });
  });

  it('searches the mirror through the index and local drafts without it, with the total', async () => {
    const redirect = makeReport({ title: 'Open redirect', updated_at: iso(5) });
    const body = makeReport({
      title: 'Login issue',
      description: 'An open redirect after sign-in.',
      status: 'triaging',
      submitted_at: iso(1),
      updated_at: iso(4),
    });
    const edited = makeReport({ title: 'Untitled', updated_at: iso(3) });
    const other = makeReport({ title: 'Rate limit bypass', updated_at: iso(2) });
    t.store.reports.upsertReports([redirect, body, edited, other]);
    await t.store.searchIndex.idle();
    expect(t.store.searchIndex.pending()).toBe(0);
    t.store.drafts.setContent(edited.id, 'acme-web', content('Redirect chain on logout'));
    const local = offlineDraft('Redirect via header', 1);
    offlineDraft('Something else', 2);

    const page = t.store.reportList.page({ search: 'redirect', offset: 0, limit: 10 });
    expect(page.rows.map((r) => r.id)).toEqual([local, redirect.id, body.id, edited.id]);
    expect(page.total).toBe(4);
    expect(page.indexing).toBe(0);
    expect(page.rows.find((r) => r.id === edited.id)?.title).toBe('Redirect chain on logout');
    expect(paged(1, { search: 'redirect' })).toEqual(page.rows.map((r) => r.id));
    // With a status filter.
    const triaging = t.store.reportList.page({
      search: 'redirect',
      status: ['triaging', 'accepted'],
      offset: 0,
      limit: 10,
    });
    expect(triaging.rows.map((r) => r.id)).toEqual([body.id]);
    expect(triaging.total).toBe(1);
    const drafts = t.store.reportList.page({
      search: 'redirect',
      status: ['draft'],
      offset: 0,
      limit: 10,
    });
    expect(drafts.rows.map((r) => r.id)).toEqual([local, redirect.id, edited.id]);
    expect(drafts.total).toBe(3);
    // A phrase, prefixes and folded case; nothing searchable does not filter.
    expect(ids({ search: 'OPEN redir' })).toEqual([redirect.id, body.id]);
    expect(ids({ search: 'redirect open' })).toEqual([redirect.id, body.id]);
    expect(ids({ search: 'sign-in' })).toEqual([body.id]);
    expect(ids({ search: 'in-sign' })).toEqual([]);
    expect(ids({ search: '***' })).toHaveLength(6);
    expect(t.store.reportList.page({ search: 'nothing', offset: 0, limit: 10 }).total).toBe(0);
  });

  it('finds a report written a moment ago, before the index holds it, the same way', () => {
    const indexed = makeReport({ title: 'Café checkout XSS', updated_at: iso(1) });
    t.store.reports.upsertReports([indexed]);
    t.store.searchIndex.flush();
    const queued = makeReport({ title: 'Cafe menu XSS', updated_at: iso(2) });
    t.store.reports.upsertReports([queued]);
    t.store.reports.upsertReports([
      { ...indexed, revision: 2, title: 'Checkout CSRF', updated_at: iso(3) },
    ]);
    expect(t.store.searchIndex.pending()).toBe(2);
    const search = (text: string) => {
      const page = t.store.reportList.page({ search: text, offset: 0, limit: 10 });
      return { ids: page.rows.map((r) => r.id), total: page.total };
    };
    const before = ['xss', 'café', 'CAFE', 'checkout', 'csrf'].map(search);
    expect(before).toEqual([
      { ids: [queued.id], total: 1 },
      { ids: [queued.id], total: 1 },
      { ids: [queued.id], total: 1 },
      { ids: [indexed.id], total: 1 },
      { ids: [indexed.id], total: 1 },
    ]);
    t.store.searchIndex.flush();
    expect(['xss', 'café', 'CAFE', 'checkout', 'csrf'].map(search)).toEqual(before);
  });

  // A walk read "In triage" on a row and "Triaging" in the status filter beside it.
  it('names each status as the service labels its newest report, read again after each write', () => {
    const labels = () => t.store.reportList.page({ offset: 0, limit: 1 }).statusLabels;
    const older = makeReport({
      status: 'triaging',
      display_status: 'In triage',
      updated_at: iso(2),
    });
    const waiting = makeReport({
      status: 'needs_info',
      display_status: 'Needs your input ',
      updated_at: iso(3),
    });
    t.store.reports.upsertReports([older, waiting]);
    offlineDraft('Offline', 1);
    // A draft made offline has no label of the service's: the filter keeps the app's word.
    expect(labels()).toEqual({ triaging: 'In triage', needs_info: 'Needs your input' });
    const newer = makeReport({
      status: 'triaging',
      display_status: 'Being triaged',
      updated_at: iso(5),
    });
    t.store.reports.upsertReports([newer]);
    expect(labels()).toEqual({ triaging: 'Being triaged', needs_info: 'Needs your input' });
    t.store.reports.upsertReports([
      {
        ...waiting,
        status: 'triaging',
        display_status: 'In triage',
        revision: 2,
        updated_at: iso(4),
      },
    ]);
    expect(labels()).toEqual({ triaging: 'Being triaged' });
    t.store.reports.deleteReport(newer.id);
    expect(labels()).toEqual({ triaging: 'In triage' });
  });

  it('migration 4 counts the reports a version-3 file already holds', () => {
    const file = `${t.file}.v3`;
    const v3 = openDatabase(file, { migrations: migrations.slice(0, 3) });
    const insert = v3.sqlite.prepare(
      `INSERT INTO reports (id, program_id, program_name, status, display_status, title, revision,
         updated_ms) VALUES (?, 'p', 'P', ?, 'x', 't', 1, ?)`,
    );
    ['draft', 'draft', 'accepted'].forEach((status, i) => insert.run(`r${i}`, status, i));
    v3.close();
    const v4 = openStore({ file, dataDir: t.dir });
    try {
      expect(v4.reportList.countByStatus()).toEqual({ draft: 2, accepted: 1 });
      expect(v4.reportList.page({ offset: 0, limit: 10 }).rows.map((r) => r.id)).toEqual([
        'r2',
        'r1',
        'r0',
      ]);
    } finally {
      v4.close();
    }
  });
});

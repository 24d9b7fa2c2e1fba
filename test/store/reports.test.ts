import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { reportTexts } from '../support/report-texts';
import { iso, listed, makeReport, summaryOf, useTempStore } from './fixtures';

const t = useTempStore();

describe('reports', () => {
  it('stores the full report exactly as the API returned it', () => {
    const report = makeReport({
      payout: {
        status: 'approving',
        amount_cents: 50_000,
        approved_at: iso(9),
        transferred_at: null,
        received_at: null,
        payout_failed_at: null,
      },
    });
    t.store.reports.upsertReports([report]);
    expect(t.store.reports.getReport(report.id)).toEqual(report);
    expect(t.store.reports.getStoredRow(report.id)).toMatchObject({
      has_payout: true,
      payout_status: 'approving',
      stale: false,
      has_full: true,
    });
    expect(t.store.reports.getReport('missing')).toBeNull();
  });

  it('upserts are idempotent: the same batch twice changes nothing the second time', () => {
    const batch = [makeReport(), makeReport({ title: 'Second' })];
    expect(t.store.reports.upsertReports(batch).changes).toHaveLength(2);
    expect(t.store.reports.upsertReports(batch).changes).toHaveLength(0);
    const rows = t.store.db.sqlite.prepare('SELECT count(*) AS n FROM reports').get() as {
      n: number;
    };
    expect(rows.n).toBe(2);
  });

  it('writes a batch in one transaction: a bad report rolls the whole batch back', () => {
    const good = makeReport();
    const bad = makeReport({ title: null as unknown as string });
    expect(() => t.store.reports.upsertReports([good, bad])).toThrow(/NOT NULL/);
    expect(t.store.reports.getReport(good.id)).toBeNull();
  });

  it('reports status changes, and ignores an older copy arriving late', () => {
    const first = makeReport({ status: 'triaging', revision: 3, updated_at: iso(10) });
    t.store.reports.upsertReports([first]);
    const newer = { ...first, status: 'needs_info' as const, updated_at: iso(20) };
    const { changes } = t.store.reports.upsertReports([newer]);
    expect(changes).toEqual([
      {
        id: first.id,
        previousStatus: 'triaging',
        status: 'needs_info',
        previousRevision: 3,
        revision: 3,
      },
    ]);
    const result = t.store.reports.upsertReports([first]);
    expect(result.skippedOlder).toEqual([first.id]);
    expect(t.store.reports.getReport(first.id)?.status).toBe('needs_info');
    // Payout progress keeps revision and updated_at: still written.
    const paid = {
      ...newer,
      payout: {
        status: 'transferred' as const,
        amount_cents: 1,
        approved_at: iso(21),
        transferred_at: iso(22),
        received_at: null,
        payout_failed_at: null,
      },
    };
    expect(t.store.reports.upsertReports([paid]).changes).toHaveLength(1);
    expect(t.store.reports.getStoredRow(first.id)?.payout_status).toBe('transferred');
  });

  it('keeps server attachments in their own table, replaced with each write', () => {
    const attachment = {
      name: 'poc.png',
      size: 10,
      content_type: 'image/png',
      sha256: 'ab'.repeat(32),
      storage_path: 'x',
      state: 'ready' as const,
      started_at: iso(1),
      uploaded_at: iso(2),
    };
    const report = makeReport({
      attachments: { f1: attachment, f2: { ...attachment, name: 'a.txt' } },
    });
    t.store.reports.upsertReports([report]);
    expect(t.store.reports.listAttachments(report.id).map((a) => a.name)).toEqual([
      'a.txt',
      'poc.png',
    ]);
    t.store.reports.upsertReports([{ ...report, revision: 2, attachments: { f1: attachment } }]);
    expect(t.store.reports.listAttachments(report.id).map((a) => a.file_id)).toEqual(['f1']);
  });

  it("stores a file's SHA-256 digest as its bytes and reads back exactly what the server sent", () => {
    const digestOf = (text: string) => createHash('sha256').update(text).digest('hex');
    const file = (name: string, sha256: string) => ({
      name,
      size: 10,
      content_type: 'text/plain',
      sha256,
      storage_path: `reports/x/${name}`,
      state: 'ready' as const,
      started_at: iso(1),
      uploaded_at: iso(2),
    });
    const texts = reportTexts().slice(0, 3);
    const sent = {
      // Digests of real write-ups, as the API sends them; and what else a server could send.
      ...Object.fromEntries(texts.map((r, i) => [`f${i}`, file(r.name, digestOf(r.text))])),
      upper: file('upper.txt', digestOf('x').toUpperCase()),
      short: file('short.txt', 'abc123'),
      empty: file('empty.txt', ''),
    };
    const report = makeReport({ attachments: sent });
    t.store.reports.upsertReports([report]);
    const read = Object.fromEntries(
      t.store.reports.listAttachments(report.id).map((a) => [a.file_id, a.sha256]),
    );
    expect(read).toEqual(Object.fromEntries(Object.entries(sent).map(([id, f]) => [id, f.sha256])));
    const kinds = t.store.db.sqlite
      .prepare<[string], { file_id: string; kind: string }>(
        'SELECT file_id, typeof(sha256) AS kind FROM report_attachments WHERE report_id = ?',
      )
      .all(report.id);
    expect(Object.fromEntries(kinds.map((k) => [k.file_id, k.kind]))).toEqual({
      f0: 'blob',
      f1: 'blob',
      f2: 'blob',
      upper: 'text',
      short: 'text',
      empty: 'text',
    });
    // A row written before (hex text) reads back as it was.
    t.store.db.sqlite
      .prepare("UPDATE report_attachments SET sha256 = ? WHERE file_id = 'f0'")
      .run(digestOf('older'));
    expect(t.store.reports.listAttachments(report.id).find((a) => a.file_id === 'f0')?.sha256).toBe(
      digestOf('older'),
    );
  });

  it('summaries of unknown or changed reports are marked stale until fetched in full', () => {
    const known = makeReport({ revision: 2, updated_at: iso(10) });
    t.store.reports.upsertReports([known]);
    const unknown = makeReport({ updated_at: iso(30) });
    const marked = t.store.reports.upsertSummaries([summaryOf(known), summaryOf(unknown)]);
    expect(marked).toEqual([unknown.id]);
    const changed = summaryOf(known, { status: 'triaging', revision: 3, updated_at: iso(40) });
    expect(t.store.reports.upsertSummaries([changed])).toEqual([known.id]);
    expect(t.store.reports.listStaleIds()).toEqual([known.id, unknown.id]);
    // The list already shows the newer state; the old full copy stays readable offline.
    expect(t.store.reports.getStoredRow(known.id)).toMatchObject({
      status: 'triaging',
      stale: true,
    });
    expect(t.store.reports.getReport(known.id)?.revision).toBe(2);
    expect(t.store.reports.getStoredRow(unknown.id)).toMatchObject({ has_full: false });

    t.store.reports.upsertReports([
      { ...known, status: 'triaging', revision: 3, updated_at: iso(40) },
    ]);
    expect(t.store.reports.listStaleIds()).toEqual([unknown.id]);
  });

  it('lists newest update first with status filter, search and paging', () => {
    const reports = Array.from({ length: 30 }, (_, i) =>
      makeReport({
        title: i % 3 === 0 ? `Open redirect ${i}` : `SQL injection ${i}`,
        status: i % 2 === 0 ? 'triaging' : 'draft',
        updated_at: iso(i),
      }),
    );
    t.store.reports.upsertReports(reports);
    const page1 = listed(t.store, { limit: 10 });
    const page2 = listed(t.store, { limit: 10, offset: 10 });
    const expected = [...reports].reverse().map((r) => r.id);
    expect([...page1, ...page2].map((r) => r.id)).toEqual(expected.slice(0, 20));

    const triaging = listed(t.store, { status: ['triaging'], limit: 100 });
    expect(triaging).toHaveLength(15);
    expect(triaging.every((r) => r.status === 'triaging')).toBe(true);
    expect(listed(t.store, { status: ['triaging', 'draft'], limit: 100 })).toHaveLength(30);

    const redirects = listed(t.store, { search: 'redirect', limit: 100 });
    expect(redirects.map((r) => r.title)).toEqual(
      reports
        .filter((_, i) => i % 3 === 0)
        .reverse()
        .map((r) => r.title),
    );
    const both = listed(t.store, { search: 'redir', status: ['draft'], limit: 100 });
    expect(both.map((r) => r.title)).toEqual([
      'Open redirect 27',
      'Open redirect 21',
      'Open redirect 15',
      'Open redirect 9',
      'Open redirect 3',
    ]);
  });

  it('reads one program, and the reports with a payout, in SQL', () => {
    const payout = {
      status: 'received' as const,
      amount_cents: 100_000,
      approved_at: iso(3),
      transferred_at: iso(4),
      received_at: iso(5),
      payout_failed_at: null,
    };
    const acme = makeReport({ title: 'Token leak in acme', updated_at: iso(3) });
    const paid = makeReport({ status: 'accepted', payout, updated_at: iso(2) });
    const globex = makeReport({
      program_id: 'globex-api',
      program_name: 'Globex API',
      title: 'Token leak in globex',
      updated_at: iso(1),
    });
    t.store.reports.upsertReports([acme, paid, globex]);
    const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
    expect(ids(t.store.reports.listOfProgram('acme-web'))).toEqual([acme.id, paid.id]);
    expect(ids(t.store.reports.listOfProgram('initech'))).toEqual([]);
    expect(ids(listed(t.store, { program: 'globex-api', search: 'token', limit: 10 }))).toEqual([
      globex.id,
    ]);
    expect(ids(t.store.reports.listPaid())).toEqual([paid.id]);
    expect(t.store.reports.listPaid()[0]?.payout).toEqual(payout);
    // Received: nothing more to follow; approving, stored in full and current: followed.
    expect(t.store.reports.listPayoutFollowUps()).toEqual([]);
    t.store.reports.upsertReports([
      { ...paid, revision: paid.revision + 1, payout: { ...payout, status: 'approving' } },
    ]);
    expect(t.store.reports.listPayoutFollowUps()).toEqual([paid.id]);
  });

  it('orders by instant, not by text, when timestamps differ in precision', () => {
    const a = makeReport({ title: 'a', updated_at: '2025-01-01T00:00:00Z' });
    const b = makeReport({ title: 'b', updated_at: '2025-01-01T00:00:00.500Z' });
    t.store.reports.upsertReports([a, b]);
    expect(listed(t.store, { limit: 5 }).map((r) => r.title)).toEqual(['b', 'a']);
  });

  it('counts by status', () => {
    t.store.reports.upsertReports([
      makeReport({ status: 'draft' }),
      makeReport({ status: 'draft' }),
      makeReport({ status: 'accepted' }),
    ]);
    expect(t.store.reportList.countByStatus()).toEqual({ draft: 2, accepted: 1 });
  });

  it('tracks whether the user has seen a report in needs_info, each time it enters it', () => {
    const report = makeReport({ status: 'needs_info', updated_at: iso(1) });
    t.store.reports.upsertReports([report]);
    expect(t.store.reports.listUnseenNeedsInfo()).toEqual([report.id]);
    t.store.reports.markNeedsInfoAnswered(report.id);
    expect(t.store.reports.listUnseenNeedsInfo()).toEqual([]);
    const back = { ...report, status: 'triaging' as const, updated_at: iso(2) };
    t.store.reports.upsertReports([back]);
    t.store.reports.upsertReports([{ ...back, status: 'needs_info', updated_at: iso(3) }]);
    expect(t.store.reports.listUnseenNeedsInfo()).toEqual([report.id]);
  });

  it('survives a re-open', () => {
    const report = makeReport();
    t.store.reports.upsertReports([report]);
    t.reopen();
    expect(t.store.reports.getReport(report.id)).toEqual(report);
  });

  it('deleting a report deletes its thread and attachments', () => {
    const report = makeReport();
    t.store.reports.upsertReports([report]);
    t.store.messages.replaceThread(report.id, [
      { id: 'm1', author: 'agent', body: 'hello', at: iso(1), attachments: [] },
    ]);
    t.store.reports.deleteReport(report.id);
    expect(t.store.messages.listThread(report.id)).toEqual([]);
    expect(t.store.search.searchReports('hello')).toEqual([]);
  });
});

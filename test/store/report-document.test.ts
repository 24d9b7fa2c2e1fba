/**
 * Report documents stored deflated (migration 16, store/report-document.ts): what real and
 * generated reports hold reads back exactly after a reopen; the search index reads the stored
 * documents of either form; a document as version 15 wrote it (JSON text) still reads and
 * re-indexes; and a garbled document is dropped and its report fetched again, never a crash.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { migrations, openStore, type Store } from '../../src/engine/store';
import type { Logger, LogFields } from '../../src/engine/log/logger';
import type { Report } from '../../src/shared/api';
import { anyDescription, reportWithPayloads } from '../support/generated-texts';
import { reportTexts } from '../support/report-texts';
import { iso, makeReport, useTempStore } from './fixtures';

const t = useTempStore();

const firstLine = (text: string): string =>
  (text.split('\n').find((line) => line.trim() !== '') ?? 'x').slice(0, 150);

const stored = (store: Store, id: string) =>
  store.db.sqlite
    .prepare<[string], { kind: string; bytes: number }>(
      `SELECT typeof(d.report_json) AS kind, length(d.report_json) AS bytes
       FROM reports r JOIN report_documents d ON d.seq = r.seq WHERE r.id = ?`,
    )
    .get(id);

/** What the search index reads for a report (the view the drain indexes from). */
const indexed = (store: Store, id: string) =>
  store.db.sqlite
    .prepare<[string], { description: string; asset: string }>(
      'SELECT description, asset FROM report_fts_source WHERE id = ?',
    )
    .get(id);

function capturingLog(): Logger & { warnings: { event: string; fields?: LogFields }[] } {
  const warnings: { event: string; fields?: LogFields }[] = [];
  return {
    warnings,
    info() {},
    error() {},
    warn: (_s, event, fields) => warnings.push({ event, fields }),
  };
}

describe('report documents stored deflated', () => {
  it('real reports read back exactly after a reopen, each stored smaller than its JSON', () => {
    const texts = reportTexts();
    const reports = texts.map(({ text }, i) =>
      makeReport({
        id: `R${i}`,
        title: firstLine(text),
        asset: 'https://*.example.com/api',
        description: text,
      }),
    );
    t.store.reports.upsertReports(reports);
    const store = t.reopen();
    let found = 0;
    for (const report of reports) {
      expect(store.reports.getReport(report.id), report.id).toEqual(report);
      const row = stored(store, report.id);
      expect(row?.kind).toBe('blob');
      expect(row?.bytes).toBeLessThan(Buffer.byteLength(JSON.stringify(report)));
      expect(indexed(store, report.id)).toEqual({
        description: report.description,
        asset: report.asset,
      });
      found += 1;
    }
    console.log(`real report texts read back deflated: ${found}/${texts.length}`);
    expect(found).toBe(texts.length);
  });

  it('generated reports (payloads, tables, Windows paths, any text) round-trip', () => {
    let n = 0;
    fc.assert(
      fc.property(
        fc.oneof(reportWithPayloads, anyDescription),
        fc.string({ maxLength: 80 }),
        (text, title) => {
          const report = makeReport({ id: `G${n++}`, title, description: text });
          t.store.reports.upsertReports([report]);
          expect(t.store.reports.getReport(report.id)).toEqual(report);
          expect(indexed(t.store, report.id)?.description).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
    // The same content written again changes nothing (the deflated bytes compare equal).
    const again = makeReport({ id: 'same', description: 'Same text' });
    expect(t.store.reports.upsertReports([again]).changes).toHaveLength(1);
    expect(t.store.reports.upsertReports([again]).changes).toHaveLength(0);
  });

  it('a JSON document written before migration 16 reads, indexes and is replaced deflated', () => {
    const file = join(t.dir, 'v15.sqlite');
    const older = openStore({ file, dataDir: t.dir, migrations: migrations.slice(0, 15) });
    const report = makeReport({
      id: 'old',
      asset: 'https://legacy.example.com',
      description: 'Legacy words: quokka',
      updated_at: iso(1),
    });
    older.reports.upsertReports([report]);
    // As version 15 stored it: the JSON text (this version's writes store it deflated).
    older.db.sqlite.exec(`DELETE FROM report_documents;
      INSERT INTO report_documents (seq, report_json)
      SELECT seq, '${JSON.stringify(report).replaceAll("'", "''")}' FROM reports`);
    older.close();

    const store = openStore({ file, dataDir: t.dir });
    try {
      expect(stored(store, 'old')?.kind).toBe('text');
      expect(store.reports.getReport('old')).toEqual(report);
      expect(store.reports.listPaid()).toEqual([]);
      store.searchIndex.flush();
      expect(store.search.searchReports('quokka').map((hit) => hit.id)).toEqual(['old']);

      // A new description replaces the text row with a deflated one and queues the report.
      const changed = { ...report, description: 'Rewritten: wombat', updated_at: iso(2) };
      store.reports.upsertReports([changed]);
      expect(stored(store, 'old')?.kind).toBe('blob');
      expect(store.searchIndex.pending()).toBe(1);
      store.searchIndex.flush();
      expect(store.search.searchReports('wombat').map((hit) => hit.id)).toEqual(['old']);
      expect(store.search.searchReports('quokka')).toEqual([]);

      // A payout alone leaves the description and asset: nothing is queued again.
      const paid: Report = {
        ...changed,
        payout: {
          status: 'received',
          amount_cents: 100,
          approved_at: iso(3),
          transferred_at: iso(3),
          received_at: iso(3),
          payout_failed_at: null,
        },
      };
      store.reports.upsertReports([paid]);
      expect(store.searchIndex.pending()).toBe(0);
      expect(store.reports.listPaid()).toEqual([paid]);
    } finally {
      store.close();
    }
  });

  it.each([
    [
      'bytes changed in the middle',
      (b: Buffer) => Buffer.concat([b.subarray(0, 8), Buffer.from('garbage!'), b.subarray(16)]),
    ],
    ['cut short', (b: Buffer) => b.subarray(0, Math.floor(b.length / 2))],
    ['an unknown format byte', (b: Buffer) => Buffer.concat([Buffer.of(9), b.subarray(1)])],
    ['one byte', () => Buffer.of(1)],
  ])('a garbled document (%s) is dropped, logged and fetched again, never a crash', (_, garble) => {
    const log = capturingLog();
    const file = join(t.dir, 'garbled.sqlite');
    const store = openStore({ file, dataDir: t.dir, log });
    try {
      const paid = (id: string): Report =>
        makeReport({
          id,
          description: `Report ${id} text`,
          payout: {
            status: 'received',
            amount_cents: 100,
            approved_at: iso(3),
            transferred_at: iso(3),
            received_at: iso(3),
            payout_failed_at: null,
          },
        });
      const good = paid('good');
      store.reports.upsertReports([good, paid('bad')]);
      const sqlite = store.db.sqlite;
      const seq = sqlite
        .prepare<[], number>("SELECT seq FROM reports WHERE id = 'bad'")
        .pluck()
        .get();
      const bytes = sqlite
        .prepare<[number], Buffer>('SELECT report_json FROM report_documents WHERE seq = ?')
        .pluck()
        .get(seq ?? -1);
      expect(bytes).toBeInstanceOf(Buffer);
      sqlite
        .prepare('UPDATE report_documents SET report_json = ? WHERE seq = ?')
        .run(garble(bytes as Buffer), seq);
      // The index drain reads it as no text rather than failing on it.
      expect(() => store.searchIndex.flush()).not.toThrow();

      expect(store.reports.listPaid()).toEqual([good]);
      expect(store.reports.getReport('bad')).toBeNull();
      expect(log.warnings).toEqual([
        {
          event: 'unreadable-row-dropped',
          fields: {
            table: 'report_documents',
            report: 'bad',
            reason: expect.any(String) as string,
          },
        },
      ]);
      expect(store.reports.getStoredRow('bad')).toMatchObject({ has_full: false, stale: true });
      expect(store.reports.listStaleIds()).toEqual(['bad']);
      // Fetched again, it is stored and read as any other.
      const fetched = paid('bad');
      store.reports.upsertReports([fetched]);
      expect(store.reports.getReport('bad')).toEqual(fetched);
    } finally {
      store.close();
    }
  });
});

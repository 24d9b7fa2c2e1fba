/**
 * Migrations 17 and 18 make the mirror smaller on disk: the search index keyed by update time in
 * coarser buckets (report-index-key.ts), made again and every report queued; the list's indexes
 * that walk the newest first held ascending and read backwards. A mirror as version 16 left it
 * upgrades and lists, sorts and searches the same before and after its index is filled again; a
 * mirror this version wrote opens as it was on the next start.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { migrations, openStore, type ReportListQuery, type Store } from '../../src/engine/store';
import { indexKeySql } from '../../src/engine/store/report-index-key';
import type { ReportStatus } from '../../src/shared/api';
import { reportWithPayloads } from '../support/generated-texts';
import { reportExcerptArb } from '../support/report-texts';
import { makeMessage, makeReport, useTempStore } from './fixtures';

const t = useTempStore();

const STATUSES: ReportStatus[] = ['accepted', 'rejected', 'needs_info', 'triaging', 'draft'];
const QUERIES: Omit<ReportListQuery, 'offset' | 'limit'>[] = [
  ...(['updated', 'status', 'program', 'severity'] as const).flatMap((sort) => [
    { sort },
    { sort, status: ['accepted'] as ReportStatus[] },
    { sort, status: ['rejected', 'needs_info'] as ReportStatus[] },
    { sort, program: 'program-1' },
  ]),
  ...['request', 'token', 'http', 'finding'].flatMap((search) => [
    { search },
    { search, status: ['accepted'] as ReportStatus[] },
  ]),
];

/** Every query's whole list, in order, by id. */
const listed = (store: Store): string[][] =>
  QUERIES.map((q) =>
    store.reportList.page({ ...q, offset: 0, limit: 10_000 }).rows.map((r) => r.id),
  );

/** Each order of the list and the index it walks: walked backwards, with no sort of its own. */
const WALKS = [
  ['reports_list', 'updated_ms DESC, id'],
  ['reports_by_status', 'updated_ms DESC, id', "status = 'accepted'"],
  ['reports_by_status_rank', 'status_rank, updated_ms DESC, id'],
  ['reports_by_severity', 'severity_score DESC, updated_ms DESC, id'],
  [
    'reports_by_program_name',
    'program_name COLLATE NOCASE, program_id, updated_ms DESC, id',
    "status IN ('accepted', 'rejected')",
  ],
  ['reports_by_program', 'updated_ms DESC, id', "program_id = 'program-1'"],
] as const;

describe('migrations 17 and 18: a smaller mirror', () => {
  it('a version-16 mirror upgrades, is indexed again and lists the same; it opens again as it was', () => {
    const texts = fc.sample(fc.oneof(reportExcerptArb(1_200, 4), reportWithPayloads), 40);
    const file = join(t.dir, 'v16.sqlite');
    const older = openStore({ file, dataDir: t.dir, migrations: migrations.slice(0, 16) });
    // Minutes, hours and days apart, and runs at one instant.
    const reports = Array.from({ length: 320 }, (_, i) =>
      makeReport({
        status: STATUSES[i % STATUSES.length] ?? 'accepted',
        program_id: `program-${i % 3}`,
        program_name: `Program ${i % 3}`,
        title: `Finding ${i} on api${i % 4}.example.com`,
        description: texts[i % texts.length] ?? '',
        cvss_vector: i % 4 === 0 ? '' : 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
        updated_at: new Date(
          Date.UTC(2025, 0, 1) + (i % 5 === 0 ? 0 : ((i * 7_919) % 20_000) * 60_000),
        ).toISOString(),
      }),
    );
    older.reports.upsertReports(reports);
    for (const r of reports.slice(0, 60))
      older.messages.replaceThread(r.id, [makeMessage({ body: `Thanks: token ${r.title}` })]);
    older.searchIndex.flush();
    const before = listed(older);
    expect(before.flat().length).toBeGreaterThan(3_000);
    older.close();

    const now = openStore({ file, dataDir: t.dir });
    try {
      expect(now.db.schemaVersion()).toBe(migrations.length);
      // Every report queued for the index made again; searches match the queue meanwhile.
      expect(now.searchIndex.pending()).toBe(reports.length);
      expect(listed(now)).toEqual(before);
      now.searchIndex.flush();
      expect(listed(now)).toEqual(before);
      const sqlite = now.db.sqlite;
      // Each report indexed once, under the key of its update time's bucket.
      const keys = sqlite.prepare(`SELECT rowid FROM reports_fts ORDER BY rowid`).pluck();
      const wanted = sqlite.prepare(`SELECT ${indexKeySql('r')} FROM reports r ORDER BY 1`).pluck();
      expect(keys.safeIntegers().all()).toEqual(wanted.safeIntegers().all());
      for (const [index, order, where] of WALKS) {
        const plan = sqlite
          .prepare(
            `EXPLAIN QUERY PLAN SELECT seq FROM reports INDEXED BY ${index}
             ${where ? `WHERE ${where}` : ''} ORDER BY ${order} LIMIT 10`,
          )
          .all()
          .map((row) => (row as { detail: string }).detail)
          .join(' | ');
        expect(plan, index).toContain(index);
        expect(plan, index).not.toContain('TEMP B-TREE');
      }
      sqlite.exec("INSERT INTO reports_fts (reports_fts) VALUES ('integrity-check')");
      expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      now.close();
    }

    const again = openStore({ file, dataDir: t.dir });
    try {
      expect(again.db.schemaVersion()).toBe(migrations.length);
      expect(again.searchIndex.pending()).toBe(0);
      expect(listed(again)).toEqual(before);
    } finally {
      again.close();
    }
  }, 120_000);
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReportListQuery } from '../../src/engine/store';
import { ftsExpression } from '../../src/engine/store/fts-query';
import { TEXT_COLUMNS, textColumnsMatch } from '../../src/engine/store/report-facets';
import { QUEUE_SCAN_LIMIT } from '../../src/engine/store/report-search';
import { parseSearch } from '../../src/engine/store/text-match';
import type { Report, ReportStatus } from '../../src/shared/api';
import { iso, makeReport, useTempStore } from './fixtures';

/**
 * A search with a status or program filter is answered by FTS5 from the index's facets
 * (report-facets.ts). The index's facets must follow every change of status or program, and a
 * search must never show a report under a filter it no longer fits, nor count one it does not show.
 */
const t = useTempStore();

const STATUSES: ReportStatus[] = ['triaging', 'needs_info', 'accepted', 'human_review', 'draft'];
/** Program ids as the server may send them: punctuation, non-ASCII, one a prefix of another. */
const PROGRAMS = ['acme', 'acme-web', 'Prögramm / Süd', 'x_1'];
const WORDS = ['token', 'cookie', 'redirect'];

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;

function world(n: number): Report[] {
  return Array.from({ length: n }, (_, i) =>
    makeReport({
      status: pick(STATUSES, i),
      program_id: pick(PROGRAMS, i * 7 + (i >> 3)),
      program_name: pick(PROGRAMS, i * 7 + (i >> 3)),
      updated_at: iso(1_000 + i),
      description: `${pick(WORDS, i)} and ${pick(WORDS, i * 5 + 1)} in the ${i % 4 === 0 ? 'session' : 'form'}`,
    }),
  );
}

/** The reports a query should list, newest first, from the reports as they are now. */
function expected(reports: Map<string, Report>, query: Partial<ReportListQuery>): string[] {
  const word = query.search ?? '';
  return [...reports.values()]
    .filter((r) => !query.status?.length || query.status.includes(r.status))
    .filter((r) => !query.program || r.program_id === query.program)
    .filter((r) => new RegExp(`\\b${word}\\b`, 'iu').test(r.description))
    .sort(
      (a, b) => (b.updated_at ?? '').localeCompare(a.updated_at ?? '') || a.id.localeCompare(b.id),
    )
    .map((r) => r.id);
}

function listed(query: Partial<ReportListQuery>): { ids: string[]; total: number } {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 25) {
    const page = t.store.reportList.page({ ...query, offset, limit: 25 });
    ids.push(...page.rows.map((row) => row.id));
    if (page.rows.length < 25) return { ids, total: page.total };
  }
}

const QUERIES: Partial<ReportListQuery>[] = [
  { search: 'token', status: ['accepted'] },
  { search: 'cookie', status: ['needs_info', 'human_review'] },
  { search: 'redirect', program: 'Prögramm / Süd' },
  { search: 'token', program: 'acme' },
  { search: 'session', program: 'acme-web', status: ['triaging', 'draft'] },
  { search: 'token' },
];

function checkAll(reports: Map<string, Report>, when: string): void {
  for (const query of QUERIES) {
    const label = `${when} ${JSON.stringify(query)}`;
    const want = expected(reports, query);
    const got = listed(query);
    expect(got.ids, label).toEqual(want);
    expect(got.total, label).toBe(want.length);
  }
}

describe('a filtered search is FTS5 over the facets of status and program', () => {
  it('follows changes of status and program, queued or indexed', () => {
    const reports = new Map(world(240).map((r) => [r.id, r]));
    t.store.reports.upsertReports([...reports.values()]);
    checkAll(reports, 'queued');
    t.store.searchIndex.flush();
    checkAll(reports, 'indexed');
    // The team moves some reports on; one moves to another program.
    const changed = [...reports.values()].filter((_, i) => i % 3 === 0);
    for (const [i, report] of changed.entries()) {
      const next = {
        ...report,
        status: pick(STATUSES, i + 2),
        program_id: i % 10 === 0 ? 'acme' : report.program_id,
        updated_at: iso(5_000 + i),
      };
      reports.set(report.id, next);
    }
    t.store.reports.upsertReports(changed.map((r) => reports.get(r.id) as Report));
    const moved = changed.filter((r) => {
      const next = reports.get(r.id) as Report;
      return next.status !== r.status || next.program_id !== r.program_id;
    });
    expect(moved.length).toBeGreaterThan(50);
    // Each changed report is queued: its facets, or its update time (the index's rowids follow
    // the list's order, report-index-key.ts), changed.
    expect(moved.length).toBeLessThan(changed.length);
    expect(t.store.searchIndex.pending()).toBe(changed.length);
    checkAll(reports, 'changed, queued');
    t.store.searchIndex.flush();
    checkAll(reports, 'changed, indexed');
  });

  it('past the queue-scan limit, never lists a report under a status it has left', () => {
    const reports = world(QUEUE_SCAN_LIMIT + 100);
    t.store.reports.upsertReports(reports);
    t.store.searchIndex.flush();
    // Every report changes status at once (a bulk sync): more are queued than a search scans.
    const moved = reports.map((r) => ({
      ...r,
      status: r.status === 'accepted' ? ('triaging' as const) : ('accepted' as const),
      updated_at: iso(9_000),
    }));
    t.store.reports.upsertReports(moved);
    const query = { search: 'token', status: ['accepted'] as ReportStatus[] };
    const page = t.store.reportList.page({ ...query, offset: 0, limit: 10_000 });
    expect(page.indexing).toBe(moved.length);
    const byId = new Map(moved.map((r) => [r.id, r]));
    for (const row of page.rows) expect(byId.get(row.id)?.status).toBe('accepted');
    expect(page.total).toBe(page.rows.length);
    t.store.searchIndex.flush();
    checkAll(new Map(moved.map((r) => [r.id, r])), 'after the bulk change');
  });

  it('what a person types never matches a facet', () => {
    t.store.reports.upsertReports(world(20));
    t.store.searchIndex.flush();
    const accepted = `s${Buffer.from('accepted').toString('hex')}`;
    const acme = `p${Buffer.from('acme').toString('hex')}`;
    for (const typed of [accepted, acme, `${accepted.slice(0, 6)}*`, `facets:${accepted}`]) {
      expect(t.store.reportList.page({ search: typed, offset: 0, limit: 10 }).total, typed).toBe(0);
      expect(t.store.search.searchReports(typed), typed).toEqual([]);
    }
  });

  it('says the text columns only when a word could match a facet, with the same hits', () => {
    const accepted = `s${Buffer.from('accepted').toString('hex')}`;
    const acme = `p${Buffer.from('acme').toString('hex')}`;
    // Report text that holds facet-like words too, so that a kept filter has something to do.
    t.store.reports.upsertReports(
      world(40).map((r, i) => ({
        ...r,
        title: `${r.title} ${i % 3 === 0 ? accepted : 'spa'} s61 ${i % 4 === 0 ? acme : 'p5'}`,
      })),
    );
    t.store.searchIndex.flush();
    const filtered = (typed: string) => {
      const words = parseSearch(typed);
      if (words === null) throw new Error(typed);
      return textColumnsMatch(words, ftsExpression(words)).startsWith(TEXT_COLUMNS);
    };
    for (const typed of ['token', 'session cookie', 'Token-Redirect', 'spa', 'x_1 tok'])
      expect(filtered(typed), typed).toBe(false);
    for (const typed of ['s61', 'sad', 'p5', 'cookie s', 'Session-s61', 'café', acme])
      expect(filtered(typed), typed).toBe(true);

    const hits = t.store.db.sqlite
      .prepare<[string], number>(
        'SELECT rowid FROM reports_fts WHERE reports_fts MATCH ? ORDER BY rowid',
      )
      .pluck();
    // What people type, near the facets' alphabet: the hits never depend on saying the columns.
    const piece = fc.constantFrom(
      's',
      'p',
      'S',
      'a',
      'c',
      'e',
      'd',
      '6',
      '1',
      '5',
      'token',
      'session',
      'cookie',
      'spa',
      accepted.slice(0, 5),
      acme,
      ' ',
      '-',
      '*',
      '"',
      'é',
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 6 }), (pieces) => {
        const words = parseSearch(pieces.join(''));
        if (words === null) return;
        const expression = ftsExpression(words);
        expect(hits.all(textColumnsMatch(words, expression))).toEqual(
          hits.all(`${TEXT_COLUMNS} : (${expression})`),
        );
      }),
      { numRuns: 400 },
    );
  });
});

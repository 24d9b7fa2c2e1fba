/**
 * The search index's rowids order reports by update time in buckets (report-index-key.ts): a
 * search's first pages are read from the index in that order and every hit of the bucket where a
 * page ends is taken and sorted (report-list/ordered.ts). Here many reports share one bucket (a
 * program closing a thousand reports at once, or within seconds) and the rest sit on both sides
 * of bucket boundaries, with real and generated report texts: every window of a search lists
 * what the set of every hit lists, in the list's order.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openStore, type ReportListQuery } from '../../src/engine/store';
import { BUCKET_MS } from '../../src/engine/store/report-index-key';
import { createReportListRepository } from '../../src/engine/store/report-list';
import { ORDERED_ROWS } from '../../src/engine/store/report-list/ordered';
import type { Report, ReportStatus } from '../../src/shared/api';
import { reportWithPayloads } from '../support/generated-texts';
import { reportExcerptArb } from '../support/report-texts';
import { makeReport, useTempStore } from './fixtures';

const t = useTempStore();

/** The first millisecond of a bucket of the index's key, in January 2025. */
const BOUNDARY = Math.ceil(Date.UTC(2025, 0, 10) / BUCKET_MS) * BUCKET_MS;
const STATUSES: ReportStatus[] = ['accepted', 'rejected', 'duplicate', 'triaging'];
/** A word planted in some reports, and words the real texts hold. */
const PLANTED = 'bucketmark';
const SEARCHES = [PLANTED, 'request', 'http', 'token'];

const WINDOWS = [
  { offset: 0, limit: 200 },
  { offset: 0, limit: 25 },
  { offset: 180, limit: 40 },
  { offset: 500, limit: 200 },
  { offset: ORDERED_ROWS - 100, limit: 200 },
];

interface Layout {
  /** Reports closed together, all in one bucket. */
  bulk: number;
  /** Milliseconds between two of them (0: one instant). */
  step: number;
  /** Where in its bucket the bulk starts. */
  into: number;
  /** Reports newer than the bulk, in the buckets after it (some on their first millisecond). */
  newer: number;
  /** Reports older than the bulk (some on the last millisecond of a bucket). */
  older: number;
  /** Every `every`-th report holds the planted word. */
  every: number;
  texts: string[];
}

const layoutArb: fc.Arbitrary<Layout> = fc.record({
  bulk: fc.integer({ min: 600, max: 1_100 }),
  step: fc.constantFrom(0, 1, 7, 1_000),
  into: fc.integer({ min: 0, max: BUCKET_MS / 2 }),
  newer: fc.integer({ min: 0, max: 260 }),
  older: fc.integer({ min: 0, max: 300 }),
  every: fc.integer({ min: 1, max: 3 }),
  texts: fc.array(fc.oneof(reportExcerptArb(1_500, 4), reportWithPayloads), {
    minLength: 12,
    maxLength: 12,
  }),
});

function reportsOf(layout: Layout): Report[] {
  const at = (ms: number): string => new Date(ms).toISOString();
  const times: number[] = [];
  // The bulk, inside the bucket starting at BOUNDARY (the step never leaves it).
  const start = BOUNDARY + layout.into;
  for (let i = 0; i < layout.bulk; i++) times.push(start + ((i * layout.step) % (BUCKET_MS / 2)));
  // Newer: first milliseconds of later buckets, and times in between.
  for (let i = 0; i < layout.newer; i++) {
    const bucket = BOUNDARY + (1 + (i % 5)) * BUCKET_MS;
    times.push(i % 3 === 0 ? bucket : bucket + ((i * 7_919) % BUCKET_MS));
  }
  // Older: last milliseconds of earlier buckets, and times in between.
  for (let i = 0; i < layout.older; i++) {
    const bucket = BOUNDARY - (i % 7) * BUCKET_MS;
    times.push(i % 3 === 0 ? bucket - 1 : bucket - 1 - ((i * 104_729) % BUCKET_MS));
  }
  return times.map((ms, i) => {
    const text = layout.texts[i % layout.texts.length] ?? '';
    return makeReport({
      status: STATUSES[i % STATUSES.length] ?? 'accepted',
      program_id: `program-${i % 3}`,
      program_name: `Program ${i % 3}`,
      title: `${i % layout.every === 0 ? `${PLANTED} ` : ''}Finding ${i} on *.example.com`,
      description: text,
      updated_at: at(ms),
    });
  });
}

/** Whether rows are in the list's default order: newest update first, then by id. */
function inListOrder(rows: { id: string; updated_at: string | null }[]): boolean {
  return rows.every((row, i) => {
    const prev = rows[i - 1];
    if (!prev) return true;
    const a = prev.updated_at ?? '';
    const b = row.updated_at ?? '';
    return a > b || (a === b && prev.id < row.id);
  });
}

describe('a search read in the index order when many reports share a bucket', () => {
  it('lists every window as the set of every hit does, in the list order, across buckets', () => {
    let run = 0;
    let compared = 0;
    fc.assert(
      fc.property(layoutArb, (layout) => {
        const dir = t.dir;
        const store = openStore({ file: join(dir, `run-${run++}.sqlite`), dataDir: dir });
        try {
          store.reports.upsertReports(reportsOf(layout));
          store.searchIndex.flush();
          const inOrder = createReportListRepository(store.db);
          const fromHits = createReportListRepository(store.db, { indexOrder: false });
          for (const search of SEARCHES) {
            for (const status of [[], ['accepted']] as ReportStatus[][]) {
              const query: Omit<ReportListQuery, 'offset' | 'limit'> = { search, status };
              const all = fromHits.page({ ...query, offset: 0, limit: 10_000 }).rows;
              expect(inListOrder(all), search).toBe(true);
              for (const window of WINDOWS) {
                const label = JSON.stringify({ ...query, ...window });
                const page = inOrder.page({ ...query, ...window, rowsFirst: true });
                expect(page.rows, label).toEqual(
                  all.slice(window.offset, window.offset + window.limit),
                );
                compared += page.rows.length;
              }
            }
          }
          // Windows that end inside the shared bucket, a few rows into it and near its end.
          const planted = fromHits.page({ search: PLANTED, offset: 0, limit: 10_000 }).rows;
          const inBulk = (row: { updated_at: string | null }): boolean =>
            Math.floor(Date.parse(row.updated_at ?? '') / BUCKET_MS) === BOUNDARY / BUCKET_MS;
          const first = planted.findIndex(inBulk);
          const last = planted.findLastIndex(inBulk);
          expect(last - first).toBeGreaterThan(100);
          for (const end of [first + 3, first + 150, last - 1]) {
            const window = { offset: Math.max(0, end - 60), limit: end - Math.max(0, end - 60) };
            const page = inOrder.page({ search: PLANTED, ...window, rowsFirst: true });
            expect(page.rows, JSON.stringify(window)).toEqual(
              planted.slice(window.offset, window.offset + window.limit),
            );
          }
        } finally {
          store.close();
        }
      }),
      { numRuns: 3 },
    );
    expect(compared).toBeGreaterThan(3 * 300);
  }, 180_000);
});

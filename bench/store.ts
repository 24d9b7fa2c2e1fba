/**
 * Store benchmark: bulk upsert, the reports list's pages (report-list/: what the reports screen
 * reads, drafts and outbox flags joined) and full-text search at 10,000 reports.
 * Each figure has a baseline measured in the same run, so the ratio survives a slower machine.
 * Run alone with `npx tsx bench/store.ts`, or through `npm run bench`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openStore, type ReportListQuery, type Store } from '../src/engine/store';
import { formatResults, percentile, type BenchResult } from './result';
import { makeReports, prng, statuses } from './report-fixtures';

const REPORTS = 10_000;
const PAGE = 200;
const LIST_RUNS = 1_000;
const SEARCH_RUNS = 300;

function timeMs(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function p95Of(runs: number, fn: (i: number) => unknown): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(timeMs(() => fn(i)));
  return percentile(samples, 95);
}

function result(
  name: string,
  value: number,
  baseline: number,
  targetMs: number,
  unit = 'ms',
): BenchResult {
  return {
    name,
    value,
    unit,
    baseline,
    ratio: value / baseline,
    target: `< ${targetMs} ${unit}`,
    ok: value < targetMs,
  };
}

function writeFigures(store: Store): { serialize: number; upsert: number; reUpsert: number } {
  const reports = makeReports(REPORTS);
  const serialize = timeMs(() => reports.map((r) => JSON.stringify(r)));
  const upsert = timeMs(() => store.reports.upsertReports(reports));
  const reUpsert = timeMs(() => store.reports.upsertReports(reports));
  return { serialize, upsert, reUpsert };
}

/** Lets the garbage of the write phase be collected, then warms the statements and caches. */
async function settle(): Promise<void> {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
}

export async function benchStore(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-store-'));
  const store = openStore({ file: join(dir, 'bench.sqlite'), dataDir: dir });
  try {
    // The generated reports go out of scope before the read figures: a live 10k-report array
    // makes V8's incremental marking show up as read latency the app would not have.
    const { serialize, upsert, reUpsert } = writeFigures(store);
    await settle();

    await store.searchIndex.idle();
    const page = (query: Partial<ReportListQuery>) =>
      store.reportList.page({ offset: 0, limit: PAGE, ...query });
    for (let i = 0; i < 50; i++) page({ offset: i * PAGE });
    const selectOne = store.db.sqlite.prepare('SELECT 1');
    const selectP95 = p95Of(LIST_RUNS, () => selectOne.get());
    const random = prng(7);
    const listP95 = p95Of(LIST_RUNS, () =>
      page({ offset: Math.floor(random() * (REPORTS / PAGE)) * PAGE }),
    );
    const filteredP95 = p95Of(LIST_RUNS, (i) =>
      page({ status: [statuses[i % statuses.length] ?? 'draft'] }),
    );
    const queries = ['xss', 'sql injection', 'account takeo', 'oauth token', 'cache poisoning'];
    const searchP95 = p95Of(SEARCH_RUNS, (i) =>
      store.search.search(queries[i % queries.length] ?? 'xss', { limit: 50 }),
    );
    const listSearchP95 = p95Of(SEARCH_RUNS, (i) =>
      page({ search: queries[i % queries.length] ?? 'xss' }),
    );

    return [
      result(
        `upsertReports ${REPORTS} full reports (baseline: JSON.stringify them)`,
        upsert,
        serialize,
        1000,
      ),
      result(`upsertReports ${REPORTS} unchanged (idempotent re-sync)`, reUpsert, serialize, 1000),
      result(
        `reports list page of ${PAGE} at any offset of ${REPORTS}, with its total, p95 (baseline: SELECT 1)`,
        listP95,
        selectP95,
        5,
      ),
      result(`reports list by status, p95 (baseline: SELECT 1)`, filteredP95, selectP95, 5),
      result(`search() reports+programs, p95 (baseline: SELECT 1)`, searchP95, selectP95, 20),
      result(`reports list with search, p95 (baseline: SELECT 1)`, listSearchP95, selectP95, 20),
    ];
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(formatResults('store', await benchStore()));
}

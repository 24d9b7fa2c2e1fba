/**
 * Store benchmark: bulk upsert, the report list page and full-text search at 10,000 reports.
 * Each figure has a baseline measured in the same run, so the ratio survives a slower machine.
 * Run alone with `npx tsx bench/store.ts`, or through `npm run bench`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { openStore, type Store } from '../src/core/store';
import type { Report, ReportStatus } from '../src/shared/api';
import { formatResults, percentile, type BenchResult } from './result';

const REPORTS = 10_000;
const LIST_RUNS = 1_000;
const SEARCH_RUNS = 300;

const words = (
  'xss csrf ssrf injection sql redirect token session cookie header upload parser template ' +
  'race condition overflow deserialization traversal path admin panel account takeover api ' +
  'graphql webhook oauth saml cache poisoning clickjacking cors idor privilege escalation ' +
  'password reset email mobile certificate pinning bucket storage lambda kubernetes secret'
).split(' ');
const statuses: ReportStatus[] = ['draft', 'triaging', 'needs_info', 'accepted', 'rejected'];

/** Deterministic pseudo-random numbers, so runs compare. */
function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/**
 * Text shaped like real reports: a wide, skewed vocabulary of ordinary words plus a few security
 * terms per report, so a query matches a realistic share of reports instead of nearly all.
 */
function makeReports(count: number): Report[] {
  const random = prng(42);
  const filler = Array.from({ length: 4000 }, (_, i) => `w${(i * 7919).toString(36)}`);
  const word = () => filler[Math.floor(random() ** 2 * filler.length)] ?? 'word';
  const term = () => words[Math.floor(random() * words.length)] ?? 'xss';
  const sentence = (n: number) =>
    Array.from({ length: n }, (_, k) => (k % 25 === 0 ? term() : word())).join(' ');
  const start = Date.UTC(2024, 0, 1);
  return Array.from({ length: count }, (_, i) => {
    const updated = new Date(start + i * 60_000).toISOString();
    return {
      id: randomUUID(),
      program_id: `program-${i % 40}`,
      program_name: `Program ${i % 40}`,
      status: statuses[i % statuses.length] ?? 'draft',
      display_status: 'Label',
      title: `${term()} ${term()} in ${word()} ${word()}`,
      revision: 1 + (i % 7),
      created_at: updated,
      updated_at: updated,
      submitted_at: null,
      withdrawn_at: null,
      asset: `https://app${i % 50}.example/${word()}`,
      // About 200 words (1.5 KB) of Markdown per report.
      description: [
        '## Steps to reproduce',
        sentence(60),
        '## Expected behavior',
        sentence(40),
        '## Actual behavior',
        sentence(40),
        '## Security impact',
        sentence(60),
      ].join('\n\n'),
      cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
      attachments: {
        [randomUUID()]: {
          name: 'poc.png',
          size: 1234,
          content_type: 'image/png',
          sha256: 'ab'.repeat(32),
          storage_path: 'reports/x/poc.png',
          state: 'ready',
          started_at: updated,
          uploaded_at: updated,
        },
      },
      submission: null,
      decision: null,
      payout: null,
    };
  });
}

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

    for (let i = 0; i < 200; i++) store.reports.listReports({ limit: 50, offset: i * 50 });
    const selectOne = store.db.sqlite.prepare('SELECT 1');
    const selectP95 = p95Of(LIST_RUNS, () => selectOne.get());
    const random = prng(7);
    const listP95 = p95Of(LIST_RUNS, () =>
      store.reports.listReports({ limit: 50, offset: Math.floor(random() * 200) * 50 }),
    );
    const filteredP95 = p95Of(LIST_RUNS, (i) =>
      store.reports.listReports({ status: statuses[i % statuses.length], limit: 50, offset: 0 }),
    );
    const queries = ['xss', 'sql injection', 'account takeo', 'oauth token', 'cache poisoning'];
    const searchP95 = p95Of(SEARCH_RUNS, (i) =>
      store.search.search(queries[i % queries.length] ?? 'xss', { limit: 50 }),
    );
    const listSearchP95 = p95Of(SEARCH_RUNS, (i) =>
      store.reports.listReports({ search: queries[i % queries.length], limit: 50 }),
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
        `listReports page of 50 at ${REPORTS}, p95 (baseline: SELECT 1)`,
        listP95,
        selectP95,
        5,
      ),
      result(`listReports by status, p95 (baseline: SELECT 1)`, filteredP95, selectP95, 5),
      result(`search() reports+programs, p95 (baseline: SELECT 1)`, searchP95, selectP95, 20),
      result(`listReports with search, p95 (baseline: SELECT 1)`, listSearchP95, selectP95, 20),
    ];
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(formatResults('store', await benchStore()));
}

/**
 * Engine benchmarks: the whole client (budget, retries, sync, outbox, SQLite mirror, real
 * keychain) against the embedded sandbox over real HTTP. Each figure has a baseline measured in
 * the same run, so ratios survive a slower or busier machine:
 *
 * 1. Initial mirror of 10,000 reports, rate limits off: wall time against a plain `fetch` client
 *    making the minimum requests (list pages + one detail per report + one thread per submitted
 *    report) at the same concurrency; requests against that minimum (target: at most 1% above).
 * 2. (The same with the server's rate limits, through the engine's process protocol, is in
 *    bench/ui.ts: the engine's budget runs on a clock that moves the sandbox clock with it.)
 * 3. Steady state: requests per poll when nothing changed (target: 1).
 * 4. SQLite: upsert of 10,000 full reports (target < 1 s), and the search index filled after it.
 * 5. A 10 MiB upload through the outbox against a plain `fetch` PUT of the same bytes (target:
 *    at least 80% of its throughput).
 *
 * Needs a real keychain: `bash scripts/with-keyring.sh npx tsx bench/engine.ts` (`npm run bench`
 * does that). No key is ever printed.
 */
import { QUEUE_SCAN_LIMIT } from '../src/engine/store/report-search';
import { randomBytes, randomUUID } from '../test/support/random';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Clock } from '../src/engine/api';
import { Engine } from '../src/engine/commands';
import { KeychainSecretStore } from '../src/engine/secrets';
import { openStore } from '../src/engine/store';
import { startSandbox, type SandboxHandle } from '../src/sandbox';
import { makeReports } from './report-fixtures';
import {
  newAccount as newAccountAt,
  reportRequests,
  resetStats as resetStatsAt,
  routeSummary,
  stats as statsAt,
} from './sandbox-control';
import { formatResults, median, type BenchResult } from './result';

/** `BENCH_ENGINE_REPORTS=1000` runs the mirror figures on a smaller account (quick checks). */
const MIRROR_REPORTS = Number(process.env.BENCH_ENGINE_REPORTS ?? 10_000);
const PAGE = 100;
/** The engine's default sync concurrency; the baseline client uses the same. */
const CONCURRENCY = 4;
const STEADY_POLLS = 7;
const UPSERT_REPORTS = 10_000;
const UPSERT_RUNS = 3;
const UPLOAD_BYTES = 10 * 1024 * 1024;
const UPLOAD_RUNS = 5;
/** Budget limit for the runs against a sandbox without rate limits. */
const UNLIMITED = 1_000_000_000;

const newAccount = (sandbox: SandboxHandle, reports: number) => newAccountAt(sandbox.url, reports);
const stats = (sandbox: SandboxHandle) => statsAt(sandbox.url);
const resetStats = (sandbox: SandboxHandle) => resetStatsAt(sandbox.url);

// ---- engine helpers -----------------------------------------------------------------------------

interface Connected {
  engine: Engine;
  dataDir: string;
  close(): Promise<void>;
}

async function connectEngine(
  sandbox: SandboxHandle,
  key: string,
  options: { clock?: Clock; autoStart?: boolean; budgetLimit?: number } = {},
): Promise<Connected> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-engine-'));
  const engine = new Engine({
    dataDir,
    secrets: new KeychainSecretStore(),
    autoStart: options.autoStart ?? false,
    // No extra poll a few seconds after the bench's own writes.
    cadences: { afterActionMs: 10 * 60_000 },
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.budgetLimit ? { budgetLimit: options.budgetLimit } : {}),
  });
  await engine.connect({ serverUrl: sandbox.url, apiKey: key, sandbox: true });
  return {
    engine,
    dataDir,
    async close() {
      // Signing out removes the key from the keychain again.
      await engine.signOut();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The minimum client: every list page, then one detail per report and one thread per submitted one. */
async function plainMirror(sandbox: SandboxHandle, key: string): Promise<number> {
  const headers = { authorization: `Bearer ${key}` };
  const get = async (path: string): Promise<unknown> => {
    const res = await fetch(`${sandbox.url}${path}`, { headers });
    if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
    return res.json();
  };
  let requests = 0;
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page = (await get(`/api/reports?limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`)) as {
      reports: { id: string }[];
      next_cursor: string | null;
    };
    requests++;
    ids.push(...page.reports.map((r) => r.id));
    cursor = page.next_cursor;
  } while (cursor);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < ids.length) {
        const id = ids[next++] as string;
        const report = (await get(`/api/reports/${id}`)) as {
          status: string;
          submitted_at: string | null;
        };
        requests++;
        if (report.status !== 'draft' || report.submitted_at !== null) {
          await get(`/api/reports/${id}/messages`);
          requests++;
        }
      }
    }),
  );
  return requests;
}

function checkMirror(engine: Engine, reports: number): void {
  const store = engine.session.store;
  const { listed, current } = store.reports.countMirrored();
  if (listed !== reports || current !== reports) {
    throw new Error(`incomplete mirror: ${listed} listed, ${current} full of ${reports}`);
  }
}

const seconds = (ms: number) => ms / 1000;
const started = performance.now();
/** Progress on stderr, so a long run shows where it is (stdout keeps the figures only). */
function progress(step: string): void {
  console.error(`[engine ${seconds(performance.now() - started).toFixed(1)} s] ${step}`);
}

// ---- 1 and 3: initial mirror and steady state, rate limits off ----------------------------------

async function benchMirror(): Promise<BenchResult[]> {
  const sandbox = await startSandbox({ port: 0, agent: 'manual', rateLimits: 'off' });
  try {
    const { key } = await newAccount(sandbox, MIRROR_REPORTS);

    progress(`mirror: baseline (plain fetch of ${MIRROR_REPORTS} reports)`);
    // Baseline: the minimum requests with plain fetch, no store.
    await resetStats(sandbox);
    const b0 = performance.now();
    const minimum = await plainMirror(sandbox, key);
    const baselineMs = performance.now() - b0;

    // The server has no limits here, so neither has the client's budget (else 100/min rules).
    const { engine, close } = await connectEngine(sandbox, key, { budgetLimit: UNLIMITED });
    try {
      await resetStats(sandbox);
      progress('mirror: engine');
      const t0 = performance.now();
      await engine.calls.syncNow();
      // The pass lists; a large account's reports follow in the background mirror.
      await engine.session.mirrorIdle();
      const mirrorMs = performance.now() - t0;
      const afterMirror = await stats(sandbox);
      const i0 = performance.now();
      await engine.session.store.searchIndex.idle();
      const indexLagMs = performance.now() - i0;
      checkMirror(engine, MIRROR_REPORTS);
      const reportReqs = reportRequests(afterMirror);
      const payoutFollowUp = engine.session.api.budget.snapshot().granted.prefetch;
      console.error(`[engine] initial mirror requests by route: ${routeSummary(afterMirror)}`);

      // 3. Steady state: nothing changed on the server.
      const perPoll: number[] = [];
      const pollMs: number[] = [];
      for (let i = 0; i < STEADY_POLLS; i++) {
        await resetStats(sandbox);
        const p0 = performance.now();
        await engine.session.syncNow(['reports']);
        pollMs.push(performance.now() - p0);
        perPoll.push((await stats(sandbox)).requests);
      }
      const since = engine.session.store.syncState.getSince() ?? '';
      const plainPollMs: number[] = [];
      for (let i = 0; i < STEADY_POLLS; i++) {
        const p0 = performance.now();
        const res = await fetch(
          `${sandbox.url}/api/reports?limit=${PAGE}&updated_since=${encodeURIComponent(since)}`,
          { headers: { authorization: `Bearer ${key}` } },
        );
        await res.arrayBuffer();
        plainPollMs.push(performance.now() - p0);
      }
      const requestsPerPoll = median(perPoll);
      return [
        {
          name: `initial mirror of ${MIRROR_REPORTS} reports, wall time (baseline: plain fetch of the minimum requests, concurrency ${CONCURRENCY})`,
          value: seconds(mirrorMs),
          unit: 's',
          baseline: seconds(baselineMs),
          ratio: mirrorMs / baselineMs,
        },
        {
          name: 'initial mirror, report requests (list + detail + thread; baseline: the minimum)',
          value: reportReqs,
          unit: 'requests',
          baseline: minimum,
          ratio: reportReqs / minimum,
          target: `<= ${Math.floor(minimum * 1.01)} (min + 1%)`,
          ok: reportReqs <= minimum * 1.01,
        },
        {
          name: 'initial mirror, all requests of the first sync pass (account, programs, payouts included)',
          value: afterMirror.requests,
          unit: 'requests',
          baseline: minimum,
          ratio: afterMirror.requests / minimum,
        },
        {
          name: 'of which granted at prefetch priority (the background mirror of a large account, payout follow-up, programs)',
          value: payoutFollowUp,
          unit: 'requests',
        },
        {
          name: 'search index lag after the mirror (queue drained in the background)',
          value: indexLagMs,
          unit: 'ms',
        },
        {
          name: `steady-state poll, requests per poll when nothing changed (median of ${STEADY_POLLS})`,
          value: requestsPerPoll,
          unit: 'requests',
          baseline: 1,
          ratio: requestsPerPoll,
          target: '= 1',
          ok: requestsPerPoll === 1 && Math.max(...perPoll) === 1,
        },
        {
          name: 'steady-state poll, wall time (baseline: one plain fetch of the same list page)',
          value: median(pollMs),
          unit: 'ms',
          baseline: median(plainPollMs),
          ratio: median(pollMs) / median(plainPollMs),
        },
      ];
    } finally {
      await close();
    }
  } finally {
    await sandbox.close();
  }
}

// ---- 4: SQLite upsert and the search index after it ----------------------------------------------

async function benchUpsert(): Promise<BenchResult[]> {
  progress('SQLite upsert');
  const writes: number[] = [];
  const indexes: number[] = [];
  const firstSearches: number[] = [];
  const serializes: number[] = [];
  for (let run = 0; run < UPSERT_RUNS; run++) {
    for (const searchAtOnce of [false, true]) {
      const dir = mkdtempSync(join(tmpdir(), 'bench-upsert-'));
      const store = openStore({ file: join(dir, 'mirror.sqlite'), dataDir: dir });
      try {
        const reports = makeReports(UPSERT_REPORTS);
        const s0 = performance.now();
        for (const report of reports) JSON.stringify(report);
        const s1 = performance.now();
        store.reports.upsertReports(reports);
        const w1 = performance.now();
        if (searchAtOnce) {
          // A search right after the write does not wait for the index (report-search.ts).
          store.search.searchReports('xss');
          firstSearches.push(performance.now() - w1);
          await store.searchIndex.idle();
        } else {
          await store.searchIndex.idle();
          indexes.push(performance.now() - w1);
          writes.push(w1 - s1);
          serializes.push(s1 - s0);
        }
        if (store.searchIndex.pending() !== 0) throw new Error('search index not drained');
      } finally {
        store.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  const base = median(serializes);
  const write = median(writes);
  const total = median(writes.map((w, i) => w + (indexes[i] ?? 0)));
  return [
    {
      name: `upsertReports ${UPSERT_REPORTS} full reports, the write (baseline: JSON.stringify them)`,
      value: write,
      unit: 'ms',
      baseline: base,
      ratio: write / base,
      target: '< 1000 ms',
      ok: write < 1000,
    },
    {
      name: '  search index drained after it (background, one batch per event-loop turn)',
      value: median(indexes),
      unit: 'ms',
    },
    {
      name: '  write + index',
      value: total,
      unit: 'ms',
      baseline: base,
      ratio: total / base,
    },
    {
      name: `  first search right after the write (never waits: past ${QUEUE_SCAN_LIMIT.toLocaleString('en-US')} queued it answers from the index alone and says so)`,
      value: median(firstSearches),
      unit: 'ms',
    },
  ];
}

// ---- 5: 10 MiB upload through the outbox ---------------------------------------------------------

async function waitFor(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** The plain baseline: a draft made with fetch, then one PUT of the bytes from memory. */
async function plainUpload(sandbox: SandboxHandle, key: string, bytes: Buffer): Promise<number> {
  const headers = { authorization: `Bearer ${key}` };
  const reportId = randomUUID();
  const draft = await fetch(`${sandbox.url}/api/reports/${reportId}`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      program_id: 'acme-web',
      title: '',
      asset: '',
      description: '',
      revision: 0,
    }),
  });
  const { revision } = (await draft.json()) as { revision: number };
  const t0 = performance.now();
  const res = await fetch(
    `${sandbox.url}/api/reports/${reportId}/files/${randomUUID()}?name=evidence.bin&revision=${revision}`,
    {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body: bytes,
    },
  );
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`plain upload: ${res.status}`);
  return performance.now() - t0;
}

interface OutboxUpload {
  /** attachFiles: copy, sha256 and fsync into the evidence store, then queued. */
  attach: number;
  /** Queued to acknowledged (the report says `ready`). */
  send: number;
}

/** A draft the server already has, then the file through attachFiles and the outbox. */
async function outboxUpload(engine: Engine, path: string): Promise<OutboxUpload> {
  const draft = await engine.calls.createDraft('acme-web');
  await engine.session.drain();
  const store = engine.session.store;
  const t0 = performance.now();
  const [evidence] = await engine.calls.attachFiles(draft.reportId, [{ path }]);
  const t1 = performance.now();
  if (!evidence) throw new Error('no evidence');
  await waitFor(() => store.evidence.get(evidence.fileId)?.state === 'uploaded');
  const t2 = performance.now();
  const stored = store.reports.getReport(draft.reportId)?.attachments[evidence.fileId];
  if (stored?.state !== 'ready') throw new Error('upload not acknowledged');
  return { attach: t1 - t0, send: t2 - t1 };
}

async function benchUpload(): Promise<BenchResult[]> {
  const sandbox = await startSandbox({ port: 0, agent: 'manual', rateLimits: 'off' });
  const dir = mkdtempSync(join(tmpdir(), 'bench-upload-'));
  try {
    progress('upload');
    const { key } = await newAccount(sandbox, 0);
    const { engine, close } = await connectEngine(sandbox, key, {
      autoStart: true,
      budgetLimit: UNLIMITED,
    });
    const plain: number[] = [];
    const outbox: OutboxUpload[] = [];
    try {
      await engine.calls.syncNow();
      // Interleaved, so both see the same machine load; run 0 warms both paths up.
      for (let i = 0; i <= UPLOAD_RUNS; i++) {
        const path = join(dir, `evidence-${i}.bin`);
        const bytes = randomBytes(UPLOAD_BYTES);
        writeFileSync(path, bytes);
        const p = await plainUpload(sandbox, key, bytes);
        const o = await outboxUpload(engine, path);
        if (i > 0) {
          plain.push(p);
          outbox.push(o);
        }
      }
    } finally {
      await close();
    }
    const mibps = (ms: number) => UPLOAD_BYTES / 1024 / 1024 / (ms / 1000);
    const plainRate = mibps(median(plain));
    const sendRate = mibps(median(outbox.map((o) => o.send)));
    const wholeRate = mibps(median(outbox.map((o) => o.attach + o.send)));
    return [
      {
        name: `10 MiB upload through the outbox, queued to acknowledged (median of ${UPLOAD_RUNS}; baseline: plain fetch PUT from memory)`,
        value: sendRate,
        unit: 'MiB/s',
        baseline: plainRate,
        ratio: sendRate / plainRate,
        target: '>= 80% of baseline',
        ok: sendRate >= 0.8 * plainRate,
      },
      {
        name: '  attachFiles included (copy + sha256 + fsync into the evidence store first)',
        value: wholeRate,
        unit: 'MiB/s',
        baseline: plainRate,
        ratio: wholeRate / plainRate,
      },
      { name: '  outbox send time', value: median(outbox.map((o) => o.send)), unit: 'ms' },
      { name: '  attachFiles time', value: median(outbox.map((o) => o.attach)), unit: 'ms' },
      { name: '  plain fetch upload time', value: median(plain), unit: 'ms' },
    ];
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const parts = {
  mirror: benchMirror,
  upsert: benchUpsert,
  upload: benchUpload,
};
type Part = keyof typeof parts;

/** Every part, or only the named ones (`npx tsx bench/engine.ts upload upsert`). */
export async function benchEngine(only: readonly string[] = []): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const [name, run] of Object.entries(parts) as [Part, () => Promise<BenchResult[]>][]) {
    if (only.length === 0 || only.includes(name)) results.push(...(await run()));
  }
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(formatResults('engine', await benchEngine(process.argv.slice(2))));
}

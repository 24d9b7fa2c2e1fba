/**
 * Sandbox benchmark: one account with 100,000 reports; median and p95 latency of
 * `GET /api/reports?limit=100` pages (with and without `updated_since`) and of
 * `GET /api/reports/{id}`, against a baseline measured in the same run (`GET /api/me` on the
 * same connection, which does no report work). Target: < 5 ms median.
 */
import { Agent, request } from 'node:http';
import { pathToFileURL } from 'node:url';
import { startSandbox } from '../src/sandbox';
import { formatResults, median, percentile } from './result';
import type { BenchResult } from './result';

const REPORTS = 100_000;
const SAMPLES = 300;
const TARGET_MS = 5;

interface Client {
  get(path: string): Promise<{ status: number; body: string }>;
}

function client(base: string, token: string): Client {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    get(path) {
      return new Promise((resolve, reject) => {
        const req = request(
          `${base}${path}`,
          { agent, headers: { authorization: `Bearer ${token}` } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      });
    },
  };
}

async function timeEach(samples: number, step: (i: number) => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = process.hrtime.bigint();
    await step(i);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return times;
}

export async function benchSandbox(): Promise<BenchResult[]> {
  const sandbox = await startSandbox({ agent: 'manual', rateLimits: 'off' });
  try {
    const world = sandbox.env.world;
    const uid = 'ada';
    const seedStart = performance.now();
    const res = await fetch(`${sandbox.url}/__sandbox/bulk-reports`, {
      method: 'POST',
      body: JSON.stringify({ uid, count: REPORTS, submitted_share: 0.5 }),
    });
    if (!res.ok) throw new Error(`bulk-reports failed: ${res.status}`);
    const seedMs = performance.now() - seedStart;
    const worldView = (await (await fetch(`${sandbox.url}/__sandbox/world`)).json()) as {
      accounts: { uid: string; keys: { scope: string; key: string }[] }[];
    };
    const key = worldView.accounts.find((a) => a.uid === uid)?.keys[0]?.key ?? '';
    const api = client(sandbox.url, key);

    const all = world.indexOf(uid).all();
    const ids = all.map((r) => r.id);
    // The middle of the list: updated_since keeps about half of the reports.
    const since = (all[Math.floor(all.length / 2)] as { updated_at: string }).updated_at;
    const cursors = ids.filter((_, i) => i % 100 === 99);

    const expectOk = (r: { status: number }): void => {
      if (r.status !== 200) throw new Error(`unexpected status ${r.status}`);
    };
    // Warm-up (JIT, connection).
    for (let i = 0; i < 50; i++) expectOk(await api.get('/api/me'));

    const baseline = await timeEach(SAMPLES, async () => expectOk(await api.get('/api/me')));
    const pages = await timeEach(SAMPLES, async (i) => {
      const cursor = i === 0 ? '' : `&cursor=${cursors[(i * 37) % cursors.length]}`;
      expectOk(await api.get(`/api/reports?limit=100${cursor}`));
    });
    const pagesSince = await timeEach(SAMPLES, async (i) => {
      const cursor = i === 0 ? '' : `&cursor=${cursors[(i * 13) % (cursors.length / 2)]}`;
      expectOk(
        await api.get(`/api/reports?limit=100&updated_since=${encodeURIComponent(since)}${cursor}`),
      );
    });
    const single = await timeEach(SAMPLES, async (i) => {
      expectOk(await api.get(`/api/reports/${ids[(i * 7919) % ids.length]}`));
    });

    const base = median(baseline);
    const figure = (name: string, times: number[]): BenchResult[] => {
      const m = median(times);
      return [
        {
          name: `${name} median`,
          value: m,
          unit: 'ms',
          baseline: base,
          ratio: m / base,
          target: `< ${TARGET_MS} ms`,
          ok: m < TARGET_MS,
        },
        { name: `${name} p95`, value: percentile(times, 95), unit: 'ms' },
      ];
    };
    return [
      { name: `bulk-reports seeding of ${REPORTS} reports`, value: seedMs, unit: 'ms' },
      { name: 'baseline GET /api/me median', value: base, unit: 'ms' },
      ...figure('GET /api/reports?limit=100 page', pages),
      ...figure('GET /api/reports?limit=100&updated_since page', pagesSince),
      ...figure('GET /api/reports/{id}', single),
    ];
  } finally {
    await sandbox.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(formatResults('sandbox', await benchSandbox()));
}

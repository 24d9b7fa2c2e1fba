/**
 * Credential scan of a large evidence file (no size limit, bounded memory): the scan
 * the checklist runs on an attached 200 MB text file (`scanFileAt`: overlapping windows), against
 * the baseline of reading the file whole and scanning the string (`scanFile` on its bytes, what
 * the app did before). Each runs in a process of its own, so each peak resident size is its own.
 * Figures: peak memory above the process's size before the scan, and seconds.
 * `BENCH_SCAN_MB=50` makes a quick run. Run alone with `npm run bench -- scan`.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { scanFile, scanFileAt } from '../src/engine/evidence/secret-scan/file-scan';
import { formatResults, type BenchResult } from './result';

const MEGABYTES = Number(process.env.BENCH_SCAN_MB ?? 200);

interface Run {
  seconds: number;
  peakMb: number;
  findings: number;
}

/** A log-like file: blank padding, ordinary lines, and a credential every 8 MB. */
async function makeFile(path: string, megabytes: number): Promise<void> {
  const out = createWriteStream(path);
  const prose =
    'GET /api/v1/items?page=3 HTTP/1.1 200 12ms — the reviewer asked for the request again\n';
  const block = `${' '.repeat(4000)}\n${prose.repeat(8)}`;
  let size = 0;
  let nextSecret = 0;
  while (size < megabytes * 1024 * 1024) {
    let chunk = block;
    if (size >= nextSecret) {
      chunk += `Authorization: Bearer ${'sk_live_' + 'a1B2c3D4e5F6g7H8i9J0k1L2'}${size}\n`;
      nextSecret += 8 * 1024 * 1024;
    }
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    size += Buffer.byteLength(chunk);
  }
  out.end();
  await finished(out);
}

async function child(mode: string, path: string): Promise<void> {
  const before = process.memoryUsage().rss;
  const start = process.hrtime.bigint();
  const scan = mode === 'streamed' ? await scanFileAt(path) : await scanFile(await readFile(path));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const peak = process.resourceUsage().maxRSS * 1024; // KiB → bytes
  const run: Run = { seconds, peakMb: (peak - before) / 1e6, findings: scan.findings.length };
  console.log(JSON.stringify(run));
}

function measure(mode: string, path: string): Run {
  const file = fileURLToPath(import.meta.url);
  const run = spawnSync(process.execPath, ['--import', 'tsx', file, '--child', mode, path], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  const line = run.stdout.trim().split('\n').pop() ?? '';
  if (run.status !== 0 || !line.startsWith('{')) throw new Error(`${mode}: ${run.stderr}`);
  return JSON.parse(line) as Run;
}

export async function benchScan(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bounty-desk-bench-scan-'));
  try {
    const path = join(dir, 'large.log');
    const quarter = join(dir, 'quarter.log');
    await makeFile(path, MEGABYTES);
    await makeFile(quarter, MEGABYTES / 4);
    const whole = measure('whole', path);
    const streamed = measure('streamed', path);
    // Bounded means the same peak at a quarter of the size.
    const small = measure('streamed', quarter);
    if (streamed.findings !== whole.findings)
      throw new Error(`streamed scan found ${streamed.findings}, whole read ${whole.findings}`);
    return [
      {
        name: `peak memory scanning a ${MEGABYTES} MB text file (${streamed.findings} findings)`,
        value: streamed.peakMb,
        unit: 'MB',
        baseline: whole.peakMb,
        ratio: streamed.peakMb / whole.peakMb,
        target: '<= 128 MB',
        ok: streamed.peakMb <= 128,
      },
      {
        name: `the same at ${MEGABYTES / 4} MB (bounded: the peak does not grow with the file)`,
        value: small.peakMb,
        unit: 'MB',
        baseline: streamed.peakMb,
        ratio: small.peakMb / streamed.peakMb,
        target: 'ratio >= 0.75',
        ok: small.peakMb / streamed.peakMb >= 0.75,
      },
      {
        name: `seconds scanning it`,
        value: streamed.seconds,
        unit: 's',
        baseline: whole.seconds,
        ratio: streamed.seconds / whole.seconds,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--child');
  if (at !== -1) await child(process.argv[at + 1] ?? '', process.argv[at + 2] ?? '');
  else console.log(formatResults('scan', await benchScan()));
}

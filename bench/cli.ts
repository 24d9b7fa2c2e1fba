/**
 * `bountydesk`: the time from the command's start to its first answer (`status`, the first byte
 * on stdout), with the app's engine running (the command is its socket's client) and without
 * (the command starts an engine of its own under the data folder's lock). The built command
 * (`out/main/cli.js`, built first when stale) against the sandbox, signed in, the real keychain.
 * Baseline: an empty Node process's start to its exit. Targets: 300 ms and 1 s (issue text).
 * Run alone with `npm run bench -- cli`; `BENCH_CLI_RUNS` sets the runs (default 10).
 */
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startSandbox } from '../src/sandbox';
import type { FromEngine, ToEngine } from '../src/engine/host/protocol';
import { buildApp, ROOT } from '../test/app/build';
import { formatResults, median, percentile, type BenchResult } from './result';

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 10);
const CLI = join(ROOT, 'out', 'main', 'cli.js');

function timed(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin = '',
): Promise<{ first: number; code: number | null }> {
  const start = performance.now();
  const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let first = Number.NaN;
  child.stdout.once('data', () => (first = performance.now() - start));
  child.stderr.resume();
  child.stdin.end(stdin);
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({ first: Number.isNaN(first) ? performance.now() - start : first, code }),
    ),
  );
}

/** The machine's 1-minute load: figures taken on a busy machine are read against it. */
const load = (): string => loadavg()[0]?.toFixed(2) ?? '?';

async function main(): Promise<void> {
  await buildApp();
  const loadBefore = load();
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    agent: 'manual',
    rateLimits: 'off',
  });
  const userData = mkdtempSync(join(tmpdir(), 'bench-cli-'));
  const env = { ...process.env, BOUNTYDESK_USER_DATA: userData, CI: '1' };
  try {
    const world = (await (await fetch(new URL('/__sandbox/world', sandbox.url))).json()) as {
      accounts: { email_verified: boolean; keys: { scope: string; key: string }[] }[];
    };
    const key = world.accounts
      .find((a) => a.email_verified)
      ?.keys.find((k) => k.scope === 'write')?.key;
    if (!key) throw new Error('the sandbox has no write key');
    const login = await timed(
      [CLI, 'auth', 'login', '--server', sandbox.url, '--with-token'],
      env,
      key,
    );
    if (login.code !== 0) throw new Error(`sign-in failed (${login.code})`);

    const baseline: number[] = [];
    for (let i = 0; i < RUNS; i++)
      baseline.push((await timed(['-e', 'process.stdout.write("x")'], env)).first);
    const alone: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await timed([CLI, 'status'], env);
      if (run.code !== 0) throw new Error(`status failed (${run.code})`);
      alone.push(run.first);
    }
    // The app's engine process, as main starts it (same entry, same protocol).
    const engine = fork(join(ROOT, 'out', 'main', 'engine.js'), [], {
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    engine.send({ type: 'init', options: { dataDir: join(userData, 'data') } } satisfies ToEngine);
    await new Promise<void>((resolve) =>
      engine.on('message', (m) => (m as FromEngine).type === 'ready' && resolve()),
    );
    const withApp: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await timed([CLI, 'status'], env);
      if (run.code !== 0) throw new Error(`status failed (${run.code})`);
      withApp.push(run.first);
    }
    engine.send({ type: 'close' } satisfies ToEngine);
    await new Promise((resolve) => engine.on('exit', resolve));

    const base = median(baseline);
    const results: BenchResult[] = [
      { name: 'empty Node process, start to first byte (median)', value: base, unit: 'ms' },
      {
        name: 'bountydesk status, app running, start to first answer (median)',
        value: median(withApp),
        unit: 'ms',
        baseline: base,
        ratio: median(withApp) / base,
        target: '< 300 ms',
        ok: median(withApp) < 300,
      },
      { name: 'bountydesk status, app running (p95)', value: percentile(withApp, 95), unit: 'ms' },
      {
        name: 'bountydesk status, app not running, start to first answer (median)',
        value: median(alone),
        unit: 'ms',
        baseline: base,
        ratio: median(alone) / base,
        target: '< 1000 ms',
        ok: median(alone) < 1000,
      },
      {
        name: 'bountydesk status, app not running (p95)',
        value: percentile(alone, 95),
        unit: 'ms',
      },
    ];
    console.log(formatResults(`cli (${RUNS} runs each)`, results));
    console.log(`- Node ${process.version}; load average ${loadBefore} before, ${load()} after`);
  } finally {
    await sandbox.close();
    rmSync(userData, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();

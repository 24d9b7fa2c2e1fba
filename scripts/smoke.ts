// The packaged app, started with real Electron: `npm run smoke` after `npm run dist` (or
// `electron-builder --dir`). It drives electron-builder's unpacked output as a user would, on
// the OS it runs on (under xvfb-run and scripts/with-keyring.sh on Linux).
//
// Playwright's `_electron.launch` needs Node's `--inspect` in the main process, which the
// shipped binary refuses (the EnableNodeCliInspectArguments fuse is off, and must stay off in
// what ships). So the app is started as it is, with Chromium's `--remote-debugging-port`, and
// Playwright drives its window over the DevTools protocol (`chromium.connectOverCDP`); main is
// judged by what it does: files in the data folder, the OS keychain, the fuse wire, links.
//
// Without a packaged app (no Electron binary on this machine) it says so in one line and counts
// as skipped, never as passed; `--require` (the release workflow) makes that a failure.
//
// `--npm-start` follows the README's Quick start instead, on a fresh `npm ci`: it runs `npm start`
// (its first steps fetch Electron and build SQLite for it, then electron-vite builds and starts
// the app) and checks that the window shows the first-run screen and that the engine answers (the
// sandbox sign-in lists the programs). The release workflow runs it on each OS.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AsyncEntry } from '@napi-rs/keyring';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { chromium, type Browser, type Page } from 'playwright-core';
import { parse } from 'yaml';
import { normalizeServerUrl } from '../src/shared/api/server-url';
import { isApiKeyShape } from '../src/shared/api/api-key';
import { BRIDGE_CALLS } from '../src/shared/bridge/contract';

const root = join(import.meta.dirname, '..');
const required = process.argv.includes('--require');
const npmStart = process.argv.includes('--npm-start');
/** `npm start` builds before its window shows: its SQLite download or build and the bundles. */
const START_TIMEOUT = 900_000;
const TIMEOUT = 60_000;
/** A fuse's byte in the wire: '1' on, '0' off (@electron/fuses's FuseState, not exported). */
const FUSE_ON = '1'.charCodeAt(0);
const FUSE_OFF = '0'.charCodeAt(0);

/** The page's globals, as the page sees them. */
interface PageWindow {
  location: { hash: string };
  close(): void;
  [name: string]: unknown;
}

/** electron-builder's unpacked app for this OS and arch, and its executable. */
function unpackedApp(): { executable: string; bundle: string } {
  // SMOKE_DIST: another output folder (electron-builder's `directories.output`).
  const dist = process.env.SMOKE_DIST ?? join(root, 'dist');
  switch (process.platform) {
    case 'darwin': {
      const bundle = join(dist, process.arch === 'arm64' ? 'mac-arm64' : 'mac', 'Bounty Desk.app');
      return { executable: join(bundle, 'Contents', 'MacOS', 'Bounty Desk'), bundle };
    }
    case 'win32': {
      const dir = join(dist, process.arch === 'arm64' ? 'win-arm64-unpacked' : 'win-unpacked');
      return { executable: join(dir, 'Bounty Desk.exe'), bundle: dir };
    }
    default: {
      const dir = join(dist, 'linux-unpacked');
      return { executable: join(dir, 'bounty-desk'), bundle: dir };
    }
  }
}

interface Check {
  name: string;
  ok: boolean;
  detail?: string;
}
const checks: Check[] = [];

async function check(name: string, run: () => Promise<unknown>): Promise<void> {
  try {
    const detail = await run();
    checks.push({ name, ok: true, ...(typeof detail === 'string' ? { detail } : {}) });
  } catch (error) {
    checks.push({
      name,
      ok: false,
      detail: error instanceof Error ? error.message : String(error),
    });
  }
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

interface Running {
  child: ChildProcess;
  browser: Browser;
  page: Page;
}

/** Starts the packaged app with its own data folder and connects to its window. */
async function start(executable: string, userData: string): Promise<Running> {
  const child = spawn(executable, ['--remote-debugging-port=0', `--user-data-dir=${userData}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return connect(child, TIMEOUT);
}

/**
 * `npm start` as the README says, with Electron's switches passed through electron-vite (after
 * its `--`). Its own process group on macOS and Linux, so the whole tree can be stopped.
 */
async function startWithNpm(userData: string): Promise<Running> {
  const args = ['start', '--', '--', '--remote-debugging-port=0', `--user-data-dir=${userData}`];
  const child = spawn('npm', args, {
    cwd: root,
    stdio: ['ignore', 'inherit', 'pipe'],
    shell: process.platform === 'win32',
    detached: process.platform !== 'win32',
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return connect(child, START_TIMEOUT);
}

/** Stops `npm start` and what it started (npm, electron-vite, Electron and its helpers). */
async function stopTree(app: Running): Promise<void> {
  await app.browser.close().catch(() => undefined);
  const pid = app.child.pid;
  if (pid === undefined || app.child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => app.child.once('exit', () => resolve()));
  if (process.platform === 'win32') spawn('taskkill', ['/pid', String(pid), '/T', '/F']);
  else process.kill(-pid, 'SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
}

async function connect(child: ChildProcess, timeout: number): Promise<Running> {
  const endpoint = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`no DevTools endpoint within ${timeout / 1000} s`)),
      timeout,
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`the app exited (${code}) before its window`)));
  });
  const browser = await chromium.connectOverCDP(endpoint);
  const page = await firstWindow(browser);
  return { child, browser, page };
}

async function firstWindow(browser: Browser): Promise<Page> {
  const deadline = Date.now() + TIMEOUT;
  while (Date.now() < deadline) {
    const page = browser
      .contexts()
      .flatMap((context) => context.pages())
      .find((p) => p.url().startsWith('file:'));
    if (page) return page;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('no app window within 60 s');
}

/** Quits as the user does: SIGTERM is Electron's graceful quit on macOS and Linux; on Windows
 * closing the last window quits. */
async function quit(app: Running): Promise<void> {
  const exited = new Promise<void>((resolve) => app.child.once('exit', () => resolve()));
  if (process.platform === 'win32')
    await app.page.evaluate(() => (globalThis as unknown as PageWindow).close());
  else app.child.kill('SIGTERM');
  await Promise.race([
    exited,
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error('the app did not quit within 60 s')), TIMEOUT),
    ),
  ]);
  await app.browser.close().catch(() => undefined);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** A `bountydesk://` link handed to the app as the OS does. */
async function openLink(executable: string, bundle: string, userData: string, url: string) {
  const [file, args] =
    process.platform === 'darwin'
      ? ['open', ['-a', bundle, url]]
      : [executable, [`--user-data-dir=${userData}`, url]];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(file, args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', () => resolve());
  });
}

/**
 * The installed `bountydesk` command (resources/cli: the app's binary with `--cli`, Electron's own
 * Node, the fuses unchanged) run as a terminal runs it; its exit code, stdout and stderr.
 */
async function runCommand(
  bundle: string,
  userData: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const resources =
    process.platform === 'darwin'
      ? join(bundle, 'Contents', 'Resources')
      : join(bundle, 'resources');
  const command = join(
    resources,
    'cli',
    process.platform === 'win32' ? 'bountydesk.cmd' : 'bountydesk',
  );
  const child = spawn(command, args, {
    env: { ...process.env, BOUNTYDESK_USER_DATA: userData },
    // A .cmd runs through cmd.exe (Node refuses to spawn one directly since CVE-2024-27980).
    shell: process.platform === 'win32',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`bountydesk ${args.join(' ')} did not end within ${TIMEOUT} ms`));
    }, TIMEOUT);
    child.once('error', reject);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  return { code, stdout, stderr };
}

/** The sandbox key the run stored goes again: a run by hand leaves nothing in the keychain. */
async function forgetKey(userData: string): Promise<void> {
  const account = await readFile(join(userData, 'data', 'account.json'), 'utf8').catch(() => null);
  if (account === null) return;
  const { serverUrl } = JSON.parse(account) as { serverUrl: string };
  await keychainEntry(serverUrl)
    .deletePassword()
    .catch(() => undefined);
}

function keychainEntry(serverUrl: string): AsyncEntry {
  return new AsyncEntry('bounty-desk', normalizeServerUrl(serverUrl), {
    linux: { store: 'secret-service' },
  });
}

/** The README's Quick start: the first-run screen, and the engine answering a sign-in. */
async function readmeStart(): Promise<void> {
  const userData = await mkdtemp(join(tmpdir(), 'bounty-desk-start-'));
  let app: Running | null = null;
  try {
    await check('`npm start` opens the app window', async () => {
      app = await startWithNpm(userData);
    });
    const running = app as Running | null;
    if (running) {
      await check('first start shows the welcome screen', async () => {
        await running.page.getByRole('heading', { name: 'Welcome', exact: true }).waitFor();
      });
      await check('the engine answers: the sandbox sign-in lists its programs', async () => {
        await running.page.getByRole('button', { name: 'Use the sandbox', exact: true }).click();
        const programs = running.page.getByRole('list', { name: 'Programs', exact: true });
        await programs.getByRole('link').first().waitFor({ timeout: TIMEOUT });
        return `${await programs.getByRole('link').count()} programs listed`;
      });
      await stopTree(running);
    }
  } finally {
    await forgetKey(userData);
    await rm(userData, { recursive: true, force: true }).catch(() => undefined);
  }
  report();
}

function report(): void {
  for (const c of checks) {
    console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}${c.detail ? ` (${c.detail})` : ''}`);
  }
  const failed = checks.filter((c) => !c.ok).length;
  console.log(`${checks.length - failed} passed, ${failed} failed`);
  if (failed > 0) process.exitCode = 1;
}

async function main(): Promise<void> {
  if (npmStart) return readmeStart();
  const { executable, bundle } = unpackedApp();
  if (!existsSync(executable)) {
    const line = `smoke: no packaged app at ${executable} (npm run dist builds it where the Electron binary can be downloaded)`;
    if (required) {
      console.log(`${line}: failed, the release workflow requires it`);
      console.log('0 passed, 1 failed');
      process.exitCode = 1;
    } else {
      console.log(`${line}: skipped, not passed`);
      console.log('0 passed, 0 failed, 1 skipped');
    }
    return;
  }

  const userData = await mkdtemp(join(tmpdir(), 'bounty-desk-smoke-'));
  const title = `Smoke ${new Date().toISOString()}`;
  let reportId = '';
  try {
    let app = await start(executable, userData);

    await check('first start shows the welcome screen', async () => {
      await app.page.getByRole('heading', { name: 'Welcome', exact: true }).waitFor();
    });
    await check('the page has no Node and only the preload’s contract', async () => {
      const seen = await app.page.evaluate(() => {
        const w = globalThis as unknown as PageWindow;
        return {
          require: typeof w.require,
          process: typeof w.process,
          module: typeof w.module,
          Buffer: typeof w.Buffer,
          bridge: Object.keys((w.bountyDesk ?? {}) as object).sort(),
          files: Object.keys((w.bountyDeskFiles ?? {}) as object),
        };
      });
      const expected = [...BRIDGE_CALLS, 'on'].sort();
      assert(
        seen.require === 'undefined' &&
          seen.process === 'undefined' &&
          seen.module === 'undefined' &&
          seen.Buffer === 'undefined',
        `Node in the page: ${JSON.stringify(seen)}`,
      );
      assert(JSON.stringify(seen.bridge) === JSON.stringify(expected), 'bountyDesk differs');
      assert(JSON.stringify(seen.files) === '["tokenForFile"]', 'bountyDeskFiles differs');
    });
    await check('signs in to the embedded sandbox', async () => {
      await app.page.getByRole('button', { name: 'Use the sandbox', exact: true }).click();
      await app.page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    });
    await check('creates a draft and types; it is saved before the quit', async () => {
      const programs = app.page.getByRole('list', { name: 'Programs', exact: true });
      await programs.getByRole('link').first().click();
      await app.page.getByRole('button', { name: 'New report', exact: true }).click();
      await app.page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
      await app.page.getByText(/^Saved (on this computer|and sent)/).waitFor();
      reportId = decodeURIComponent(/#\/reports\/([^/?]+)/.exec(app.page.url())?.[1] ?? '');
      assert(reportId, `no report in the address ${app.page.url()}`);
    });
    await quit(app);

    app = await start(executable, userData);
    await check('after a restart the draft is there', async () => {
      await app.page.evaluate(
        () => ((globalThis as unknown as PageWindow).location.hash = '#/reports'),
      );
      await app.page
        .getByRole('list', { name: 'Reports', exact: true })
        .getByRole('link', { name: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) })
        .waitFor();
    });
    await check('the API key is in the OS keychain and in no file of the data folder', async () => {
      const account = JSON.parse(
        await readFile(join(userData, 'data', 'account.json'), 'utf8'),
      ) as { serverUrl: string };
      const key = await keychainEntry(account.serverUrl).getPassword();
      assert(key !== null && isApiKeyShape(key), 'no key in the keychain');
      const files = await filesUnder(userData);
      for (const file of files) {
        const bytes = await readFile(file).catch(() => Buffer.alloc(0));
        assert(!bytes.includes(key), `the key is in ${file}`);
      }
      return `${files.length} files looked at`;
    });
    await check(`a bountydesk://report/<id> link opens that report`, async () => {
      await app.page.evaluate(
        () => ((globalThis as unknown as PageWindow).location.hash = '#/programs'),
      );
      await openLink(executable, bundle, userData, `bountydesk://report/${reportId}`);
      await app.page.waitForURL((url) => url.hash === `#/reports/${encodeURIComponent(reportId)}`, {
        timeout: TIMEOUT,
      });
    });
    await check(
      'the installed command answers through the running app (status --json)',
      async () => {
        const out = await runCommand(bundle, userData, ['status', '--json']);
        assert(out.code === 0, `exit ${String(out.code)}: ${out.stderr.slice(0, 400)}`);
        const status = JSON.parse(out.stdout) as { account?: { serverUrl?: string } };
        assert(status.account?.serverUrl, `no account in ${out.stdout.slice(0, 400)}`);
      },
    );
    await quit(app);

    await check(
      'the installed command starts its own engine when the app is not running',
      async () => {
        const version = await runCommand(bundle, userData, ['--version']);
        const expected = (
          JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
            version: string;
          }
        ).version;
        assert(
          version.code === 0 && version.stdout.includes(expected),
          `--version: ${version.stdout}`,
        );
        const out = await runCommand(bundle, userData, ['report', 'list', '--json']);
        assert(out.code === 0, `exit ${String(out.code)}: ${out.stderr.slice(0, 400)}`);
        assert(out.stdout.includes(reportId), `the draft ${reportId} is not listed`);
      },
    );

    await check('the fuses read back as electron-builder.yml sets them', async () => {
      const config = parse(await readFile(join(root, 'electron-builder.yml'), 'utf8')) as {
        electronFuses: Record<string, boolean>;
      };
      const wire = (await getCurrentFuseWire(executable)) as unknown as Record<number, number>;
      const wrong: string[] = [];
      for (const [name, on] of Object.entries(config.electronFuses)) {
        const option = FuseV1Options[
          `${name[0]?.toUpperCase() ?? ''}${name.slice(1)}` as keyof typeof FuseV1Options
        ] as FuseV1Options | undefined;
        if (option === undefined) wrong.push(`${name}: unknown fuse`);
        else if (wire[option] !== (on ? FUSE_ON : FUSE_OFF)) wrong.push(name);
      }
      assert(wrong.length === 0, `fuses not as configured: ${wrong.join(', ')}`);
    });
  } finally {
    await forgetKey(userData);
    await rm(userData, { recursive: true, force: true }).catch(() => undefined);
  }

  for (const c of checks) {
    console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}${c.detail ? ` (${c.detail})` : ''}`);
  }
  // A notification is drawn by the OS: clicking one needs a person (or the OS's own automation).
  console.log('not checked here: a click on an OS notification routes to its report (by hand)');
  const failed = checks.filter((c) => !c.ok).length;
  console.log(`${checks.length - failed} passed, ${failed} failed`);
  if (failed > 0) process.exitCode = 1;
}

await main();

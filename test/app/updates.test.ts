import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KeychainSecretStore } from '../../src/engine/secrets';
import { COMPLETE_DESCRIPTION } from '../support/fixtures';
import { until } from '../renderer/support/ui';
import { buildApp } from './build';
import { AppHost } from './host';

/**
 * electron-updater in main as built, against a feed made here: a local HTTP server with a
 * generated `latest-linux.yml` and a new "AppImage" (a shell script that records how it was run),
 * the installed app's `app-update.yml` in its resources folder, and `APPIMAGE` naming the current
 * one, as an installed AppImage has. Only `electron` is imitated (its `net.request` over Node's
 * http); the check, the download with its sha512, the quit handler and the install are
 * electron-updater's own. Linux only: on macOS and Windows the install is Squirrel's and NSIS's.
 */
describe.runIf(process.platform === 'linux')('updates through the built app', () => {
  const CURRENT = '0.1.0';
  const NEXT = '0.2.0';
  const NEW_NAME = `bounty-desk-${NEXT}-linux-x86_64.AppImage`;
  let dir: string;
  let server: Server | undefined;
  let feedUrl = '';
  let host: AppHost | undefined;
  let requests: string[] = [];

  beforeAll(async () => {
    await buildApp();
  }, 240_000);

  afterEach(async () => {
    if (host) {
      const account = await host.engine.getAccount().catch(() => null);
      await host.close();
      // A test that quit the app itself left the key in the keychain.
      if (account) await new KeychainSecretStore().delete(account.serverUrl).catch(() => undefined);
    }
    host = undefined;
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
    requests = [];
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** The new version: a script the installer runs; it writes down its environment. */
  function newAppImage(marker: string): Buffer {
    const script = [
      '#!/bin/sh',
      `echo "silent=$APPIMAGE_SILENT_INSTALL exit=$APPIMAGE_EXIT_AFTER_INSTALL" >> '${marker}'`,
      // Padding, so the download takes a few chunks and reports its progress.
      ...Array.from({ length: 2_000 }, (_, i) => `# padding line ${i} ${'x'.repeat(40)}`),
      '',
    ].join('\n');
    return Buffer.from(script);
  }

  /** Serves `latest-linux.yml` for `version` and the file, slowly (five chunks 500 ms apart). */
  async function feed(version: string, file: Buffer): Promise<void> {
    const sha512 = createHash('sha512').update(file).digest('base64');
    const yml = [
      `version: ${version}`,
      'files:',
      `  - url: ${NEW_NAME}`,
      `    sha512: ${sha512}`,
      `    size: ${file.length}`,
      `path: ${NEW_NAME}`,
      `sha512: ${sha512}`,
      `releaseDate: '2025-06-01T00:00:00.000Z'`,
      '',
    ].join('\n');
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      requests.push(`${req.method} ${path}`);
      if (path === '/latest-linux.yml') {
        res.writeHead(200, { 'content-type': 'text/yaml' }).end(yml);
      } else if (path === `/${NEW_NAME}` && !req.headers.range) {
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-length': file.length,
        });
        const step = Math.ceil(file.length / 5);
        let sent = 0;
        const next = (): void => {
          res.write(file.subarray(sent, sent + step));
          sent += step;
          if (sent >= file.length) res.end();
          else setTimeout(next, 500);
        };
        next();
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    feedUrl = `http://127.0.0.1:${address.port}/`;
  }

  /** An installed app (packaged, with its resources folder and an AppImage) on the local feed. */
  async function installed(options: { isPackaged?: boolean; version?: string } = {}) {
    dir = await mkdtemp(join(tmpdir(), 'bounty-desk-update-'));
    const resources = join(dir, 'resources');
    await mkdir(resources);
    await writeFile(
      join(resources, 'app-update.yml'),
      `provider: generic\nurl: ${feedUrl}\nupdaterCacheDirName: bounty-desk-updater\n`,
    );
    const appImage = join(dir, 'Bounty-Desk.AppImage');
    await writeFile(appImage, '#!/bin/sh\necho old version\n', { mode: 0o755 });
    host = await AppHost.open({
      isPackaged: options.isPackaged ?? true,
      launch: {
        version: options.version ?? CURRENT,
        resourcesPath: resources,
        env: { APPIMAGE: appImage, XDG_CACHE_HOME: join(dir, 'cache') },
      },
    });
    host.start();
    return { host, appImage };
  }

  const progressValues = (h: AppHost): number[] =>
    h
      .start()
      .traces.filter((t) => t.t === 'window-state' && t['call'] === 'setProgressBar')
      .map((t) => t['value'] as number);

  const mainLog = (h: AppHost): Promise<string> =>
    readFile(join(h.dataDir, 'userData', 'logs', 'main.log'), 'utf8').catch(() => '');

  async function downloaded(h: AppHost): Promise<void> {
    await until(
      'the update to download',
      () => h.start().notifications.some((n) => n.options.title === 'Update ready'),
      20_000,
    );
  }

  async function unsentDraft(h: AppHost): Promise<number> {
    await h.signIn();
    // The programs are in the offline copy first: a draft offline is for a program it knows.
    await h.engine.syncNow();
    await h.sandbox.faults({ rate: 1, reset_connection: true, seed: 1 });
    const draft = await h.engine.createDraft(h.programs.open.id);
    await h.engine.saveDraft(
      draft.reportId,
      {
        title: 'Unsent',
        asset: 'https://a.example',
        description: COMPLETE_DESCRIPTION,
        cvss_vector: '',
      },
      draft.content,
    );
    const { unsent } = await h.engine.getStatus();
    expect(unsent).toBeGreaterThan(0);
    return unsent;
  }

  it('checks at start, downloads in the background with progress, installs on quit when the outbox is empty', async () => {
    const marker = join(tmpdir(), `bounty-desk-installed-${process.pid}-${Date.now()}.txt`);
    const file = newAppImage(marker);
    await feed(NEXT, file);
    const { host, appImage } = await installed();
    await host.signIn();
    await host.settled();
    await downloaded(host);
    expect(requests).toContain('GET /latest-linux.yml');
    expect(requests).toContain(`GET /${NEW_NAME}`);
    const progress = progressValues(host);
    expect(progress.some((p) => p > 0 && p < 1)).toBe(true);
    expect(progress.at(-1)).toBe(-1);
    expect(host.start().notifications.at(-1)?.options).toEqual({
      title: 'Update ready',
      body: `Bounty Desk ${NEXT} installs when you quit.`,
    });
    // Nothing installed before the quit.
    expect(await readFile(appImage, 'utf8')).toContain('old version');

    await host.app?.quit();
    expect(host.start().dialogs.filter((d) => d.kind === 'message')).toEqual([]);
    expect(await readFile(appImage)).toEqual(file);
    expect(await readFile(marker, 'utf8')).toBe('silent=true exit=true\n');
    await rm(marker, { force: true });
    const log = await mainLog(host);
    expect(log).toContain(`(updates) downloaded version=${NEXT}`);
    expect(log).toContain('(updates) install-on-quit');
  });

  it('with changes waiting in the outbox, asks on quit; "Install later" leaves the app as it is', async () => {
    const marker = join(tmpdir(), `bounty-desk-installed-${process.pid}-${Date.now()}.txt`);
    await feed(NEXT, newAppImage(marker));
    const { host, appImage } = await installed();
    await downloaded(host);
    const unsent = await unsentDraft(host);
    // No answer queued: the message box is cancelled, which is "Install later".
    await host.app?.quit();
    const [asked] = host.start().dialogs.filter((d) => d.kind === 'message');
    expect(asked?.options).toMatchObject({
      message: `Install version ${NEXT} now?`,
      buttons: ['Install now', 'Install later'],
      cancelId: 1,
    });
    expect(String(asked?.options['detail'])).toMatch(
      new RegExp(`^${unsent} changes? (is|are) not sent yet\\.`),
    );
    expect(await readFile(appImage, 'utf8')).toContain('old version');
    await expect(readFile(marker, 'utf8')).rejects.toThrow();
    expect(await mainLog(host)).toContain('(updates) install-deferred');
    await host.sandbox.clearFaults();
  });

  it('with changes waiting, "Install now" installs on quit', async () => {
    const marker = join(tmpdir(), `bounty-desk-installed-${process.pid}-${Date.now()}.txt`);
    const file = newAppImage(marker);
    await feed(NEXT, file);
    const { host, appImage } = await installed();
    await downloaded(host);
    await unsentDraft(host);
    host.start().answers.message.push({ response: 0 });
    await host.app?.quit();
    expect(await readFile(appImage)).toEqual(file);
    expect(await readFile(marker, 'utf8')).toBe('silent=true exit=true\n');
    await rm(marker, { force: true });
    await host.sandbox.clearFaults();
  });

  it('"Restart now" from the ready notification installs at once and starts the new version', async () => {
    const marker = join(tmpdir(), `bounty-desk-installed-${process.pid}-${Date.now()}.txt`);
    const file = newAppImage(marker);
    await feed(NEXT, file);
    const { host, appImage } = await installed();
    await downloaded(host);
    host.start().answers.message.push({ response: 0 }); // "Restart now"
    await host.clickNotification();
    await host.app?.exited;
    const [offer] = host.start().dialogs.filter((d) => d.kind === 'message');
    expect(offer?.options).toMatchObject({
      message: `Bounty Desk ${NEXT} is ready to install.`,
      buttons: ['Restart now', 'Later'],
    });
    expect(await readFile(appImage)).toEqual(file);
    // Started again after the install (detached, without the exit-after-install flag).
    await until('the new version to run', async () =>
      (await readFile(marker, 'utf8').catch(() => '')).includes('silent=true exit='),
    );
    expect(await readFile(marker, 'utf8')).toBe('silent=true exit=\n');
    await rm(marker, { force: true });
    expect(await mainLog(host)).toContain('(updates) restart-to-install');
  });

  it('"Check for updates…" says when the app is up to date', async () => {
    await feed(CURRENT, Buffer.from('unused'));
    const { host } = await installed();
    await until('the check at start', () => requests.includes('GET /latest-linux.yml'));
    await host.clickMenu('help', 'Check for updates…');
    await until('the answer', () => host.start().dialogs.some((d) => d.kind === 'message'));
    expect(host.start().dialogs.find((d) => d.kind === 'message')?.options).toMatchObject({
      message: `Bounty Desk ${CURRENT} is the latest version.`,
    });
    expect(requests.filter((r) => r.startsWith('GET /latest-linux.yml')).length).toBe(2);
    expect(requests).not.toContain(`GET /${NEW_NAME}`);
  });

  it('never on the development build: no request to the feed, and the menu says updates are off', async () => {
    await feed(NEXT, Buffer.from('unused'));
    const { host } = await installed({ isPackaged: false });
    await host.engine.getStatus(); // main is up, its start-up check (if any) would have run
    await host.clickMenu('help', 'Check for updates…');
    await until('the answer', () => host.start().dialogs.some((d) => d.kind === 'message'));
    expect(host.start().dialogs.find((d) => d.kind === 'message')?.options).toMatchObject({
      message: 'Updates are off in this build.',
    });
    expect(requests).toEqual([]);
    expect(await mainLog(host)).toContain('(updates) off reason="development build"');
  });
});

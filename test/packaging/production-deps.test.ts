import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountView, DraftView, ReportDetailView } from '../../src/shared/bridge/views';
import { COMPLETE_DESCRIPTION } from '../support/fixtures';
import { until } from '../renderer/support/ui';
import { buildApp, ROOT } from '../app/build';
import { AppHost } from '../app/host';

const run = promisify(execFile);

/**
 * What electron-builder packs is what must load: the built `out/`, `package.json` and the
 * production dependencies only (no devDependencies, none of the project's sources), in a folder
 * of their own, started as a packaged app. A module that only the development tree provides (or
 * that only Vite could resolve, like `ajv/dist/2020` without its `.js`) fails here at once.
 */
describe('the app with production dependencies only', () => {
  let appDir: string;
  let host: AppHost;

  beforeAll(async () => {
    await buildApp();
    appDir = await mkdtemp(join(tmpdir(), 'bounty-desk-packed-'));
    await cp(join(ROOT, 'out'), join(appDir, 'out'), { recursive: true });
    await cp(join(ROOT, 'package.json'), join(appDir, 'package.json'));
    const { stdout } = await run('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
    });
    const packages = stdout
      .split('\n')
      .filter((line) => line.startsWith(join(ROOT, 'node_modules')));
    for (const source of packages) {
      // Each package without its nested node_modules: nested production packages are listed
      // (and copied) on their own, nested development ones are not.
      await cp(source, join(appDir, relative(ROOT, source)), {
        recursive: true,
        filter: (path) => !relative(source, path).split('/').includes('node_modules'),
      });
    }
    host = await AppHost.open({ appDir, isPackaged: true });
  }, 180_000);

  afterAll(async () => {
    await host?.close();
    if (appDir) await rm(appDir, { recursive: true, force: true });
  });

  it('holds no development dependency that main needs', async () => {
    const { stdout } = await run('ls', [join(appDir, 'node_modules')]);
    expect(stdout).not.toMatch(/^(electron|vite|vitest|typescript|playwright-core)$/m);
    expect(stdout).toMatch(/^better-sqlite3$/m);
  });

  it('signs in to the embedded sandbox, syncs, writes, attaches, submits and replies', async () => {
    const e = host.engine;
    const account: AccountView = await e.connectSandbox();
    expect(account).toMatchObject({ sandbox: true, me: { uid: 'dana' } });
    expect(host.start().running('sandbox.js')).toHaveLength(1);
    expect(host.start().running('engine.js')).toHaveLength(1);
    await e.syncNow();
    const listed = await e.listReports({});
    expect(listed.total).toBeGreaterThan(0);
    const draft: DraftView = await e.createDraft('sandbox-playground');
    const typed = {
      title: 'Stored XSS in the profile name',
      asset: 'https://playground.sandbox.test/profile',
      description: COMPLETE_DESCRIPTION,
      cvss_vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N',
    };
    const saved = await e.saveDraft(draft.reportId, typed, draft.content);
    expect(saved.content).toEqual(typed);
    const evidence = await host.file('profile-poc.txt', 'name=<img src=x onerror=alert(1)>\n');
    const attached = await e.attachFiles(draft.reportId, [{ file: await host.tokenFor(evidence) }]);
    expect(attached.map((f) => f.name)).toEqual(['profile-poc.txt']);
    await host.settled();
    await e.submit(draft.reportId);
    await until('the report submitted', async () => {
      const view: ReportDetailView | null = await e.getReport(draft.reportId);
      return view?.report?.status === 'triaging';
    });
    await e.postMessage(draft.reportId, { body: 'A second payload works too.', files: [] });
    await host.settled();
    await e.syncNow();
    const view = await e.getReport(draft.reportId);
    expect(view?.messages.some((m) => m.author === 'researcher')).toBe(true);
    expect(host.start().logs.join('\n')).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find module/);
  });
});

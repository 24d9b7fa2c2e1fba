import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { COMPLETE_DESCRIPTION } from '../support/fixtures';
import { useAppPerTest } from '../renderer/support/app';
import { until } from '../renderer/support/ui';
import type { AppHost } from './host';
import { type HostOptions } from './host';

/**
 * `bountydesk://` links through main as built: the OS hands them over as `second-instance` argv
 * (Windows, Linux), as `open-url` (macOS) or in the first launch's command line; the stand-in
 * emits those events exactly as Electron would. The window ends up at the report or the program,
 * and any other link is refused and logged.
 */
describe('deep links through the built app', () => {
  const apps = useAppPerTest('deep-links');

  const TITLE = 'IDOR on the invoice download';

  /** A signed-in app with one draft, its window loaded. */
  /** A signed-in app, its window loaded; `before` instead prepares an earlier run of the app. */
  const open = (options: HostOptions = {}, before?: (h: AppHost) => Promise<void>) =>
    apps.open({ ...options, ...(before ? { signedIn: false, beforeWindow: before } : {}) });

  async function draftWithTitle(h: AppHost): Promise<string> {
    const draft = await h.engine.createDraft(h.programs.open.id);
    const content = {
      title: TITLE,
      asset: 'https://billing.example.com/invoices',
      description: COMPLETE_DESCRIPTION,
      cvss_vector: '',
    };
    await h.engine.saveDraft(draft.reportId, content, draft.content);
    return draft.reportId;
  }

  const hash = async (p: Page): Promise<string> => new URL(p.url()).hash;
  const mainLog = async (h: AppHost): Promise<string> =>
    readFile(join(h.dataDir, 'userData', 'logs', 'main.log'), 'utf8').catch(() => '');
  const emit = (h: AppHost, name: string, args: unknown[]): Promise<unknown> =>
    h.start().ask({ t: 'app-event', name, args });

  it('second-instance (Windows, Linux): a report link opens that report in the running window', async () => {
    const { host, page } = await open();
    const reportId = await draftWithTitle(host);
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    await emit(host, 'second-instance', [
      ['/opt/Bounty Desk/bounty-desk', `bountydesk://report/${reportId.toUpperCase()}`],
      '/home/researcher',
    ]);
    await until('the report route', async () => (await hash(page)) === `#/reports/${reportId}`);
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Title', exact: true }).inputValue())
      .toBe(TITLE);
    expect(host.events['open-report']).toEqual([{ reportId }]);
    expect(await mainLog(host)).toMatch(
      new RegExp(`\\(links\\) opened source=second-instance kind=report id=${reportId}`),
    );
  });

  it('open-url (macOS): a program link opens that program', async () => {
    const { host, page } = await open();
    const programId = host.programs.open.id;
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    await emit(host, 'open-url', [`bountydesk://program/${programId}`]);
    await until('the program route', async () => (await hash(page)) === `#/programs/${programId}`);
    await page.getByRole('button', { name: 'New report', exact: true }).waitFor();
    expect(host.events['open-program']).toEqual([{ programId }]);
  });

  it('refuses any other link, logs why without echoing it, and leaves the window where it was', async () => {
    const { host, page } = await open();
    await page.getByRole('heading', { name: 'Programs', exact: true }).waitFor();
    const before = await hash(page);
    const hostile = [
      'bountydesk://report/../../etc/passwd',
      'bountydesk://settings/sign-out',
      'bountydesk://program/acme?next=https://evil.example',
      'bountydesk://report/3f1c2a9e-8d4b-4c1e-9f2a-7b6c5d4e3f21\n[info] (app) forged',
    ];
    for (const link of hostile) await emit(host, 'open-url', [link]);
    await emit(host, 'second-instance', [['/opt/bounty-desk', 'bountydesk://report/nope'], '/']);
    await until('five refusals in the log', async () => {
      return ((await mainLog(host)).match(/\(links\) refused/g) ?? []).length === 5;
    });
    const log = await mainLog(host);
    expect(log.match(/\(links\) refused source=open-url reason=unknown-shape$/gm)).toHaveLength(4);
    expect(log).toMatch(/\(links\) refused source=second-instance reason=bad-report-id$/m);
    for (const text of ['passwd', 'evil.example', 'sign-out', 'forged']) {
      expect(log).not.toContain(text);
    }
    expect(host.events['open-report'] ?? []).toEqual([]);
    expect(host.events['open-program'] ?? []).toEqual([]);
    expect(await hash(page)).toBe(before);
  });

  it('a link in the first launch command line opens the window at that place; an installed app claims the scheme', async () => {
    let reportId = '';
    const { host, page } = await open({ isPackaged: true }, async (h) => {
      await h.mirrorBeforeStart();
      // The draft is made in an earlier run of the app; this run is started by the link.
      reportId = await draftWithTitle(h);
      await h.settled();
      await h.app?.quit();
      h.app = null;
      h.options.launch = { args: [`bountydesk://report/${reportId}`] };
    });
    const [win] = [...host.start().windows.values()];
    expect(win?.url).toBe(`${host.rendererUrl}#/reports/${reportId}`);
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Title', exact: true }).inputValue())
      .toBe(TITLE);
    expect(host.start().traces).toContainEqual({
      t: 'app',
      call: 'setAsDefaultProtocolClient',
      scheme: 'bountydesk',
    });
  });

  it('a notification click takes the same route', async () => {
    const { host, page } = await open();
    const reportId = await draftWithTitle(host);
    await host.engine.submit(reportId);
    await host.settled();
    await host.sandbox.askForInformation(reportId, 'Which browser?');
    await host.engine.syncNow();
    await until('the notification', () => host.start().notifications.length > 0);
    await host.clickNotification();
    await until('the report route', async () => (await hash(page)) === `#/reports/${reportId}`);
    expect(host.events['open-report']).toEqual([{ reportId }]);
  });
});

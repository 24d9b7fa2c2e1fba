import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { DraftContent } from '../../src/shared/bridge/views';
import { TEMPLATE_HEADINGS } from '../../src/shared/api';
import { openApp, startSuite, type Suite } from '../renderer/support/app';
import { until } from '../renderer/support/ui';
import { AppHost, type AppPage } from './host';

/**
 * The diagnostics log over a whole journey through main as built: sign-in with the key, a draft
 * whose title is typed in the window, evidence, a submission, needs_info, a reply with a file, the
 * decision and the payout, a failed call, then "Export diagnostics" from the Help menu. Every line
 * of every log file, and the exported bundle, is then searched for the key and for everything the
 * researcher wrote. The log must still say what happened, by id and count.
 */
describe('diagnostics: the log and the exported bundle of a full journey', () => {
  let suite: Suite;
  let host: AppHost;
  let app: AppPage;
  let page: Page;
  let reportId = '';
  let logDir = '';

  // Everything the researcher writes, unique enough that a match can only be a leak.
  const TITLE = 'Zebrafish cache poisoning in the avatar proxy';
  const ASSET = 'https://avatars.zebrafish-example.com/proxy';
  const SECTIONS = TEMPLATE_HEADINGS.map(
    (heading, i) => `## ${heading}\n\nQuokka step ${i}: the marmalade header reaches the cache.\n`,
  );
  const DESCRIPTION = SECTIONS.join('\n');
  const REPLY = 'Narwhal reply: reproduced with curl 8.5 and a cold cache.';
  const EVIDENCE_NAME = 'walrus-capture.txt';
  const EVIDENCE = 'GET /proxy?u=//walrus.example HTTP/1.1\nX-Marmot: 1\n';
  const typed = [
    TITLE,
    ASSET,
    REPLY,
    EVIDENCE_NAME,
    EVIDENCE.split('\n')[0] ?? '',
    'Quokka',
    'marmalade',
  ];

  beforeAll(async () => {
    suite = await startSuite();
    host = await AppHost.open();
    logDir = join(host.dataDir, 'userData', 'logs');
    // A sign-in with a key of the right shape that the server refuses: a failed call, logged.
    await host.start();
    await host.engine
      .connect({ serverUrl: host.sandbox.url, apiKey: `sbx_${'q'.repeat(43)}` })
      .catch(() => undefined);
    await host.signIn();
    app = await openApp(suite, host);
    page = app.page;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await host?.close();
    await suite?.close();
  });

  it('goes through the journey: typed draft, evidence, submission, triage, reply, payout, export', async () => {
    const draft = await host.engine.createDraft(host.programs.open.id);
    reportId = draft.reportId;
    await host.engine.openExternal('https://example.com').catch(() => undefined);
    await page.goto(`${host.rendererUrl}#/reports/${reportId}`);
    const title = page.getByRole('textbox', { name: 'Title', exact: true });
    await title.fill(TITLE);
    await until('the typed title to be saved', async () => {
      const detail = await host.engine.getReport(reportId);
      return detail?.draft?.content.title === TITLE;
    });
    const detail = await host.engine.getReport(reportId);
    const current = detail?.draft?.content as DraftContent;
    await host.engine.saveDraft(
      reportId,
      { ...current, asset: ASSET, description: DESCRIPTION },
      current,
    );
    const evidence = await host.file(EVIDENCE_NAME, EVIDENCE);
    await host.engine.attachFiles(reportId, [{ file: await host.tokenFor(evidence) }]);
    await host.submitSettled(reportId);
    await host.sandbox.askForInformation(reportId, 'Which cache?');
    await host.engine.syncNow();
    await until('needs-info', () => (host.events['needs-info'] ?? []).length > 0);
    const file = await host.file('cache-headers.txt', 'Age: 12\n');
    await host.engine.postMessage(reportId, { body: REPLY, files: [await host.tokenFor(file)] });
    await host.settled();
    await host.sandbox.acceptAndPay(reportId, 'Fixed.', 90_000);
    await host.engine.syncNow();
    await until('the payout', () =>
      (host.events['payout-changed'] ?? []).some((p) => p.status === 'received'),
    );

    // A line that should never exist, planted to prove the export's own check: the engine
    // process removes the signed-in key exactly, whatever file it turns up in.
    const planted = join(logDir, 'planted.log');
    await writeFile(planted, `a library echoed Authorization: ${host.key}\n`);
    const bundlePath = join(host.dataDir, 'diagnostics.txt');
    host.saveInDialog(bundlePath);
    await host.clickMenu('help', 'Export diagnostics…');
    await until('the bundle', async () => (await stat(bundlePath).catch(() => null)) !== null);
    await until('the "saved" message', () =>
      host.start().dialogs.some((d) => d.options['message'] === 'Diagnostics saved.'),
    );
    const bundle = await readFile(bundlePath, 'utf8');
    expect(bundle.split('\n')[0]).toBe('Bounty Desk diagnostics');
    await rm(planted);
    expect(bundle.split('\n')[1]).toMatch(/^Credential check: removed \d+ \(.*own-api-key ×1/);
    expect(bundle).toContain('a library echoed Authorization: [REDACTED:own-api-key]');
    for (const section of ['Versions', 'Settings', 'Status', 'Outbox (counts only)', 'Updates']) {
      expect(bundle).toContain(`===== ${section} =====`);
    }
    expect(bundle).toContain('===== Log main.log =====');
    expect(bundle).toContain('===== Log engine.log =====');
    expect(bundle).toContain(`"server": "${new URL(host.sandbox.url).origin}"`);
    expect(bundle).toContain('Bounty Desk: 0.1.0');
    expect(bundle).toContain(`(triage) needs-info report=${reportId}`);
    if (process.platform !== 'win32') expect((await stat(bundlePath)).mode & 0o777).toBe(0o600);
    expect(bundle).not.toContain(host.key);
    for (const text of typed) expect(bundle).not.toContain(text);
  });

  it('no log line holds the key or anything the researcher wrote; each says what happened', async () => {
    await host.app?.quit();
    const names = (await readdir(logDir)).filter((name) => name.endsWith('.log')).sort();
    expect(names).toEqual(['engine.log', 'main.log']);
    const lines = (
      await Promise.all(
        names.map(async (name) => (await readFile(join(logDir, name), 'utf8')).split('\n')),
      )
    ).flat();
    if (process.env['SHOW_LOGS']) console.log(lines.join('\n'));
    expect(lines.length).toBeGreaterThan(20);
    const leaks = lines.filter(
      (line) => line.includes(host.key) || typed.some((text) => line.includes(text)),
    );
    expect(leaks).toEqual([]);
    const log = lines.join('\n');
    for (const expected of [
      '(app) started',
      '(engine) started',
      '(engine) call-failed call=connect error=SignInError',
      '(sync) started',
      '(sync) finished ok=true',
      `(outbox) queued entry=`,
      `kind=submit report=${reportId}`,
      `kind=post_message report=${reportId}`,
      `(outbox) upload-sent report=${reportId}`,
      `(outbox) sent`,
      `(triage) needs-info report=${reportId}`,
      `(triage) decision report=${reportId} outcome=accepted`,
      `(triage) payout report=${reportId} status=received cents=90000`,
      '(diagnostics) exported',
      '(engine) closing',
      '(app) quit',
    ]) {
      expect(log).toContain(expected);
    }
  });
});

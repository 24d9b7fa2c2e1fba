import { describe, expect, it } from 'vitest';
import { COMPLETE_DESCRIPTION as COMPLETE } from '../support/fixtures';
import { vendorShapes } from '../support/fake-secrets';
import { useAppPerTest } from './support/app';
import { goTo } from './support/ui';
import { savedDraft } from '../support/drafts';

/**
 * Through the app as built: a large evidence file is scanned in a streaming pass, and
 * the credentials check shows how far the scan is (events from the engine) until its findings.
 */
describe('renderer: the scan of a large file shows its progress', () => {
  const apps = useAppPerTest('scan-progress');

  it('shows a bar for a 9 MB log while it is scanned, then the credential at its end', async () => {
    const { host, page } = await apps.open();
    const secret = vendorShapes().find((s) => s.kind === 'slack-app-token');
    if (!secret) throw new Error('no sample');
    const d = await savedDraft(host, {
      title: 'Token in a debug log',
      asset: 'https://app.example.com',
      description: COMPLETE,
    });
    // Ordinary log lines (what makes a scan take its time) and blank padding, under the
    // service's 10 MiB upload limit and over the 1 MiB from which the streaming pass reads.
    const line = 'GET /api/v1/items?page=3 HTTP/1.1 200 12ms — retried after the timeout\n';
    const log = `${`${line.repeat(40)}${' '.repeat(1000)}\n`.repeat(2400)}${secret.line}\n`;
    expect(log.length).toBeLessThan(10 * 1024 * 1024);
    await goTo(page, `#/reports/${d.reportId}`);
    await host.engine.attachFiles(d.reportId, [
      { file: await host.tokenFor(await host.file('debug.log', log)) },
    ]);
    const region = page.getByRole('region', { name: 'Credentials check', exact: true });
    const bar = region.getByRole('progressbar', { name: 'Scanning debug.log' });
    await bar.waitFor({ timeout: 60_000 });
    const seen = Number(await bar.getAttribute('value'));
    console.log(`progress shown: ${seen} of ${log.length} bytes`);
    expect(seen).toBeLessThan(log.length);
    await region
      .getByRole('listitem', { name: /in debug\.log, line \d+$/ })
      .first()
      .waitFor({ timeout: 120_000 });
    await bar.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret.secret);
  }, 240_000);
});

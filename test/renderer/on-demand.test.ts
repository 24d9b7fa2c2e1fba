import { describe, expect, it } from 'vitest';
import { useAppPerTest, withBulkReports } from './support/app';
import { expectText, goTo, isEnabled, until } from './support/ui';

/**
 * Issue 21, signing in to a large account, through the app as built with the sandbox's rate
 * limits on: the rows show at once with where the mirror is, "Sync now" works during it, and a
 * report the mirror has not reached opens on demand ("Downloading this report…", never "Report
 * not found"), ahead of the thousands of requests the mirror still has to make.
 */
const REPORTS = 400;

describe('renderer: a large account, mid-mirror', () => {
  const apps = useAppPerTest('on-demand');

  it(
    'opens a report not downloaded yet on demand, ahead of the mirror',
    { timeout: 120_000 },
    async () => {
      const { host, page } = await apps.open({
        rateLimits: 'spec',
        signedIn: false,
        hash: '#/reports',
        beforeWindow: withBulkReports(REPORTS, (h) => h.signIn()),
      });
      const bar = page.locator('.status-bar');
      // Every row is listed first; the status bar says where the download is, and the last sync.
      await expectText(bar, new RegExp(`of ${REPORTS} reports downloaded — (about|under)`), 30_000);
      await expectText(bar, /Last sync: (?!never)/, 30_000);
      await expectText(
        page.getByRole('status', { name: 'Download progress', exact: true }),
        /reports downloaded/,
      );
      await until('Sync now enabled during the mirror', () =>
        isEnabled(page.getByRole('button', { name: 'Sync now', exact: true })),
      );

      // The oldest decided report: the mirror reads it last, its thread after everything else.
      const list = await host.engine.listReports({ limit: 1000 });
      expect(list.total).toBe(REPORTS);
      const target = list.items.find((r) => r.title.startsWith('Bulk report 2:'));
      if (!target) throw new Error('no Bulk report 2');
      const before = await host.engine.getStatus();
      expect(before.mirror?.downloaded ?? REPORTS).toBeLessThan(REPORTS / 2);

      // Every answer takes a while, so the state in between can be seen.
      await host.sandbox.faults({ rate: 1, latency_ms: 400 });
      const started = Date.now();
      await goTo(page, `#/reports/${target.id}`);
      await expectText(
        page.getByRole('status').filter({ hasText: 'Downloading' }),
        /Downloading this report…/,
      );
      await expectText(
        page.getByRole('heading', { level: 1, name: /^Bulk report 2:/ }),
        /Bulk report 2:/,
        20_000,
      );
      await expectText(page.locator('main'), /Update on bulk report 2: rejected\./, 20_000);
      const seconds = (Date.now() - started) / 1000;
      await host.sandbox.clearFaults();
      expect(await page.getByText('Report not found').count()).toBe(0);
      // Two requests at 0.4 s each, ahead of the mirror's queue (which has hundreds to go).
      expect(seconds).toBeLessThan(5);
      const after = await host.engine.getStatus();
      expect(after.mirror).not.toBeNull();
      expect(after.mirror?.downloaded ?? REPORTS).toBeLessThan(REPORTS);
    },
  );
});

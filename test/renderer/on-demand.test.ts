import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { AppHost } from '../app/host';
import { useAppPerTest, withBulkReports } from './support/app';
import { expectText, goTo, isEnabled, until } from './support/ui';

/**
 * Signing in to a large account, through the app as built with the sandbox's rate
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

  /** A report the server holds with an `updated_at` days before the app's cursor: its id. */
  async function backdated(host: AppHost): Promise<string> {
    const listed = (): Promise<string[]> => host.sandbox.reportIds(host.key);
    const before = new Set(await listed());
    await host.sandbox.control('POST', '/__sandbox/bulk-reports', {
      uid: host.account.uid,
      count: 1,
      submitted_share: 1,
      ends_at: new Date(Date.now() - 3 * 24 * 3600_000).toISOString(),
    });
    const fresh = (await listed()).filter((id) => !before.has(id));
    if (fresh.length !== 1) throw new Error(`expected one new report, got ${fresh.length}`);
    return fresh[0] as string;
  }

  /** Six hours pass for the app's mirror: its last reconcile is moved back by that much. */
  function sixHoursLater(host: AppHost): void {
    const accounts = join(host.dataDir, 'userData', 'data', 'accounts');
    const [dir] = readdirSync(accounts);
    if (!dir) throw new Error('no account folder');
    const db = new Database(join(accounts, dir, 'mirror.sqlite'));
    try {
      db.pragma('busy_timeout = 5000');
      const at = JSON.stringify(new Date(Date.now() - 6 * 3600_000 - 60_000).toISOString());
      const moved = db
        .prepare("UPDATE sync_state SET value_json = ? WHERE name = 'last_sync.reconcile'")
        .run(at);
      expect(moved.changes).toBe(1);
    } finally {
      db.close();
    }
  }

  it(
    'a backdated report arrives after "Resync everything" and after the periodic reconcile',
    { timeout: 120_000 },
    async () => {
      const { host, page } = await apps.open({ hash: '#/reports' });
      const syncNow = page.getByRole('button', { name: 'Sync now', exact: true });
      const row = (id: string) => page.locator(`.report-row a[href="#/reports/${id}"]`);
      const listed = async (id: string) =>
        (await host.engine.listReports({ limit: 1000 })).items.some((r) => r.id === id);
      const synced = async () => {
        const since = (await host.engine.getStatus()).lastSyncAt;
        await syncNow.click();
        await until('the sync the click started', async () => {
          const status = await host.engine.getStatus();
          return !status.syncing && status.lastSyncAt !== since;
        });
      };

      // Reports of today set the app's cursor; the first pass (with the first reconcile) ends.
      await host.sandbox.control('POST', '/__sandbox/bulk-reports', {
        uid: host.account.uid,
        count: 3,
        submitted_share: 1,
      });
      await synced();
      const first = await backdated(host);
      // The incremental poll cannot see it: its updated_at is before the app's cursor.
      await synced();
      expect(await listed(first)).toBe(false);
      await host.clickMenu('File', 'Resync everything');
      await expectText(row(first), /Bulk report 1:/, 30_000);

      const second = await backdated(host);
      await synced();
      expect(await listed(second)).toBe(false);
      // The reconcile's period passes: the next pass lists everything without updated_since.
      sixHoursLater(host);
      await syncNow.click();
      await expectText(row(second), /Bulk report 1:/, 30_000);
    },
  );
});

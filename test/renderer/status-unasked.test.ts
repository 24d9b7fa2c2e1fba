/**
 * The status bar right after a restart, when the last sync is less than a poll old: nothing is
 * asked of the server, so it must not say "Connecting" (the walk saw it for 30 s and more while
 * no request was under way). "Sync now" asks, and the state the answer shows is "Online".
 */
import { describe, expect, it } from 'vitest';
import { useAppPerTest } from './support/app';
import { openSeededList } from './support/seeded-list';
import { until } from './support/ui';

describe('renderer: the connection state before anything was asked of the server', () => {
  const apps = useAppPerTest('status-unasked');

  it('says nothing of a connection until one is tried; "Sync now" shows Online', async () => {
    const { host, page } = await openSeededList(apps, 40);
    const connection = page.getByRole('status', { name: 'Connection', exact: true });
    await connection.getByText(/^Last sync: /u).waitFor();
    await until('the engine idle, nothing asked', async () => {
      const status = await host.engine.getStatus();
      return !status.syncing && status.connectivity === 'unknown';
    });
    // Long enough for a status the engine pushed to have been drawn.
    await page.waitForTimeout(500);
    expect(await connection.innerText()).not.toMatch(/Connecting/u);
    expect((await host.engine.getStatus()).connectivity).toBe('unknown');

    await page.getByRole('button', { name: 'Sync now', exact: true }).click();
    await connection.getByText('Online', { exact: true }).waitFor();
  }, 120_000);
});

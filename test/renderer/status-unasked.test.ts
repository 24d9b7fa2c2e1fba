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

  it('claims no last sync or counts before the engine says them: never "Last sync: never" after a sync', async () => {
    const { host, page } = await openSeededList(apps, 40);
    expect((await host.engine.getStatus()).lastSyncAt).not.toBeNull();
    // Every text the bar held from the page's first script on (a mutation observer sees each
    // state put in the page, painted or not: the one before the status came lasted 2 frames).
    await page.addInitScript(() => {
      interface El {
        textContent: string | null;
      }
      const g = globalThis as unknown as {
        document: { querySelector(s: string): El | null };
        MutationObserver: new (cb: () => void) => { observe(t: unknown, o: object): void };
        __barTexts: string[];
      };
      g.__barTexts = [];
      new g.MutationObserver(() => {
        const text = g.document.querySelector(
          '[role="status"][aria-label="Connection"]',
        )?.textContent;
        if (text != null && text !== g.__barTexts.at(-1)) g.__barTexts.push(text);
      }).observe(g.document, {
        childList: true,
        subtree: true,
        characterData: true,
      });
    });
    await page.reload();
    const connection = page.getByRole('status', { name: 'Connection', exact: true });
    await connection.getByText(/^Last sync: /u).waitFor();
    const texts = await page.evaluate(
      () => (globalThis as unknown as { __barTexts: string[] }).__barTexts,
    );
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.some((t) => t.startsWith('Last sync: '))).toBe(true);
    expect(texts.filter((t) => /Last sync: never/u.test(t))).toEqual([]);
  }, 120_000);
});

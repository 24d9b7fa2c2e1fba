import { chromium, type Browser, type Page } from 'playwright-core';
import { buildApp } from '../../app/build';
import type { AppHost, AppPage, PageOptions } from '../../app/host';

export type { AppPage, CspViolation, Guard } from '../../app/host';
export { NAME_SHIM, VIEWPORT } from '../../app/host';

/** Debian's Chromium, never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
  // Electron lets a file: page load its own module scripts; Chromium needs to be told.
  '--allow-file-access-from-files',
];

/** One browser for a test file, and the app built as it ships (`out/`). */
export interface Suite {
  browser: Browser;
  close(): Promise<void>;
}

export async function startSuite(extraFlags: readonly string[] = []): Promise<Suite> {
  await buildApp();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_FLAGS, ...extraFlags],
    headless: true,
    timeout: 30_000,
  });
  return {
    browser,
    async close() {
      await browser.close().catch(() => undefined);
    },
  };
}

/** Opens the app's window of `host` as a page of the suite's browser. */
export function openApp(suite: Suite, host: AppHost, options: PageOptions = {}): Promise<AppPage> {
  return host.openPage(suite.browser, options);
}

/** Keeps a picture of the page when a test fails (under test-results/, ignored by git). */
export async function keepFailureShot(
  page: Page | undefined,
  file: string,
  test: { name: string; result?: { state?: string } },
): Promise<void> {
  if (!page || page.isClosed() || test.result?.state !== 'fail') return;
  const name = test.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
  await page.screenshot({ path: `test-results/${file}-${name}.png` }).catch(() => undefined);
}

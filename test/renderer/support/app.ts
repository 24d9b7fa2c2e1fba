import { afterAll, afterEach, beforeAll } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildApp } from '../../app/build';
import { RENDERER_JS_FLAGS } from '../../../src/main/renderer-heap';
import { AppHost, type AppPage, type HostOptions, type PageOptions } from '../../app/host';

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
  // The window's V8 flags, as main appends them (src/main/renderer-heap.ts).
  `--js-flags=${RENDERER_JS_FLAGS}`,
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

export type OpenOptions = HostOptions &
  PageOptions & {
    signedIn?: boolean;
    /** Runs after the host (and sign-in) and before the window opens: an earlier run of the app. */
    beforeWindow?: (host: AppHost) => Promise<void>;
  };

/** A running app of one test: its sandbox and main process, and its window as a page. */
export interface OpenApp {
  host: AppHost;
  app: AppPage;
  page: Page;
}

export interface AppPerTest {
  /**
   * A fresh sandbox, main process and window for this test (signed in unless told otherwise),
   * closed after the test; a failing test leaves a picture in test-results/.
   */
  open(options?: OpenOptions): Promise<OpenApp>;
  /** The app this test opened, if any. */
  readonly current: OpenApp | undefined;
}

/**
 * What most browser test files share: one browser for the file, a new app per test. `file`
 * names the failure pictures.
 */
export function useAppPerTest(file: string): AppPerTest {
  let suite: Suite | undefined;
  let current: OpenApp | undefined;
  let host: AppHost | undefined;
  beforeAll(async () => {
    suite = await startSuite();
  }, 240_000);
  afterEach(async (ctx) => {
    await keepFailureShot(current?.page, file, ctx.task);
    await current?.app.close();
    await host?.close();
    current = undefined;
    host = undefined;
  });
  afterAll(async () => {
    await suite?.close();
  });
  return {
    async open(options = {}) {
      if (!suite) throw new Error('the browser is not started yet: open the app inside a test');
      const { beforeWindow, hash, ...rest } = options;
      current = await openHostAndWindow(suite, rest, async (opened) => {
        host = opened;
        await beforeWindow?.(opened);
        return hash;
      });
      return current;
    },
    get current() {
      return current;
    },
  };
}

/**
 * A sandbox and main process (signed in unless told otherwise), then its window: `beforeWindow`
 * runs in between (an earlier run of the app) and may name the hash the window opens at.
 */
async function openHostAndWindow(
  suite: Suite,
  options: HostOptions & Omit<PageOptions, 'hash'> & { signedIn?: boolean },
  beforeWindow: (host: AppHost) => Promise<string | undefined>,
): Promise<OpenApp> {
  const { colorScheme, viewport, signedIn, ...hostOptions } = options;
  const host = await AppHost.open(hostOptions);
  if (signedIn !== false) await host.signIn();
  const hash = await beforeWindow(host);
  const app = await openApp(suite, host, {
    ...(colorScheme ? { colorScheme } : {}),
    ...(hash ? { hash } : {}),
    ...(viewport ? { viewport } : {}),
  });
  return { host, app, page: app.page };
}

export type AppPerFileOptions = HostOptions &
  Omit<PageOptions, 'hash'> & {
    signedIn?: boolean;
    /** Runs after the host (and sign-in) and before the window opens; may name the hash to open. */
    beforeWindow?: (host: AppHost) => Promise<string | undefined>;
  };

/**
 * One app for the whole file (the tests continue one another's state): a browser, a sandbox and
 * main process, signed in unless told otherwise, and its window. The object returned holds them
 * once the file's first test runs. A failing test leaves a picture in test-results/; all is closed
 * after.
 */
export function useAppPerFile(file: string, options: AppPerFileOptions): OpenApp {
  let suite: Suite | undefined;
  let host: AppHost | undefined;
  let current: OpenApp | undefined;
  beforeAll(async () => {
    suite = await startSuite();
    const { beforeWindow, ...rest } = options;
    current = await openHostAndWindow(suite, rest, (made) => {
      host = made;
      return beforeWindow?.(made) ?? Promise.resolve(undefined);
    });
  }, 240_000);
  afterEach(async (ctx) => {
    await keepFailureShot(current?.page, file, ctx.task);
  });
  afterAll(async () => {
    await current?.app.close();
    await host?.close();
    await suite?.close();
  });
  const opened = (): OpenApp => {
    if (!current) throw new Error('the app is not open yet: use it inside a test');
    return current;
  };
  return {
    get host() {
      return opened().host;
    },
    get app() {
      return opened().app;
    },
    get page() {
      return opened().page;
    },
  };
}

/** A `beforeWindow` step: `count` reports on the account (half of them submitted), then `then`. */
export function withBulkReports(
  count: number,
  then: (host: AppHost) => Promise<unknown>,
): (host: AppHost) => Promise<void> {
  return async (host) => {
    await host.sandbox.control('POST', '/__sandbox/bulk-reports', {
      uid: host.account.uid,
      count,
      submitted_share: 0.5,
    });
    await then(host);
  };
}

import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildRenderer } from './build';
import type { BridgeHost } from './host';
import { serveDir, type StaticServer } from './static-server';

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
];
export const VIEWPORT = { width: 1280, height: 800 };

/** Under tsx (esbuild keepNames) serialized functions call a `__name` helper: pages get one. */
export const NAME_SHIM = 'globalThis.__name ??= (fn) => fn;';

/** One browser and one static server for a test file. */
export interface Suite {
  browser: Browser;
  server: StaticServer;
  close(): Promise<void>;
}

export async function startSuite(extraFlags: readonly string[] = []): Promise<Suite> {
  const dir = await buildRenderer();
  const server = await serveDir(dir);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_FLAGS, ...extraFlags],
    headless: true,
    timeout: 30_000,
  });
  return {
    browser,
    server,
    async close() {
      await browser.close().catch(() => undefined);
      await server.close();
    },
  };
}

/** A CSP violation reported by the page (a blocked script, frame, image or connection). */
export interface CspViolation {
  directive: string;
  blocked: string;
  sample: string;
}

/** Everything the page did that the hostile-content tests forbid, recorded from outside. */
export interface Guard {
  requests: string[];
  dialogs: string[];
  navigations: string[];
  popups: string[];
  pageErrors: string[];
  consoleErrors: string[];
  /** Loads of a document in the main frame (1 = only the initial load). */
  loads: number;
  cspViolations(): Promise<CspViolation[]>;
}

export interface AppPage {
  context: BrowserContext;
  page: Page;
  guard: Guard;
  close(): Promise<void>;
}

declare const window: { __cspViolations?: CspViolation[] };

/** Opens the app in a fresh browser context with the test bridge of `host`. */
export async function openApp(
  suite: Suite,
  host: BridgeHost,
  options: { colorScheme?: 'light' | 'dark'; path?: string } = {},
): Promise<AppPage> {
  const context = await suite.browser.newContext({
    viewport: VIEWPORT,
    colorScheme: options.colorScheme ?? 'light',
    serviceWorkers: 'block',
    acceptDownloads: false,
  });
  context.setDefaultTimeout(10_000);
  context.setDefaultNavigationTimeout(15_000);
  const page = await context.newPage();
  const guard: Guard = {
    requests: [],
    dialogs: [],
    navigations: [],
    popups: [],
    pageErrors: [],
    consoleErrors: [],
    loads: 0,
    cspViolations: async () =>
      page.isClosed() ? [] : page.evaluate(() => [...(window.__cspViolations ?? [])]),
  };
  context.on('request', (request) => guard.requests.push(request.url()));
  page.on('dialog', (dialog) => {
    guard.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
  page.on('framenavigated', (frame) => guard.navigations.push(frame.url()));
  page.on('load', () => guard.loads++);
  context.on('page', (popup) => {
    if (popup !== page) guard.popups.push(popup.url());
  });
  page.on('pageerror', (error) => guard.pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') guard.consoleErrors.push(message.text());
  });
  await page.addInitScript(NAME_SHIM);
  await page.addInitScript(() => {
    const w = globalThis as unknown as {
      __cspViolations: CspViolation[];
      addEventListener(
        type: string,
        listener: (e: { violatedDirective: string; blockedURI: string; sample: string }) => void,
        capture: boolean,
      ): void;
    };
    w.__cspViolations = [];
    w.addEventListener(
      'securitypolicyviolation',
      (e) =>
        w.__cspViolations.push({
          directive: e.violatedDirective,
          blocked: e.blockedURI,
          sample: e.sample,
        }),
      true,
    );
  });
  await host.attach(page);
  await page.goto(`${suite.server.origin}${options.path ?? '/'}`, { waitUntil: 'load' });
  return {
    context,
    page,
    guard,
    close: async () => {
      await context.close().catch(() => undefined);
    },
  };
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

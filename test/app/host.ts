import { readFile, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  callChannel,
  DROP_CHANNEL,
  type BridgeCallName,
  type BridgeCalls,
  type BridgeEventName,
  type BridgeEvents,
  type BridgeResult,
} from '../../src/shared/bridge/contract';
import { openWithResearcher, type Researcher } from '../support/sandbox-client';
import type { DraftContent } from '../../src/shared/bridge/views';
import { Engine } from '../../src/engine/commands';
import { KeychainSecretStore } from '../../src/engine/secrets';
import { AppProcess, type LaunchOptions, type WindowInfo } from './app-process';
import { ROOT } from './build';
import { encodeIpc } from './ipc-wire';
import { preloadScript, type StandInPageGlobals } from './page-preload';
import { waitFor } from '../support/wait';

export interface HostOptions {
  /** The researcher's sandbox account (default: verified, payments ready). */
  account?: { email_verified?: boolean; payments_status?: string };
  rateLimits?: 'spec' | 'off';
  /** The folder with the app's `out/` and `node_modules` (default: this project). */
  appDir?: string;
  /** Electron's `app.isPackaged` (default false, as `npm start`). */
  isPackaged?: boolean;
  /** What else the main process is started with (see LaunchOptions). */
  launch?: Pick<LaunchOptions, 'env' | 'version' | 'resourcesPath' | 'args' | 'systemLanguages'>;
}

/** An item of a menu main popped up (a context menu), as the user sees it. */
export type PoppedMenuItem =
  { type: 'separator' } | { label: string; role?: string; enabled: boolean };

export interface RecordedCall {
  name: string;
  /** Arguments as the page sent them; an API key is replaced by "<key>". */
  args: unknown[];
  /** When the call reached the harness, and when its answer left for the page (ms, Node's clock). */
  sentAt?: number;
  answeredAt?: number;
}

/** Everything a window's page did that the hostile-content tests forbid, recorded from outside. */
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

/** A CSP violation reported by the page (a blocked script, frame, image or connection). */
export interface CspViolation {
  directive: string;
  blocked: string;
  sample: string;
}

export interface AppPage {
  context: BrowserContext;
  page: Page;
  guard: Guard;
  close(): Promise<void>;
}

export interface PageOptions {
  colorScheme?: 'light' | 'dark';
  /** A route of the app (`#/reports`), added to the page main loads. */
  hash?: string;
  viewport?: { width: number; height: number };
}

export const VIEWPORT = { width: 1280, height: 800 };
/** Under tsx (esbuild keepNames) serialized functions call a `__name` helper: pages get one. */
export const NAME_SHIM = 'globalThis.__name ??= (fn) => fn;';

declare const window: { __cspViolations?: CspViolation[] };

type EngineProxy = {
  [K in BridgeCallName]: (...args: Parameters<BridgeCalls[K]>) => ReturnType<BridgeCalls[K]>;
};

/**
 * The app as it ships, for one test: a sandbox (manual agent) with a fresh researcher account,
 * and the built main bundle (`out/main/index.js`) in its own Node process with only `electron`
 * replaced by the stand-in. Its window is a Chromium page that loads the built renderer
 * (`out/renderer/index.html`) with the built preload, so every call goes page → preload → main's
 * real IPC handlers → the engine process → the sandbox.
 */
export class AppHost {
  readonly calls: RecordedCall[] = [];
  readonly events: { [E in BridgeEventName]?: BridgeEvents[E][] } = {};
  /**
   * The bridge's calls as the window would make them, for test setup (they reach main's handlers
   * with the window's frame; they are not recorded in `calls`).
   */
  readonly engine: EngineProxy;
  app: AppProcess | null = null;
  #signIn = false;
  #page: Page | null = null;
  #pages = new Map<number, Page>();
  #sends = Promise.resolve();

  private constructor(
    readonly sandbox: Researcher['sandbox'],
    readonly account: Researcher['account'],
    readonly programs: Researcher['programs'],
    readonly dataDir: string,
    readonly key: string,
    readonly options: HostOptions,
  ) {
    this.engine = new Proxy({} as EngineProxy, {
      get: (_target, name) =>
        typeof name === 'string' ? (...args: unknown[]) => this.call(name, args) : undefined,
    });
  }

  static async open(options: HostOptions = {}): Promise<AppHost> {
    const { sandbox, account, programs, key } = await openWithResearcher(options);
    const dataDir = await mkdtemp(join(tmpdir(), 'bounty-desk-app-'));
    return new AppHost(sandbox, account, programs, dataDir, key, options);
  }

  get appDir(): string {
    return this.options.appDir ?? ROOT;
  }

  get rendererUrl(): string {
    return AppProcess.rendererUrl(this.appDir);
  }

  /** The folder the page loads from, as URL (`file:///…/out/renderer`). */
  get rendererBase(): string {
    return this.rendererUrl.replace(/\/index\.html$/, '');
  }

  /** What main handed to the OS browser (`shell.openExternal`): recorded, never opened. */
  get external(): string[] {
    return (this.app?.shell ?? []).filter((s) => s.call === 'openExternal').map((s) => s.target);
  }

  /** The website pages the page asked main to open. */
  get websites(): string[] {
    return this.calls.filter((c) => c.name === 'openWebsite').map((c) => String(c.args[0]));
  }

  /** The main process, started on first use (its window waits for a page). */
  start(): AppProcess {
    if (this.app) return this.app;
    const app = AppProcess.launch({
      userData: join(this.dataDir, 'userData'),
      downloads: join(this.dataDir, 'Downloads'),
      ...(this.options.appDir ? { appDir: this.options.appDir } : {}),
      ...(this.options.isPackaged !== undefined ? { isPackaged: this.options.isPackaged } : {}),
      ...this.options.launch,
    });
    this.app = app;
    return app;
  }

  /**
   * Signs in to this test's sandbox with the account's write key through main's own `connect`
   * (the way a researcher connects to a real server), before the page loads when it has not yet.
   */
  async signIn(): Promise<void> {
    this.#signIn = true;
    this.start();
    await this.engine.connect({ serverUrl: this.sandbox.url, apiKey: this.key });
  }

  /**
   * Signs in and mirrors the account with an engine in this process, tuned for a quick setup (no
   * request budget, more requests at once), before the app starts: the app then finds the account
   * and its mirror in its data folder, as after an earlier session. For benchmarks of big mirrors.
   */
  async mirrorBeforeStart(): Promise<void> {
    if (this.app) throw new Error('the app is already running');
    const engine = new Engine({
      dataDir: join(this.dataDir, 'userData', 'data'),
      secrets: new KeychainSecretStore(),
      autoStart: false,
      budgetLimit: 1_000_000_000,
      syncConcurrency: 8,
    });
    try {
      await engine.connect({ serverUrl: this.sandbox.url, apiKey: this.key });
      await engine.session.syncNow(['programs', 'account', 'reports']);
      // A large account's reports download in the background mirror after the pass.
      await engine.session.mirrorIdle();
      await engine.session.store.searchIndex.idle();
    } finally {
      await engine.close();
    }
    this.#signIn = true;
  }

  /** A bridge call invoked into main's handler with the window's frame, as the preload would. */
  async call(name: string, args: unknown[]): Promise<unknown> {
    const app = this.start();
    const result = (await app.invoke(1, callChannel(name as BridgeCallName), args, {
      url: this.rendererUrl,
      parent: false,
    })) as BridgeResult;
    if (result.ok) return result.value;
    throw Object.assign(new Error(result.error.message), result.error);
  }

  /**
   * Waits until the outbox has nothing it could send now: every entry sent, or parked waiting
   * for the user (as `drain` of the engine does, seen through the bridge's status).
   */
  async settled(timeoutMs = 30_000): Promise<void> {
    await waitFor(
      'the outbox to settle',
      () => this.engine.getStatus(),
      // Settled: nothing is on its way; what waits for the researcher stays.
      (status) => status.unsent <= status.held,
      { timeoutMs, everyMs: 50 },
    );
  }

  /** Opens the app's window as a page of `browser`; resolves once the app has rendered. */
  async openPage(browser: Browser, options: PageOptions = {}): Promise<AppPage> {
    const app = this.start();
    const context = await browser.newContext({
      viewport: options.viewport ?? VIEWPORT,
      colorScheme: options.colorScheme ?? 'light',
      serviceWorkers: 'block',
      acceptDownloads: false,
    });
    context.setDefaultTimeout(10_000);
    context.setDefaultNavigationTimeout(15_000);
    const page = await context.newPage();
    const guard = this.#guard(context, page);
    const shown = [...app.windows.values()].find((w) => w.url && !w.closed);
    if (shown?.url) {
      // The window loaded before (an earlier page of this test): show it again in this page.
      await this.#wire(shown, page, context);
      await page.goto(`${shown.url}${options.hash ?? ''}`, { waitUntil: 'load' });
      this.#page = page;
      return { context, page, guard, close: async () => context.close().catch(() => undefined) };
    }
    const loaded = new Promise<void>((resolve) => {
      app.attach({
        load: async (win, url) => {
          await this.#wire(win, page, context);
          await page.goto(`${url}${options.hash ?? ''}`, { waitUntil: 'load' });
          resolve();
        },
        send: (window, channel, args) => this.#deliver(window, channel, args),
        reload: (window) =>
          void this.#pages
            .get(window)
            ?.reload()
            .catch(() => undefined),
        printToPDF: async (window, options) => {
          const target = this.#pages.get(window);
          if (!target) throw new Error(`no page for window ${window}`);
          return target.pdf({
            format: typeof options['pageSize'] === 'string' ? options['pageSize'] : 'Letter',
            printBackground: options['printBackground'] === true,
            outline: options['generateDocumentOutline'] === true,
          });
        },
      });
    });
    await Promise.race([
      loaded,
      app.exited.then((code) => {
        throw new Error(
          `the app exited (${code}) before its window loaded:\n${app.logs.join('\n')}`,
        );
      }),
    ]);
    this.#page = page;
    return {
      context,
      page,
      guard,
      close: async () => {
        await context.close().catch(() => undefined);
      },
    };
  }

  /** Creates a file on disk (evidence to attach or drop) and returns its path. */
  async file(name: string, bytes: string | Uint8Array): Promise<string> {
    const dir = join(this.dataDir, 'files');
    await mkdir(dir, { recursive: true });
    const path = join(dir, name);
    await writeFile(path, bytes);
    return path;
  }

  /** The user picks these files in main's next open dialog. */
  pickInDialog(paths: string[]): void {
    this.start().answers.open.push({ canceled: false, filePaths: paths });
  }

  /** A new draft of `programId` holding `content`, saved through the bridge: its id. */
  async writeDraft(programId: string, content: DraftContent): Promise<string> {
    const { reportId } = await this.engine.createDraft(programId);
    await this.engine.saveDraft(reportId, content);
    return reportId;
  }

  /**
   * Submits once the outbox sent what came before, and waits until the submission is sent. A
   * submission held back (a credential found in the text, waiting for the user's choice) throws:
   * the outbox settles with it unsent, and a test would go on with a draft it took as submitted.
   */
  async submitSettled(reportId: string): Promise<void> {
    await this.settled();
    await this.engine.submit(reportId);
    await this.settled();
    const detail = await this.engine.getReport(reportId);
    const status = detail?.report?.status ?? 'none';
    if (status === 'draft' || status === 'none') {
      const outbox = (detail?.outbox ?? []).map((entry) => `${entry.kind}: ${entry.state}`);
      throw new Error(
        `report ${reportId} was not submitted (status ${status}; outbox: ${outbox.join(', ') || 'empty'})`,
      );
    }
  }

  /** A file handed to the app as the user would (picked in main's open dialog): its token. */
  async tokenFor(path: string): Promise<string> {
    this.pickInDialog([path]);
    const [picked] = await this.engine.pickFiles();
    if (!picked) throw new Error(`main did not take ${path}`);
    return picked.token;
  }

  /** The user chooses this path in main's next save dialog. */
  saveInDialog(path: string): void {
    this.start().answers.save.push({ canceled: false, filePath: path });
  }

  /**
   * Drops files from disk on a target the way a user drags them from the file manager: the
   * browser's own drag events (trusted, through the DevTools protocol), with File objects Chromium
   * reads from disk, at a point inside the target (default: near its bottom-left, past the last
   * line of text). `bytes`, when given, is written to the file first. The type is the one Chromium
   * gives the file's name, as in a real drop (`type` is only said for the reader). The stand-in's
   * `webUtils.getPathForFile` knows each dropped File's path, as Electron does.
   */
  async dropFiles(
    target: Locator,
    files: { path: string; bytes?: string; type?: string }[],
    at?: { x: number; y: number },
  ): Promise<void> {
    for (const f of files) if (f.bytes !== undefined) await writeFile(f.path, f.bytes);
    const onDisk = await Promise.all(
      files.map(async (f) => {
        const info = await stat(f.path);
        return {
          name: basename(f.path),
          size: info.size,
          lastModified: Math.trunc(info.mtimeMs),
          path: f.path,
        };
      }),
    );
    const page = target.page();
    await page.evaluate((list) => {
      (globalThis as unknown as StandInPageGlobals).__standInDropped.push(...list);
    }, onDisk);
    await target.scrollIntoViewIfNeeded();
    const box = await target.boundingBox();
    if (!box) throw new Error('drop target is not visible');
    const point = at ?? { x: 24, y: box.height - 12 };
    const cdp = await page.context().newCDPSession(page);
    try {
      const data = { items: [], files: files.map((f) => f.path), dragOperationsMask: 1 };
      for (const type of ['dragEnter', 'dragOver', 'drop']) {
        await cdp.send('Input.dispatchDragEvent', {
          type: type as 'dragEnter' | 'dragOver' | 'drop',
          x: box.x + point.x,
          y: box.y + point.y,
          data,
        });
      }
    } finally {
      await cdp.detach();
    }
  }

  /** Clicks OS notification `index` (default: the last shown). */
  async clickNotification(index = -1): Promise<void> {
    const app = this.start();
    const shown = app.notifications.at(index);
    if (!shown) throw new Error('no notification was shown');
    await app.ask({ t: 'click-notification', id: shown.id });
  }

  /** Clicks an item of the application menu, e.g. `['File', 'Sync now']`. */
  async clickMenu(...path: string[]): Promise<void> {
    const answer = await this.start().ask<{ found: boolean }>({ t: 'click-menu', path });
    if (!answer.found) throw new Error(`no menu item ${path.join(' › ')}`);
  }

  /**
   * A right-click on `target` as Electron reports it to main: Chromium's own right-click first (it
   * places the caret or keeps the selection), then main's `context-menu` listener gets the params
   * read from the page where Chromium would read them (editable, selection, link, what can be cut,
   * copied, pasted). The spell checker's verdict on a word is Chromium's, which a page cannot see:
   * a test passes it (`spelling`). The answer: the menu main popped up (null when none).
   */
  async rightClick(
    target: Locator,
    spelling: { misspelledWord: string; dictionarySuggestions: string[] } | null = null,
  ): Promise<PoppedMenuItem[] | null> {
    await target.click({ button: 'right' });
    // The page's DOM, typed here by the little it is asked (this project's Node types have no DOM).
    interface Node {
      closest(selector: string): Node | null;
      readOnly?: boolean;
      disabled?: boolean;
      value?: string;
      selectionStart?: number | null;
      selectionEnd?: number | null;
      href?: string;
      ownerDocument: { getSelection(): { toString(): string } | null };
    }
    const params = await target.evaluate((element) => {
      const el = element as unknown as Node;
      const field = el.closest('textarea, input');
      const editable =
        (field !== null && field.readOnly !== true && field.disabled !== true) ||
        el.closest('[contenteditable="true"]') !== null;
      const selectionText = field
        ? (field.value ?? '').slice(field.selectionStart ?? 0, field.selectionEnd ?? 0)
        : (el.ownerDocument.getSelection()?.toString() ?? '');
      return {
        isEditable: editable,
        selectionText,
        linkURL: el.closest('a[href]')?.href ?? '',
        editFlags: {
          canCut: editable && selectionText !== '',
          canCopy: selectionText !== '',
          canPaste: editable,
          canSelectAll: true,
        },
      };
    });
    const app = this.start();
    return app.ask<PoppedMenuItem[] | null>({
      t: 'context-menu',
      window: [...app.windows.keys()][0] ?? 1,
      params: {
        ...params,
        misspelledWord: spelling?.misspelledWord ?? '',
        dictionarySuggestions: spelling?.dictionarySuggestions ?? [],
      },
    });
  }

  /** Clicks the item `label` of the context menu main popped up last; false when it cannot. */
  async clickContextMenu(label: string): Promise<boolean> {
    return (await this.start().ask<{ found: boolean }>({ t: 'click-context-menu', label })).found;
  }

  /** Kills the engine's process (SIGKILL); main starts a new one. Returns the killed pid. */
  killEngine(): number {
    const [engine] = this.start().running('engine.js');
    if (!engine) throw new Error('no engine process is running');
    process.kill(engine.pid, 'SIGKILL');
    return engine.pid;
  }

  async close(): Promise<void> {
    if (this.app) {
      if (this.#signIn) await this.engine.signOut().catch(() => undefined);
      await this.app.quit().catch(() => undefined);
    }
    await this.sandbox.close();
    await rm(this.dataDir, { recursive: true, force: true });
  }

  #guard(context: BrowserContext, page: Page): Guard {
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
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) guard.navigations.push(frame.url());
    });
    page.on('load', () => guard.loads++);
    context.on('page', (popup) => {
      if (popup !== page) guard.popups.push(popup.url());
    });
    page.on('pageerror', (error) => guard.pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') guard.consoleErrors.push(message.text());
    });
    return guard;
  }

  /** What Electron sets up for a window before its page loads, imitated on `page`. */
  async #wire(win: WindowInfo, page: Page, context: BrowserContext): Promise<void> {
    const app = this.start();
    this.#pages.set(win.id, page);
    // Answers cross as one JSON string (ipc-wire.ts), as cheap for the page as a structured clone.
    await page.exposeBinding(
      '__electronInvokeWire',
      async (source, channel: string, args: unknown[]) => {
        const name = channel.replace(/^bridge:call:/, '');
        const call: RecordedCall = { name, args: redact(name, args), sentAt: performance.now() };
        if (name !== channel) this.calls.push(call);
        // The preload asking main for a dropped file's token (the path is not recorded).
        if (channel === DROP_CHANNEL) this.calls.push({ name: 'tokenForFile', args: [] });
        const value = await app
          .invoke(win.id, channel, args, {
            url: source.frame.url(),
            parent: source.frame.parentFrame() !== null,
          })
          .finally(() => (call.answeredAt = performance.now()));
        return encodeIpc(value);
      },
    );
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
    const preload = win.options.webPreferences?.preload;
    if (!preload) throw new Error('the window has no preload');
    await page.addInitScript({ content: preloadScript(await readFile(preload, 'utf8')) });
    // Every request the page makes goes past main's session rules, as in Electron; a navigation
    // of the window goes past its will-navigate handler, and a new window past its open handler.
    await context.route(
      (url) => url.protocol !== 'file:',
      async (route) => {
        const request = route.request();
        const own = request.frame().page() === page;
        if (request.isNavigationRequest() && !own) {
          const answer = await app.ask<{ action: string }>({
            t: 'window-open',
            window: win.id,
            url: request.url(),
          });
          await route.abort('blockedbyclient');
          if (answer.action === 'deny')
            await request
              .frame()
              .page()
              .close()
              .catch(() => undefined);
          return;
        }
        if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
          const answer = await app.ask<{ prevented: boolean }>({
            t: 'will-navigate',
            window: win.id,
            url: request.url(),
          });
          if (answer.prevented) return route.abort('blockedbyclient');
        }
        const verdict = await app.ask<{ cancel: boolean }>({
          t: 'before-request',
          url: request.url(),
          method: request.method(),
          resourceType: request.resourceType(),
        });
        if (verdict.cancel) await route.abort('blockedbyclient');
        else await route.continue();
      },
    );
  }

  /** main's `webContents.send`, delivered to the page in order. */
  #deliver(window: number, channel: string, args: unknown[]): void {
    const name = channel.replace(/^bridge:event:/, '') as BridgeEventName;
    if (name !== channel) ((this.events[name] ??= []) as unknown[]).push(args[0]);
    const page = this.#pages.get(window);
    if (!page) return;
    this.#sends = this.#sends.then(() =>
      page.isClosed()
        ? undefined
        : page
            .evaluate(
              ({ channel: c, args: a }) =>
                (globalThis as unknown as Partial<StandInPageGlobals>).__electronEmit?.(c, a),
              { channel, args: args as object[] },
            )
            .catch(() => undefined),
    );
  }

  /** The page main's window shows, once it loaded. */
  get page(): Page | null {
    return this.#page;
  }
}

function redact(name: string, args: unknown[]): unknown[] {
  if (name !== 'connect') return args;
  return args.map((a) => (a && typeof a === 'object' ? { ...a, apiKey: '<key>' } : a));
}

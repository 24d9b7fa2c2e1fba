import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './build';

/** What the stand-in tells the harness (test/electron/electron.mjs). */
type FromApp = { t: string; rid?: number } & Record<string, unknown>;

export interface WindowInfo {
  id: number;
  options: { webPreferences?: { preload?: string } & Record<string, unknown> } & Record<
    string,
    unknown
  >;
  /** The URL main asked the window to load; set once it did. */
  url: string | null;
  closed: boolean;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A display of the stand-in's `screen` (the first is the primary); work area default: bounds. */
export interface StandInDisplay {
  id?: number;
  bounds: Rect;
  workArea?: Rect;
  scaleFactor?: number;
}

/** A window as the stand-in holds it (`BrowserWindow.getBounds`, `getNormalBounds`, …). */
export interface WindowStateView {
  bounds: Rect;
  normalBounds: Rect;
  maximized: boolean;
  minimized: boolean;
  visible: boolean;
}

/** What the user does to a window: drag or resize it, (un)maximize, minimize, close, or look. */
export type WindowAction =
  | { action: 'state' | 'maximize' | 'unmaximize' | 'minimize' | 'restore' | 'close' }
  | { action: 'setBounds'; bounds: Partial<Rect> };

export interface LaunchOptions {
  /** The folder with `out/` and the `node_modules` the app loads from (default: this project). */
  appDir?: string;
  userData: string;
  downloads?: string;
  isPackaged?: boolean;
  env?: Record<string, string>;
  /** Electron's `app.getVersion()` (default 0.1.0). */
  version?: string;
  /** Electron's `process.resourcesPath` (where an installed app has `app-update.yml`). */
  resourcesPath?: string;
  /** More command-line arguments, after the entry (a deep link the OS passed on launch). */
  args?: string[];
  /** Electron's `screen` displays (default: one 1920×1080 display, a 40 px taskbar). */
  displays?: StandInDisplay[];
  /** `app.getPreferredSystemLanguages()` (default `['en-US']`). */
  systemLanguages?: string[];
}

export interface DialogAnswers {
  open: { canceled: boolean; filePaths: string[] }[];
  save: { canceled: boolean; filePath?: string }[];
  message: { response: number; checkboxChecked?: boolean }[];
}

export interface AppHooks {
  /** A window asks to load `url`; resolve once the page has loaded it. */
  load(window: WindowInfo, url: string): Promise<void>;
  /** main's `webContents.send`. */
  send(window: number, channel: string, args: unknown[]): void;
  reload(window: number): void;
  /** main's `webContents.printToPDF`: Chromium prints the window's page with print media. */
  printToPDF(window: number, options: Record<string, unknown>): Promise<Uint8Array>;
}

/**
 * The app's main process as built (`out/main/index.js`) under plain Node, with only `electron`
 * replaced by the stand-in (`--import test/electron/register.mjs`). Everything main asks of
 * Electron arrives here as a message; the answers are what a user (or the OS) would give.
 */
export class AppProcess {
  readonly windows = new Map<number, WindowInfo>();
  readonly logs: string[] = [];
  readonly shell: { call: string; target: string }[] = [];
  readonly notifications: { id: number; options: { title: string; body: string } }[] = [];
  readonly utilities: {
    pid: number;
    modulePath: string;
    serviceName: string | null;
    exited: boolean;
  }[] = [];
  readonly dialogs: { kind: keyof DialogAnswers; options: Record<string, unknown> }[] = [];
  readonly answers: DialogAnswers = { open: [], save: [], message: [] };
  readonly traces: FromApp[] = [];
  menu: unknown[] = [];
  trayTooltip = '';
  readonly exited: Promise<number | null>;
  #nextRid = 1;
  readonly #awaiting = new Map<
    number,
    { resolve(value: unknown): void; reject(error: Error): void }
  >();
  #hooks: AppHooks | null = null;
  readonly #queued: FromApp[] = [];

  private constructor(readonly child: ChildProcess) {
    this.exited = once(child, 'exit').then(([code]) => code as number | null);
    void this.exited.then((code) => {
      const error = new Error(
        `the app exited (${String(code)}) before it answered:\n${this.logs.slice(-40).join('\n')}`,
      );
      for (const waiting of this.#awaiting.values()) waiting.reject(error);
      this.#awaiting.clear();
    });
    child.on('message', (message) => this.#receive(message as FromApp));
    const keep = (chunk: Buffer): void => {
      this.logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      if (this.logs.length > 2_000) this.logs.splice(0, this.logs.length - 2_000);
      if (process.env['APP_LOGS']) process.stderr.write(chunk);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  static launch(options: LaunchOptions): AppProcess {
    const appDir = options.appDir ?? ROOT;
    const child = spawn(
      process.execPath,
      [
        '--import',
        pathToFileURL(join(ROOT, 'test/electron/register.mjs')).href,
        'out/main/index.js',
        ...(options.args ?? []),
      ],
      {
        cwd: appDir,
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        serialization: 'advanced',
        env: {
          ...process.env,
          ...options.env,
          ELECTRON_STAND_IN: JSON.stringify({
            userData: options.userData,
            downloads: options.downloads ?? join(options.userData, 'Downloads'),
            isPackaged: options.isPackaged ?? false,
            ...(options.version ? { version: options.version } : {}),
            ...(options.resourcesPath ? { resourcesPath: options.resourcesPath } : {}),
            ...(options.displays ? { displays: options.displays } : {}),
            ...(options.systemLanguages ? { systemLanguages: options.systemLanguages } : {}),
          }),
        },
      },
    );
    return new AppProcess(child);
  }

  /** The file: URL of the renderer page main loads (its only trusted sender). */
  static rendererUrl(appDir = ROOT): string {
    return pathToFileURL(join(appDir, 'out/renderer/index.html')).href;
  }

  /** Starts handling windows; messages that arrived before are handled now, in order. */
  attach(hooks: AppHooks): void {
    this.#hooks = hooks;
    for (const message of this.#queued.splice(0)) this.#receive(message);
  }

  /** Asks the stand-in (in the app's process) to act, as Electron or the user would. */
  ask<T = unknown>(message: Record<string, unknown>): Promise<T> {
    const rid = this.#nextRid++;
    return new Promise((resolve, reject) => {
      if (!this.child.connected) {
        reject(new Error(`the app is not running (asked ${String(message['t'])})`));
        return;
      }
      this.#awaiting.set(rid, { resolve: resolve as (value: unknown) => void, reject });
      this.child.send({ ...message, rid });
    });
  }

  /**
   * `ipcRenderer.invoke` as a frame would make it: main's handler sees `senderFrame.url` and
   * whether the frame has a parent, as Electron sets them.
   */
  async invoke(
    window: number,
    channel: string,
    args: unknown[],
    frame: { url: string; parent: boolean } | null,
  ): Promise<unknown> {
    const answer = await this.ask<{ ok: boolean; value?: unknown; message?: string }>({
      t: 'invoke',
      window,
      channel,
      args,
      frame,
    });
    if (!answer.ok) throw new Error(answer.message);
    return answer.value;
  }

  /**
   * Acts on window `id` as the user would (drag it, resize it, maximize, close) and returns its
   * state afterwards, as Electron reports it (null once it is closed). `{ action: 'state' }` only
   * looks.
   */
  actOnWindow(
    id: number,
    action: WindowAction = { action: 'state' },
  ): Promise<WindowStateView | null> {
    return this.ask<WindowStateView | null>({ t: 'window-action', window: id, ...action });
  }

  /** Utility processes started from this module path that are still running. */
  running(entry: 'engine.js' | 'sandbox.js'): { pid: number }[] {
    return this.utilities.filter((u) => !u.exited && u.modulePath.endsWith(entry));
  }

  async quit(timeoutMs = 15_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    if (this.child.connected) this.child.send({ t: 'quit' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }

  #answer(rid: number | undefined, value: unknown): void {
    if (rid !== undefined && this.child.connected) this.child.send({ t: 'reply', rid, value });
  }

  #receive(message: FromApp): void {
    switch (message.t) {
      case 'reply': {
        const waiting = this.#awaiting.get(message.rid ?? -1);
        this.#awaiting.delete(message.rid ?? -1);
        waiting?.resolve(message['value']);
        return;
      }
      case 'window': {
        const id = message['window'] as number;
        this.windows.set(id, {
          id,
          options: message['options'] as WindowInfo['options'],
          url: null,
          closed: false,
        });
        return;
      }
      case 'window-closed': {
        const win = this.windows.get(message['window'] as number);
        if (win) win.closed = true;
        return;
      }
      case 'shell':
        this.shell.push({ call: message['call'] as string, target: message['target'] as string });
        return;
      case 'notification':
        this.notifications.push({
          id: message['id'] as number,
          options: message['options'] as { title: string; body: string },
        });
        return;
      case 'menu':
        this.menu = message['labels'] as unknown[];
        return;
      case 'tray':
        if (message['call'] === 'setToolTip') this.trayTooltip = message['text'] as string;
        return;
      case 'utility':
        this.utilities.push({
          pid: message['pid'] as number,
          modulePath: message['modulePath'] as string,
          serviceName: message['serviceName'] as string | null,
          exited: false,
        });
        return;
      case 'utility-exit': {
        const entry = this.utilities.find((u) => u.pid === message['pid'] && !u.exited);
        if (entry) entry.exited = true;
        return;
      }
      case 'dialog': {
        const kind = message['kind'] as keyof DialogAnswers;
        this.dialogs.push({ kind, options: message['options'] as Record<string, unknown> });
        const queued = this.answers[kind].shift();
        const options = message['options'] as { cancelId?: number };
        const fallback = {
          open: { canceled: true, filePaths: [] },
          save: { canceled: true },
          message: { response: options.cancelId ?? 0, checkboxChecked: false },
        }[kind];
        this.#answer(message.rid, queued ?? fallback);
        return;
      }
      case 'load':
      case 'send':
      case 'print':
      case 'reload': {
        if (!this.#hooks) {
          this.#queued.push(message);
          return;
        }
        this.#windowMessage(this.#hooks, message);
        return;
      }
      default:
        this.traces.push(message);
    }
  }

  #windowMessage(hooks: AppHooks, message: FromApp): void {
    const id = message['window'] as number;
    if (message.t === 'send') {
      hooks.send(id, message['channel'] as string, message['args'] as unknown[]);
    } else if (message.t === 'reload') {
      hooks.reload(id);
    } else if (message.t === 'print') {
      void hooks.printToPDF(id, message['options'] as Record<string, unknown>).then(
        (pdf) => this.#answer(message.rid, { pdf }),
        (error: unknown) => this.#answer(message.rid, { error: String(error) }),
      );
    } else {
      const win = this.windows.get(id);
      const url = message['url'] as string;
      if (!win) return;
      win.url = url;
      void hooks.load(win, url).then(
        () => this.#answer(message.rid, {}),
        (error: unknown) => {
          this.logs.push(`harness: loading ${url} failed: ${String(error)}`);
          this.#answer(message.rid, {});
        },
      );
    }
  }
}

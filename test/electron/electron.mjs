// The Electron stand-in: the part of the `electron` module that the app's main process uses,
// over plain Node, for tests only (never shipped). The built main bundle imports it unchanged
// (see hooks.mjs). Windows are Chromium pages owned by the test harness (test/app/), which this
// module talks to over the Node IPC channel of its process; see README.md for what it imitates
// and what it does not.
import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * @typedef {{ x: number, y: number, width: number, height: number }} Rect
 * @typedef {{ id?: number, bounds: Rect, workArea?: Rect, scaleFactor?: number }} DisplayConfig
 * @typedef {{ userData?: string, downloads?: string, isPackaged?: boolean, version?: string,
 *   singleInstanceLock?: boolean, platform?: string, resourcesPath?: string,
 *   displays?: DisplayConfig[] }} StandInConfig
 */

/** @type {StandInConfig} */
const config = JSON.parse(process.env.ELECTRON_STAND_IN ?? '{}');

// Electron sets `process.resourcesPath` (the folder of app.asar; electron-updater reads
// `app-update.yml` there). The test gives the folder of its choice.
if (!('resourcesPath' in process)) {
  Object.defineProperty(process, 'resourcesPath', {
    value: config.resourcesPath ?? join(tmpdir(), 'bounty-desk-stand-in-resources'),
    enumerable: true,
  });
}
const UTILITY_REGISTER = new URL('./utility-register.mjs', import.meta.url).href;

// ---- the harness channel ----------------------------------------------------------------------

let nextRequest = 1;
/** @type {Map<number, (value: unknown) => void>} */
const awaiting = new Map();

/** @param {Record<string, unknown>} message */
function tell(message) {
  if (process.connected) process.send?.(message);
}

/** @param {Record<string, unknown>} message @returns {Promise<any>} */
function ask(message) {
  const rid = nextRequest++;
  return new Promise((resolve) => {
    awaiting.set(rid, resolve);
    tell({ ...message, rid });
  });
}

/** @param {Record<string, unknown>} message @param {unknown} value */
function reply(message, value) {
  tell({ t: 'reply', rid: message.rid, value });
}

/** A plain copy that survives the IPC channel (functions and class instances dropped). */
function plain(value) {
  return JSON.parse(
    JSON.stringify(value, (_key, v) => (typeof v === 'function' ? undefined : v)) ?? 'null',
  );
}

function makeEvent() {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
}

// ---- app ----------------------------------------------------------------------------------------

class App extends EventEmitter {
  isPackaged = config.isPackaged ?? false;
  /** @type {string[]} */
  protocols = [];
  #ready = false;
  #quitting = false;
  /** @type {Promise<void>} */
  #whenReady;

  constructor() {
    super();
    this.#whenReady = new Promise((resolve) => {
      setTimeout(() => {
        this.#ready = true;
        this.emit('ready', makeEvent(), {});
        resolve();
      }, 0);
    });
  }

  whenReady() {
    return this.#whenReady;
  }

  isReady() {
    return this.#ready;
  }

  /** @param {string} name */
  getPath(name) {
    const userData = config.userData ?? join(tmpdir(), 'bounty-desk-stand-in');
    const paths = {
      userData,
      appData: join(userData, '..'),
      downloads: config.downloads ?? join(userData, 'Downloads'),
      home: join(userData, 'home'),
      temp: tmpdir(),
      logs: join(userData, 'logs'),
    };
    if (!(name in paths)) throw new Error(`stand-in: app.getPath('${name}') is not imitated`);
    return paths[/** @type {keyof typeof paths} */ (name)];
  }

  getVersion() {
    return config.version ?? '0.1.0';
  }

  /** The OS's languages in the user's order (the test's `systemLanguages`, default US English). */
  getPreferredSystemLanguages() {
    return [...(config.systemLanguages ?? ['en-US'])];
  }

  getName() {
    return 'Bounty Desk';
  }

  /** The app's folder (the one with package.json): where the harness starts main. */
  getAppPath() {
    return process.cwd();
  }

  relaunch() {
    tell({ t: 'app', call: 'relaunch' });
  }

  enableSandbox() {
    tell({ t: 'app', call: 'enableSandbox' });
  }

  /** Chromium's switches as main appends them (the browser tests start Chromium with them). */
  commandLine = {
    /** @param {string} name @param {string} [value] */
    appendSwitch(name, value) {
      tell({ t: 'app', call: 'appendSwitch', name, value });
    },
  };

  /** @param {string} id */
  setAppUserModelId(id) {
    tell({ t: 'app', call: 'setAppUserModelId', id });
  }

  requestSingleInstanceLock() {
    return config.singleInstanceLock ?? true;
  }

  /** @param {string} scheme */
  setAsDefaultProtocolClient(scheme) {
    this.protocols.push(scheme);
    tell({ t: 'app', call: 'setAsDefaultProtocolClient', scheme });
    return true;
  }

  focus() {}

  /** Electron's order: before-quit, the windows close, will-quit, quit; each may be prevented. */
  quit() {
    if (this.#quitting) return;
    this.#quitting = true;
    const before = makeEvent();
    this.emit('before-quit', before);
    if (before.defaultPrevented) {
      this.#quitting = false;
      return;
    }
    // Electron closes every window first (each emits `close`, which may cancel the quit).
    for (const win of [...windows.values()]) win.close();
    if (windows.size > 0) {
      this.#quitting = false;
      return;
    }
    const will = makeEvent();
    this.emit('will-quit', will);
    if (will.defaultPrevented) {
      this.#quitting = false;
      return;
    }
    this.emit('quit', makeEvent(), 0);
    this.exit(0);
  }

  /** @param {number} [code] */
  exit(code = 0) {
    tell({ t: 'quit', code });
    setTimeout(() => process.exit(code), 20);
  }
}

export const app = new App();

// ---- ipcMain ------------------------------------------------------------------------------------

/** @type {Map<string, (event: unknown, ...args: unknown[]) => unknown>} */
const handlers = new Map();

export const ipcMain = {
  /** @param {string} channel @param {(event: unknown, ...args: unknown[]) => unknown} handler */
  handle(channel, handler) {
    if (handlers.has(channel)) {
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    }
    handlers.set(channel, handler);
  },
  /** @param {string} channel */
  removeHandler(channel) {
    handlers.delete(channel);
  },
};

// ---- screen -------------------------------------------------------------------------------------

/**
 * The displays the test configured (`displays`, the first being the primary), else one 1920×1080
 * display whose work area leaves 40 px for a taskbar. Each is shaped like Electron's `Display`.
 */
const displays = (
  config.displays ?? [
    {
      bounds: { x: 0, y: 0, width: 1920, height: 1080 },
      workArea: { x: 0, y: 0, width: 1920, height: 1040 },
    },
  ]
).map((d, index) => {
  const workArea = d.workArea ?? d.bounds;
  return {
    id: d.id ?? index + 1,
    label: `Display ${index + 1}`,
    bounds: { ...d.bounds },
    workArea: { ...workArea },
    size: { width: d.bounds.width, height: d.bounds.height },
    workAreaSize: { width: workArea.width, height: workArea.height },
    scaleFactor: d.scaleFactor ?? 1,
    rotation: 0,
    internal: index === 0,
    monochrome: false,
    colorDepth: 24,
    accelerometerSupport: 'unknown',
    touchSupport: 'unknown',
  };
});

function screenReady() {
  if (!app.isReady())
    throw new Error("The 'screen' module can't be used before the app 'ready' event");
}

/** @param {Rect} a @param {Rect} b */
function overlapArea(a, b) {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

export const screen = Object.assign(new EventEmitter(), {
  getAllDisplays() {
    screenReady();
    return displays.map((d) => structuredClone(d));
  },
  getPrimaryDisplay() {
    screenReady();
    return structuredClone(displays[0]);
  },
});

/** The display holding the largest part of `rect` (the primary when none). @param {Rect} rect */
function displayOf(rect) {
  let best = displays[0];
  let most = 0;
  for (const d of displays) {
    const area = overlapArea(rect, d.bounds);
    if (area > most) [best, most] = [d, area];
  }
  return best;
}

// ---- windows ------------------------------------------------------------------------------------

let nextWindowId = 1;
/** @type {Map<number, BrowserWindow>} */
const windows = new Map();

class WebContents extends EventEmitter {
  url = '';
  /** @type {((details: { url: string }) => { action: 'allow' | 'deny' }) | null} */
  openHandler = null;
  #destroyed = false;

  /** @param {BrowserWindow} win */
  constructor(win) {
    super();
    this.win = win;
    this.id = win.id;
  }

  /** @param {string} channel @param {unknown[]} args */
  send(channel, ...args) {
    if (this.#destroyed) throw new Error('Object has been destroyed');
    tell({ t: 'send', window: this.id, channel, args });
  }

  /** @param {(details: { url: string }) => { action: 'allow' | 'deny' }} handler */
  setWindowOpenHandler(handler) {
    this.openHandler = handler;
  }

  reload() {
    tell({ t: 'reload', window: this.id });
  }

  /**
   * Chromium's own printing of the window's page, with print media (the test host's
   * `page.pdf()`): the bytes of a real PDF, as Electron's `printToPDF` answers.
   * @param {Record<string, unknown>} [options]
   */
  async printToPDF(options = {}) {
    if (this.#destroyed) throw new Error('Object has been destroyed');
    const answer = await ask({ t: 'print', window: this.id, options: plain(options) });
    if (answer.error) throw new Error(answer.error);
    return Buffer.from(answer.pdf);
  }

  getURL() {
    return this.url;
  }

  /** The window's session: the default one, as for the app's window. */
  get session() {
    return session.defaultSession;
  }

  /** Recorded: Chromium replaces the misspelled word in the page (not imitated). @param {string} word */
  replaceMisspelling(word) {
    tell({ t: 'spellcheck', call: 'replaceMisspelling', word });
  }

  isDestroyed() {
    return this.#destroyed;
  }

  destroy() {
    this.#destroyed = true;
    this.emit('destroyed');
  }
}

export class BrowserWindow extends EventEmitter {
  /** @param {Record<string, any>} options */
  constructor(options = {}) {
    super();
    this.id = nextWindowId++;
    this.options = options;
    this.visible = false;
    this.minimized = false;
    this.maximized = false;
    this.destroyed = false;
    this.minSize = { width: options.minWidth ?? 0, height: options.minHeight ?? 0 };
    // Electron centers a window given no position on the primary display, and never makes it
    // smaller than its minimum size.
    const width = Math.max(options.width ?? 800, this.minSize.width);
    const height = Math.max(options.height ?? 600, this.minSize.height);
    const area = displays[0]?.workArea ?? { x: 0, y: 0, width, height };
    this.bounds = {
      x: options.x ?? area.x + Math.floor((area.width - width) / 2),
      y: options.y ?? area.y + Math.floor((area.height - height) / 2),
      width,
      height,
    };
    /** The bounds to return to from maximized. */
    this.normalBounds = { ...this.bounds };
    this.webContents = new WebContents(this);
    windows.set(this.id, this);
    tell({ t: 'window', window: this.id, options: plain(options) });
    app.emit('web-contents-created', makeEvent(), this.webContents);
  }

  static getAllWindows() {
    return [...windows.values()];
  }

  /** @param {string} file @param {{ hash?: string, search?: string }} [options] */
  loadFile(file, options = {}) {
    const url = pathToFileURL(file);
    if (options.search) url.search = options.search;
    if (options.hash) url.hash = options.hash;
    return this.loadURL(url.href);
  }

  /** @param {string} url */
  async loadURL(url) {
    this.webContents.url = url;
    await ask({ t: 'load', window: this.id, url });
    this.webContents.emit('did-finish-load');
    this.emit('ready-to-show');
  }

  show() {
    this.visible = true;
    this.minimized = false;
    tell({ t: 'window-state', window: this.id, call: 'show' });
  }

  focus() {
    tell({ t: 'window-state', window: this.id, call: 'focus' });
  }

  /** The taskbar / dock progress: recorded, never drawn. @param {number} fraction */
  setProgressBar(fraction) {
    tell({ t: 'window-state', window: this.id, call: 'setProgressBar', value: fraction });
  }

  isVisible() {
    return this.visible;
  }

  isMinimized() {
    return this.minimized;
  }

  minimize() {
    this.minimized = true;
  }

  restore() {
    this.minimized = false;
  }

  getBounds() {
    return { ...this.bounds };
  }

  /** Whatever the window's state, its bounds in the normal state. */
  getNormalBounds() {
    return { ...(this.maximized ? this.normalBounds : this.bounds) };
  }

  /**
   * As the user dragging or resizing the window (or main) would: `resize` and `move` when the
   * size or position changed, the size kept at least the minimum. A maximized window is restored
   * first (dragging a maximized window out of place does that). @param {Partial<Rect>} bounds
   */
  setBounds(bounds) {
    if (this.maximized) this.unmaximize();
    const next = { ...this.bounds, ...bounds };
    next.width = Math.max(next.width, this.minSize.width);
    next.height = Math.max(next.height, this.minSize.height);
    this.#moveTo(next);
  }

  /** Fills the work area of the display it is on, and shows the window, as Electron does. */
  maximize() {
    if (this.maximized) return;
    this.normalBounds = { ...this.bounds };
    this.maximized = true;
    this.visible = true;
    this.emit('maximize');
    this.#moveTo({ ...displayOf(this.bounds).workArea });
  }

  unmaximize() {
    if (!this.maximized) return;
    this.maximized = false;
    this.emit('unmaximize');
    this.#moveTo({ ...this.normalBounds });
  }

  isMaximized() {
    return this.maximized;
  }

  /** @param {Rect} next */
  #moveTo(next) {
    const before = this.bounds;
    this.bounds = next;
    if (!this.maximized) this.normalBounds = { ...next };
    if (next.width !== before.width || next.height !== before.height) this.emit('resize');
    if (next.x !== before.x || next.y !== before.y) this.emit('move');
  }

  /** What a test reads of the window (the harness's `window-action`). */
  state() {
    return {
      bounds: this.getBounds(),
      normalBounds: this.getNormalBounds(),
      maximized: this.maximized,
      minimized: this.minimized,
      visible: this.visible,
    };
  }

  isDestroyed() {
    return this.destroyed;
  }

  close() {
    const event = makeEvent();
    this.emit('close', event);
    if (!event.defaultPrevented) this.destroy();
  }

  destroy() {
    if (this.destroyed) return;
    this.destroyed = true;
    windows.delete(this.id);
    this.webContents.destroy();
    tell({ t: 'window-closed', window: this.id });
    this.emit('closed');
    if (windows.size === 0) app.emit('window-all-closed');
  }
}

// ---- session ------------------------------------------------------------------------------------

const sessionHandlers = {
  /** @type {Function | null} */ permissionRequest: null,
  /** @type {Function | null} */ permissionCheck: null,
  /** @type {Function | null} */ devicePermission: null,
  /** @type {Function | null} */ beforeRequest: null,
};

export const session = {
  /** Another session (electron-updater's own, `cache: false`): only its name is kept. */
  fromPartition(/** @type {string} */ partition) {
    return { partition };
  },
  defaultSession: {
    /** @param {Function} handler */
    setPermissionRequestHandler(handler) {
      sessionHandlers.permissionRequest = handler;
    },
    /** @param {Function} handler */
    setPermissionCheckHandler(handler) {
      sessionHandlers.permissionCheck = handler;
    },
    /** @param {Function} handler */
    setDevicePermissionHandler(handler) {
      sessionHandlers.devicePermission = handler;
    },
    /**
     * Chromium's Hunspell languages (Windows and Linux), as Electron 45 lists them; the calls that
     * set languages, the dictionaries' URL and words added are recorded.
     */
    availableSpellCheckerLanguages: [
      'af',
      'bg',
      'ca',
      'cs',
      'cy',
      'da',
      'de',
      'de-DE',
      'el',
      'en-AU',
      'en-CA',
      'en-GB',
      'en-US',
      'es',
      'es-419',
      'es-AR',
      'es-ES',
      'es-MX',
      'es-US',
      'et',
      'fa',
      'fo',
      'fr',
      'fr-FR',
      'he',
      'hi',
      'hr',
      'hu',
      'hy',
      'id',
      'it',
      'it-IT',
      'ko',
      'lt',
      'lv',
      'nb',
      'nl',
      'pl',
      'pt',
      'pt-BR',
      'pt-PT',
      'ro',
      'ru',
      'sh',
      'sk',
      'sl',
      'sq',
      'sr',
      'sv',
      'ta',
      'tg',
      'tr',
      'uk',
      'vi',
    ],
    /** @param {string[]} languages */
    setSpellCheckerLanguages(languages) {
      tell({ t: 'spellcheck', call: 'setSpellCheckerLanguages', languages: [...languages] });
    },
    /** @param {string} url */
    setSpellCheckerDictionaryDownloadURL(url) {
      tell({ t: 'spellcheck', call: 'setSpellCheckerDictionaryDownloadURL', url });
    },
    /** @param {string} word */
    addWordToSpellCheckerDictionary(word) {
      tell({ t: 'spellcheck', call: 'addWordToSpellCheckerDictionary', word });
      return true;
    },
    webRequest: {
      /** @param {...unknown} args (filter?, listener) */
      onBeforeRequest(...args) {
        sessionHandlers.beforeRequest = /** @type {Function} */ (args.at(-1));
      },
    },
  },
};

// ---- dialogs, shell, notifications, menus, tray -------------------------------------------------

/** Electron's dialog functions take an optional parent window first. */
function dialogOptions(args) {
  return args[0] instanceof BrowserWindow ? args[1] : args[0];
}

export const dialog = {
  /** @param {...unknown} args */
  showOpenDialog: (...args) =>
    ask({ t: 'dialog', kind: 'open', options: plain(dialogOptions(args)) }),
  /** @param {...unknown} args */
  showSaveDialog: (...args) =>
    ask({ t: 'dialog', kind: 'save', options: plain(dialogOptions(args)) }),
  /** @param {...unknown} args */
  showMessageBox: (...args) =>
    ask({ t: 'dialog', kind: 'message', options: plain(dialogOptions(args)) }),
  /** @param {string} title @param {string} content */
  showErrorBox(title, content) {
    tell({ t: 'dialog-error', title, content });
  },
};

export const shell = {
  /** @param {string} url */
  async openExternal(url) {
    tell({ t: 'shell', call: 'openExternal', target: url });
  },
  /** @param {string} path */
  async openPath(path) {
    tell({ t: 'shell', call: 'openPath', target: path });
    return '';
  },
  /** @param {string} path */
  showItemInFolder(path) {
    tell({ t: 'shell', call: 'showItemInFolder', target: path });
  },
};

let nextNotification = 1;
/** @type {Map<number, Notification>} */
const notifications = new Map();

export class Notification extends EventEmitter {
  static isSupported() {
    return true;
  }

  /** @param {{ title: string, body: string }} options */
  constructor(options) {
    super();
    this.id = nextNotification++;
    this.options = options;
    notifications.set(this.id, this);
  }

  show() {
    tell({ t: 'notification', id: this.id, options: plain(this.options) });
  }

  close() {
    notifications.delete(this.id);
    this.emit('close', makeEvent());
  }
}

/** Recorded: what main writes to the OS clipboard. */
export const clipboard = {
  /** @param {string} text */
  writeText(text) {
    tell({ t: 'clipboard', text });
  },
};

export class Menu {
  /** @type {any[]} */
  items;

  /** The last menu popped up (a context menu), until another one is. @type {Menu | null} */
  static popped = null;

  /** Recorded, and kept for the test to click (`click-context-menu`). @param {unknown} [_options] */
  popup(_options) {
    Menu.popped = this;
    tell({ t: 'popup', items: poppedItems(this.items) });
  }

  /** @param {any[]} template */
  constructor(template) {
    this.items = template;
  }

  /** @param {any[]} template */
  static buildFromTemplate(template) {
    return new Menu(template);
  }

  /** @type {Menu | null} */
  static #appMenu = null;

  /** @param {Menu | null} menu */
  static setApplicationMenu(menu) {
    Menu.#appMenu = menu;
    tell({ t: 'menu', labels: menuLabels(menu?.items ?? []) });
  }

  static getApplicationMenu() {
    return Menu.#appMenu;
  }
}

/** @param {any[]} items @returns {unknown[]} */
function menuLabels(items) {
  return items.map((item) => ({
    label: item.label ?? item.role ?? item.type,
    ...(item.accelerator ? { accelerator: item.accelerator } : {}),
    ...(Array.isArray(item.submenu) ? { submenu: menuLabels(item.submenu) } : {}),
  }));
}

/** A popped-up menu's items as a user sees them: label (or role), role, enabled, separators. */
function poppedItems(/** @type {any[]} */ items) {
  return items.map((item) =>
    item.type === 'separator'
      ? { type: 'separator' }
      : {
          label: item.label ?? item.role,
          ...(item.role ? { role: item.role } : {}),
          enabled: item.enabled !== false,
        },
  );
}

/** @param {any[]} items @param {string[]} path */
function findMenuItem(items, path) {
  const [first, ...rest] = path;
  const item = items.find((i) => (i.label ?? i.role) === first);
  if (!item) return null;
  if (rest.length === 0) return item;
  const submenu = item.submenu instanceof Menu ? item.submenu.items : item.submenu;
  return Array.isArray(submenu) ? findMenuItem(submenu, rest) : null;
}

/** @type {Tray[]} */
const trays = [];

export class Tray extends EventEmitter {
  /** @param {string} icon */
  constructor(icon) {
    super();
    this.icon = icon;
    /** @type {Menu | null} */
    this.menu = null;
    trays.push(this);
    tell({ t: 'tray', call: 'create', icon });
  }

  /** @param {string} text */
  setToolTip(text) {
    tell({ t: 'tray', call: 'setToolTip', text });
  }

  /** @param {Menu} menu */
  setContextMenu(menu) {
    this.menu = menu;
  }

  destroy() {
    tell({ t: 'tray', call: 'destroy' });
  }
}

// ---- net, autoUpdater ---------------------------------------------------------------------------

/**
 * Electron's `net.request` over Node's http/https: a request with `end`, `abort`, `setHeader`
 * and `write`, emitting `response` (a Node IncomingMessage, a Readable as Electron's is),
 * `redirect` instead of `response` for a 3xx when `redirect: 'manual'` (as Electron does), `error`
 * and `abort`. Chromium's network stack (proxies, its cache, certificate handling) is not imitated.
 */
class ClientRequest extends EventEmitter {
  /** @param {Record<string, any> | string} options */
  constructor(options) {
    super();
    const opts = typeof options === 'string' ? urlOptions(options) : { ...options };
    const { session: _session, redirect = 'follow', url, ...rest } = opts;
    const target = url ? { ...urlOptions(url), ...rest } : rest;
    const transport = target.protocol === 'https:' ? https : http;
    this.request = transport.request(target);
    this.request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (redirect === 'manual' && status >= 300 && status < 400 && location) {
        response.resume();
        this.emit('redirect', status, target.method ?? 'GET', location, response.headers);
        return;
      }
      this.emit('response', response);
    });
    this.request.on('error', (error) => this.emit('error', error));
  }

  /** @param {string} name @param {string} value */
  setHeader(name, value) {
    this.request.setHeader(name, value);
  }

  /** @param {unknown} chunk */
  write(chunk) {
    return this.request.write(/** @type {any} */ (chunk));
  }

  /** @param {unknown} [chunk] */
  end(chunk) {
    this.request.end(/** @type {any} */ (chunk));
    return this;
  }

  abort() {
    this.request.destroy();
    this.emit('abort');
  }
}

/** @param {string} url */
function urlOptions(url) {
  const u = new URL(url);
  return {
    protocol: u.protocol,
    hostname: u.hostname,
    port: u.port || undefined,
    path: `${u.pathname}${u.search}`,
  };
}

export const net = {
  /** @param {Record<string, any> | string} options */
  request(options) {
    return new ClientRequest(options);
  },
};

/** Electron's own (Squirrel) updater: only its events; electron-updater emits one on it. */
export const autoUpdater = new EventEmitter();

// ---- utility processes --------------------------------------------------------------------------

/** @type {Set<import('node:child_process').ChildProcess>} */
const children = new Set();

class UtilityProcess extends EventEmitter {
  /** @param {string} modulePath @param {string[]} args @param {Record<string, any>} options */
  constructor(modulePath, args, options) {
    super();
    const child = fork(modulePath, args, {
      execArgv: ['--import', UTILITY_REGISTER],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: options.env ?? process.env,
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    children.add(child);
    this.child = child;
    this.pid = child.pid;
    child.on('spawn', () => this.emit('spawn'));
    child.on('message', (message) => this.emit('message', message));
    child.on('exit', (code, signal) => {
      children.delete(child);
      this.pid = undefined;
      tell({ t: 'utility-exit', pid: child.pid, code, signal });
      this.emit('exit', code ?? 1);
    });
    tell({ t: 'utility', pid: child.pid, modulePath, serviceName: options.serviceName ?? null });
  }

  /** @param {unknown} message */
  postMessage(message) {
    if (this.child.connected) this.child.send(/** @type {any} */ (message));
  }

  kill() {
    return this.child.kill();
  }
}

export const utilityProcess = {
  /** @param {string} modulePath @param {string[]} [args] @param {Record<string, any>} [options] */
  fork(modulePath, args = [], options = {}) {
    return new UtilityProcess(modulePath, args, options);
  },
};

process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
process.on('disconnect', () => process.exit(0));

// ---- what the harness asks --------------------------------------------------------------------

/** @param {Record<string, any>} message */
async function fromHarness(message) {
  switch (message.t) {
    case 'reply': {
      const resolve = awaiting.get(message.rid);
      awaiting.delete(message.rid);
      resolve?.(message.value);
      return;
    }
    case 'invoke': {
      // ipcRenderer.invoke from a page: the handler gets the event Electron would give it.
      const handler = handlers.get(message.channel);
      const win = windows.get(message.window);
      if (!handler) {
        reply(message, { ok: false, message: `No handler registered for '${message.channel}'` });
        return;
      }
      const event = {
        sender: win?.webContents ?? null,
        senderFrame: message.frame
          ? { url: message.frame.url, parent: message.frame.parent ? {} : null }
          : null,
        processId: 1,
        frameId: 1,
      };
      try {
        reply(message, { ok: true, value: await handler(event, ...message.args) });
      } catch (error) {
        reply(message, {
          ok: false,
          message: `Error invoking remote method '${message.channel}': ${error}`,
        });
      }
      return;
    }
    case 'will-navigate': {
      const win = windows.get(message.window);
      const event = makeEvent();
      win?.webContents.emit('will-navigate', event, message.url);
      reply(message, { prevented: event.defaultPrevented });
      return;
    }
    case 'window-open': {
      const win = windows.get(message.window);
      const answer = win?.webContents.openHandler?.({ url: message.url }) ?? { action: 'allow' };
      reply(message, plain(answer));
      return;
    }
    case 'before-request': {
      const handler = sessionHandlers.beforeRequest;
      if (!handler) return reply(message, { cancel: false });
      handler(
        { url: message.url, resourceType: message.resourceType, method: message.method },
        (r) => reply(message, { cancel: Boolean(r?.cancel) }),
      );
      return;
    }
    case 'permission': {
      const handler = sessionHandlers.permissionRequest;
      if (!handler) return reply(message, { granted: true });
      handler(null, message.permission, (granted) => reply(message, { granted }), {});
      return;
    }
    case 'click-notification': {
      notifications.get(message.id)?.emit('click', makeEvent());
      reply(message, {});
      return;
    }
    case 'click-menu': {
      const item = findMenuItem(Menu.getApplicationMenu()?.items ?? [], message.path);
      item?.click?.(item, [...windows.values()][0] ?? null, makeEvent());
      reply(message, { found: Boolean(item?.click) });
      return;
    }
    case 'context-menu': {
      // A right-click in the window: main's listener gets the params Chromium would give it; the
      // answer is the menu it popped up (null when none).
      const win = windows.get(message.window);
      Menu.popped = null;
      win?.webContents.emit('context-menu', makeEvent(), message.params);
      reply(message, Menu.popped ? poppedItems(Menu.popped.items) : null);
      return;
    }
    case 'click-context-menu': {
      const item = Menu.popped?.items.find((i) => (i.label ?? i.role) === message.label);
      const clickable = Boolean(item?.click) && item?.enabled !== false;
      if (clickable) item.click(item, [...windows.values()][0] ?? null, makeEvent());
      reply(message, { found: clickable });
      return;
    }
    case 'click-tray': {
      const item = trays.at(-1)?.menu
        ? findMenuItem(trays.at(-1)?.menu?.items ?? [], message.path)
        : null;
      item?.click?.(item, null, makeEvent());
      reply(message, { found: Boolean(item?.click) });
      return;
    }
    case 'app-event': {
      app.emit(message.name, makeEvent(), ...(message.args ?? []));
      reply(message, {});
      return;
    }
    case 'window-action': {
      // The user acting on the window; the answer is its state afterwards (null once closed).
      const win = windows.get(message.window);
      if (message.action === 'close') win?.close();
      if (message.action === 'setBounds') win?.setBounds(message.bounds);
      if (message.action === 'maximize') win?.maximize();
      if (message.action === 'unmaximize') win?.unmaximize();
      if (message.action === 'minimize') win?.minimize();
      if (message.action === 'restore') win?.restore();
      reply(message, win && !win.isDestroyed() ? win.state() : null);
      return;
    }
    case 'quit':
      app.quit();
      return;
  }
}

process.on('message', (message) => void fromHarness(/** @type {any} */ (message)));

import { BrowserWindow } from 'electron';
import { DEFAULT_SIZE, MIN_SIZE, type Rect, type Size } from './window-state';

export interface WindowOptions {
  preloadFile: string;
  rendererFile: string;
  /** `npm run dev` only: the Vite dev server's page instead of the bundled file. */
  devServerUrl?: string;
  /** The renderer's first route, as a location hash without `#` (a deep link's place). */
  hash?: string;
  /**
   * Where the window opens and how big (`placeWindow` in window-state.ts: the saved normal bounds,
   * fitted to the displays there are now). Without it: the default size, centered by Electron.
   */
  bounds?: Rect;
  /** Maximized once shown (on the display its normal bounds are on). */
  maximized?: boolean;
  /** Default MIN_SIZE; smaller only on a display whose work area is smaller. */
  minSize?: Size;
}

/**
 * The one app window: an isolated, sandboxed renderer without Node. Its webPreferences are written
 * out here, literally and only here, so the static scanner (Electronegativity) sees them;
 * test/main/window.test.ts holds them to Electron's security checklist.
 */
export function createMainWindow(options: WindowOptions): BrowserWindow {
  const { bounds, minSize = MIN_SIZE } = options;
  const win = new BrowserWindow({
    ...(bounds ? { x: bounds.x, y: bounds.y } : {}),
    width: bounds?.width ?? DEFAULT_SIZE.width,
    height: bounds?.height ?? DEFAULT_SIZE.height,
    minWidth: minSize.width,
    minHeight: minSize.height,
    show: false,
    title: 'Bounty Desk',
    webPreferences: {
      preload: options.preloadFile,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      // The description editor and the reply box are checked (languages: spellcheck.ts);
      // fields that hold addresses, keys or vectors turn it off themselves (spellCheck={false}).
      spellcheck: true,
      safeDialogs: true,
      // Middle-click would otherwise try to open a link in a new window (denied anyway).
      disableBlinkFeatures: 'Auxclick',
    },
  });
  win.once('ready-to-show', () => {
    if (options.maximized) win.maximize();
    win.show();
  });
  if (options.devServerUrl) {
    void win.loadURL(
      options.hash ? `${options.devServerUrl}#${options.hash}` : options.devServerUrl,
    );
  } else {
    void win.loadFile(options.rendererFile, options.hash ? { hash: options.hash } : {});
  }
  return win;
}

/** Restores, shows and focuses a window (second instance, tray, notification click). */
export function focusWindow(
  win: Pick<BrowserWindow, 'isMinimized' | 'restore' | 'show' | 'focus'>,
): void {
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}

/** A question main asks in a message box; resolves with the index of the chosen button. */
export type Ask = (options: {
  message: string;
  detail?: string;
  buttons: string[];
  defaultId: number;
  cancelId: number;
}) => Promise<number>;

/**
 * The page refused to unload: a save of what the researcher typed was refused (a full disk) and
 * the text lives only in the window. Closing (or quitting) asks first; keeping the window is the
 * default, and "Close anyway" closes it without asking again.
 */
export function askBeforeLosingText(
  win: Pick<BrowserWindow, 'webContents' | 'destroy' | 'isDestroyed'>,
  ask: Ask,
): void {
  win.webContents.on('will-prevent-unload', () => {
    void ask({
      message: 'What you typed last is not saved yet',
      detail:
        'Your disk is full, so the last changes could not be saved. Free some space and keep the window open: they are saved by themselves. Closing now loses them.',
      buttons: ['Keep the window open', 'Close anyway'],
      defaultId: 0,
      cancelId: 0,
    }).then((choice) => {
      if (choice === 1 && !win.isDestroyed()) win.destroy();
    });
  });
}

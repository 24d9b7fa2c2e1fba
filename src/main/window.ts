import { BrowserWindow } from 'electron';

export interface WindowOptions {
  preloadFile: string;
  rendererFile: string;
  /** `npm run dev` only: the Vite dev server's page instead of the bundled file. */
  devServerUrl?: string;
  /** The renderer's first route, as a location hash without `#` (a deep link's place). */
  hash?: string;
}

/**
 * The one app window. The webPreferences are written out here, literally, so the static scanner
 * sees them; `secureWebPreferences()` in security.ts stays the tested source of truth and
 * test/main/window.test.ts asserts that both are equal.
 */
export function createMainWindow(options: WindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
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
      spellcheck: false,
      safeDialogs: true,
      disableBlinkFeatures: 'Auxclick',
    },
  });
  win.once('ready-to-show', () => win.show());
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

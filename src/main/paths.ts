import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sqliteBindingPath } from '@engine/store/sqlite-binding-path';

export interface AppPaths {
  /** The engine's data folder: the account record and one SQLite mirror per account. */
  dataDir: string;
  /** The embedded sandbox's state and file bytes. */
  sandboxDir: string;
  /** main's own small settings: the sandbox choice. */
  choiceFile: string;
  /** The window's last size, position and maximized state (src/main/window-state.ts). */
  windowStateFile: string;
  /** The diagnostics logs of main and the engine (`main.log`, `engine.log`, rotated). */
  logDir: string;
  preloadFile: string;
  rendererFile: string;
  rendererUrl: string;
  /** The tray icon, copied next to the main bundle at build time (electron.vite.config.ts). */
  iconFile: string;
  /** Entry points of the app's own processes, built next to the main bundle. */
  engineEntry: string;
  sandboxEntry: string;
}

/**
 * Every path main uses. `userData` is `app.getPath('userData')`; `bundleDir` is the folder of the
 * built main bundle (`out/main`), next to `out/preload` and `out/renderer`.
 */
export function appPaths(userData: string, bundleDir: string): AppPaths {
  const rendererFile = join(bundleDir, '..', 'renderer', 'index.html');
  return {
    dataDir: join(userData, 'data'),
    sandboxDir: join(userData, 'sandbox'),
    choiceFile: join(userData, 'shell.json'),
    windowStateFile: join(userData, 'window-state.json'),
    logDir: join(userData, 'logs'),
    preloadFile: join(bundleDir, '..', 'preload', 'index.cjs'),
    rendererFile,
    rendererUrl: pathToFileURL(rendererFile).href,
    iconFile: join(bundleDir, 'icon.png'),
    engineEntry: join(bundleDir, 'engine.js'),
    sandboxEntry: join(bundleDir, 'sandbox.js'),
  };
}

/**
 * The SQLite binding the engine loads: under `npm start` (real Electron, not packaged) the one
 * `npm start`'s first step built for this Electron in the project's `.native` folder; a packaged
 * app (electron-builder rebuilt better-sqlite3 inside it) and plain Node use better-sqlite3's own.
 */
export function engineSqliteBinding(
  app: { isPackaged: boolean; getAppPath(): string },
  versions: NodeJS.ProcessVersions = process.versions,
): string | undefined {
  const electron = versions.electron;
  if (app.isPackaged || !electron) return undefined;
  return sqliteBindingPath(app.getAppPath(), 'electron', electron);
}

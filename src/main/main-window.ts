/**
 * The one app window over its life: created where it was last time (on the displays there are
 * now), its placement saved, its right-click menu, and whether its page has loaded, which deep
 * links wait for. Events reach the renderer only through a window that is still there.
 */
import { clipboard, Menu, screen, type BrowserWindow } from 'electron';
import type { Logger } from '@engine/log/logger';
import { eventChannel, type BridgeEventName, type BridgeEvents } from '@shared/bridge/contract';
import { contextMenuTemplate } from './context-menu';
import type { AppPaths } from './paths';
import { askBeforeLosingText, createMainWindow, focusWindow, type Ask } from './window';
import { restorePlacement, trackWindowState, writeWindowState } from './window-state';

export interface MainWindowDeps {
  paths: AppPaths;
  /** `npm run dev` only: the Vite dev server's page instead of the bundled file. */
  devServerUrl: string | undefined;
  log: Logger;
  isReady(): boolean;
  ask: Ask;
  /** The page finished loading: what waited for it may be sent now. */
  onLoaded(): void;
}

export class MainWindow {
  private win: BrowserWindow | null = null;
  private loaded = false;

  constructor(private readonly deps: MainWindowDeps) {}

  /** The window, or null once it has closed. */
  get current(): BrowserWindow | null {
    return this.win;
  }

  /** Where the window stands, for the deep links' navigator. */
  state(): 'not-ready' | 'none' | 'loading' | 'loaded' {
    return !this.deps.isReady()
      ? 'not-ready'
      : !this.win || this.win.isDestroyed()
        ? 'none'
        : this.loaded
          ? 'loaded'
          : 'loading';
  }

  send<E extends BridgeEventName>(event: E, payload: BridgeEvents[E]): void {
    if (this.win && !this.win.isDestroyed())
      this.win.webContents.send(eventChannel(event), payload);
  }

  /** The window, created at `hash` (a deep link's place) when there is none. */
  show(hash?: string): BrowserWindow {
    if (this.win && !this.win.isDestroyed()) {
      focusWindow(this.win);
      return this.win;
    }
    const { paths, devServerUrl, log } = this.deps;
    // Where it was last time, on the displays there are now (`screen` needs a ready app).
    const placement = this.deps.isReady()
      ? restorePlacement(
          paths.windowStateFile,
          { displays: screen.getAllDisplays(), primary: screen.getPrimaryDisplay() },
          log,
        )
      : {};
    const created = createMainWindow({
      ...paths,
      ...(devServerUrl ? { devServerUrl } : {}),
      ...(hash ? { hash } : {}),
      ...placement,
    });
    trackWindowState(created, {
      save: (state) => writeWindowState(paths.windowStateFile, state),
      log,
    });
    this.win = created;
    askBeforeLosingText(created, (options) => this.deps.ask(options));
    this.loaded = false;
    created.webContents.on('did-finish-load', () => {
      this.loaded = true;
      this.deps.onLoaded();
    });
    created.on('closed', () => (this.win = null));
    // Electron shows no right-click menu of its own: this one, from what Chromium says was
    // clicked (src/main/context-menu.ts).
    created.webContents.on('context-menu', (_event, params) => {
      const items = contextMenuTemplate(params, {
        replaceMisspelling: (word) => created.webContents.replaceMisspelling(word),
        addToDictionary: (word) =>
          void created.webContents.session.addWordToSpellCheckerDictionary(word),
        copyLink: (url) => clipboard.writeText(url),
      });
      if (items.length > 0) Menu.buildFromTemplate(items).popup({ window: created });
    });
    // A new window shows itself once its page is ready (no blank flash, and maximized first
    // when it was): only an existing one is brought to the front here.
    return created;
  }
}

import { execFile } from 'node:child_process';
import { rm, symlink } from 'node:fs/promises';
import { release } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import type { BrowserWindow } from 'electron';
import {
  app,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  Notification,
  screen,
  session,
  shell,
  Tray,
  utilityProcess,
} from 'electron';
import { DEEP_LINK_SCHEME, targetHash } from './rules/deep-link';
import { createFileLogger } from '../engine/log/logger';
import { eventChannel, type BridgeEventName, type BridgeEvents } from '../shared/bridge/contract';
import { createBridgeCalls } from './bridge-calls';
import { commandLineArgs, runCommandLine } from './command-line';
import { AppNavigator } from './deep-links';
import { exportDiagnostics } from './diagnostics';
import { EngineClient } from './engine-client';
import { toBridgeError } from './errors';
import { FileTokens } from './file-tokens';
import { forwardEvents, registerBridge } from './ipc';
import { contextMenuTemplate } from './context-menu';
import { menuTemplate } from './menu';
import { wireNotifications } from './notifications';
import { appPaths, engineSqliteBinding } from './paths';
import { SandboxAccount } from './sandbox-account';
import { sandboxInProcess } from './sandbox-launcher';
import { installCommand } from './install-command';
import { hardenSession, hardenWebContents } from './security';
import { setUpSpellChecker } from './spellcheck';
import { createTray } from './tray';
import { Updates } from './updates';
import { askBeforeLosingText, createMainWindow, focusWindow } from './window';
import { restorePlacement, trackWindowState, writeWindowState } from './window-state';

const execFileAsync = promisify(execFile);

// Lifecycle only: every piece of behaviour lives in a small module that takes its Electron
// dependencies as parameters. The engine (SQLite, keychain, sync, outbox) and the embedded
// sandbox run in utility processes of their own, so nothing they do can stall a window.

app.enableSandbox();
app.setAppUserModelId('com.bountydesk.app');

const commandLine = commandLineArgs(process.argv);
if (commandLine) {
  // `bountydesk …` (resources/cli): the command line, without a window.
  runCommandLine(
    app,
    (entry) => utilityProcess.fork(entry, [], { serviceName: 'Bounty Desk engine (command line)' }),
    appPaths(app.getPath('userData'), import.meta.dirname).engineEntry,
    commandLine,
  );
} else if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  start();
}

function start(): void {
  const paths = appPaths(app.getPath('userData'), import.meta.dirname);
  const log = createFileLogger({ file: join(paths.logDir, 'main.log'), console: 'warn' });
  const versions = {
    'Bounty Desk': app.getVersion(),
    electron: process.versions['electron'],
    chrome: process.versions['chrome'],
    node: process.versions.node,
    os: `${process.platform} ${release()} ${process.arch}`,
  };
  const { 'Bounty Desk': version, ...runtime } = versions;
  log.info('app', 'started', { version, ...runtime, packaged: app.isPackaged });
  // `npm run dev` serves the renderer from Vite; a packaged or previewed app loads the bundle.
  const devServerUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
  const rendererUrl = devServerUrl ?? paths.rendererUrl;
  let win: BrowserWindow | null = null;
  let loaded = false;

  /** The window, created at `hash` (a deep link's place) when there is none. */
  const showWindow = (hash?: string): BrowserWindow => {
    if (!win || win.isDestroyed()) {
      // Where it was last time, on the displays there are now (`screen` needs a ready app).
      const placement = app.isReady()
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
      win = created;
      askBeforeLosingText(created, (options) => ask(options));
      loaded = false;
      created.webContents.on('did-finish-load', () => {
        loaded = true;
        places.loaded();
      });
      created.on('closed', () => (win = null));
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
    focusWindow(win);
    return win;
  };
  const send = <E extends BridgeEventName>(event: E, payload: BridgeEvents[E]): void => {
    if (win && !win.isDestroyed()) win.webContents.send(eventChannel(event), payload);
  };
  const places = new AppNavigator(
    {
      window: () =>
        !app.isReady()
          ? 'not-ready'
          : !win || win.isDestroyed()
            ? 'none'
            : loaded
              ? 'loaded'
              : 'loading',
      showWindow: (hash) => void showWindow(hash),
      send: (target) =>
        target.kind === 'report'
          ? send('open-report', { reportId: target.reportId })
          : send('open-program', { programId: target.programId }),
      log,
    },
    targetHash,
  );
  // Deep links, registered before `ready`: macOS sends `open-url` for the link that launched the
  // app; Windows and Linux put it in the command line (the first instance's, or a second
  // instance's, handed over by the single-instance lock).
  app.on('open-url', (event, url) => {
    event.preventDefault();
    places.openLink(url, 'open-url');
  });
  app.on('second-instance', (_event, argv) => {
    if (!places.openArgv(argv, 'second-instance')) showWindow();
  });
  places.openArgv(process.argv, 'argv');
  // The installers register the scheme with the OS (electron-builder.yml `protocols`); an
  // installed app claims it again at start. A development build would register the bare
  // Electron binary, so it does not.
  if (app.isPackaged) app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);

  const engine = new EngineClient({
    fork: () =>
      utilityProcess.fork(paths.engineEntry, [], {
        serviceName: 'Bounty Desk engine',
      }),
    options: {
      dataDir: paths.dataDir,
      logDir: paths.logDir,
      sqliteBinding: engineSqliteBinding(app),
    },
    onState: (state) => {
      log[state === 'restarting' ? 'warn' : 'info']('engine', 'state', { state });
      send('engine', { state });
    },
    // The engine cannot run on this machine as installed: the sentence names the fix.
    onFailed: (message) => {
      log.error('engine', 'cannot-start', {});
      console.error(message);
      // The window may already be up: the box says it, the log and the terminal keep it.
      void app
        .whenReady()
        .then(() => dialog.showErrorBox('Bounty Desk cannot start', message))
        .catch(() => undefined);
    },
  });
  const sandbox = new SandboxAccount({
    engine: engine.calls,
    dataDir: paths.sandboxDir,
    choiceFile: paths.choiceFile,
    start: sandboxInProcess(() =>
      utilityProcess.fork(paths.sandboxEntry, [], {
        serviceName: 'Bounty Desk sandbox',
      }),
    ),
  });
  const files = new FileTokens();
  const calls = createBridgeCalls({
    call: (name, args) => engine.call(name, args),
    engine: engine.calls,
    sandbox,
    shell,
    files,
    dialog: {
      showSaveDialog: (options) =>
        win ? dialog.showSaveDialog(win, options) : dialog.showSaveDialog(options),
      showOpenDialog: (options) =>
        win ? dialog.showOpenDialog(win, options) : dialog.showOpenDialog(options),
    },
    downloadsDir: app.getPath('downloads'),
    // Chromium's own printing of what the window shows with print media (the report's print view).
    printToPDF: async () => {
      if (!win || win.isDestroyed()) throw new Error('There is no window to print.');
      return win.webContents.printToPDF({
        pageSize: 'A4',
        printBackground: true,
        generateDocumentOutline: true,
      });
    },
  });
  // The engine starts with the app; the account is restored before any call reaches it.
  const ready = app
    .whenReady()
    .then(() => {
      engine.start();
      return engine.whenReady();
    })
    .then(() => sandbox.restore())
    .catch((error: unknown) => {
      const plain = toBridgeError(error);
      log.error('app', 'restore-failed', { error: plain.name, code: plain.code });
      console.error('Could not restore the account:', plain.message);
    });

  registerBridge({
    ipcMain,
    rendererUrl,
    calls,
    files,
    ready,
    // By name and code only: a message may quote what the page sent.
    onError: (name, error) =>
      log.warn('bridge', 'call-failed', {
        call: name,
        error: error.name,
        code: error.code,
        status: error.status,
        field: error.field,
      }),
  });
  forwardEvents(engine.events, send);
  wireNotifications({
    events: engine.events,
    make: (options) => new Notification(options),
    openReport: (reportId) => places.open({ kind: 'report', reportId }),
  });

  const ask = async (options: {
    message: string;
    detail?: string;
    buttons: string[];
    defaultId: number;
    cancelId: number;
  }): Promise<number> => {
    const box = { type: 'info' as const, ...options };
    const parent = win && !win.isDestroyed() ? win : null;
    return (await (parent ? dialog.showMessageBox(parent, box) : dialog.showMessageBox(box)))
      .response;
  };
  let updateNotice: Notification | null = null; // referenced until clicked, or its click is lost
  const updates = new Updates({
    isPackaged: app.isPackaged,
    currentVersion: app.getVersion(),
    loadUpdater: async () => (await import('electron-updater')).default.autoUpdater,
    log,
    ask,
    notify: (title, body, onClick) => {
      updateNotice = new Notification({ title, body });
      updateNotice.on('click', onClick);
      updateNotice.show();
    },
    setProgress: (fraction) => {
      if (win && !win.isDestroyed()) win.setProgressBar(fraction);
    },
    outbox: async () => ({ unsent: (await engine.calls.getStatus()).unsent }),
    quit: () => app.quit(),
  });
  const diagnostics = async (): Promise<void> => {
    const path = await exportDiagnostics({
      logDir: paths.logDir,
      settingsFile: paths.choiceFile,
      versions,
      engine: { ...engine.calls, ...engine.host },
      updates: () => ({ ...updates.state, packaged: app.isPackaged }),
      dialog: {
        showSaveDialog: (options) =>
          win ? dialog.showSaveDialog(win, options) : dialog.showSaveDialog(options),
      },
      defaultDir: app.getPath('downloads'),
      now: () => new Date(),
      log,
    });
    if (!path) return;
    const answer = await ask({
      message: 'Diagnostics saved.',
      detail: `${path}\nIt holds versions, settings, outbox counts and the logs: no key and no report content. Read it before you send it.`,
      buttons: ['Show in folder', 'OK'],
      defaultId: 1,
      cancelId: 1,
    });
    if (answer === 0) shell.showItemInFolder(path);
  };

  const signOut = async (): Promise<void> => {
    const answer = await dialog.showMessageBox({
      type: 'question',
      buttons: ['Sign out', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
      message: 'Sign out of Bounty Desk?',
      detail:
        'The API key is removed from the keychain. Drafts and unsent changes stay on this computer.',
    });
    if (answer.response !== 0) return;
    await calls.signOut();
    win?.webContents.reload();
  };

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, shell));
  app.on('activate', () => showWindow());
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // On quit: the update decision first (it needs the outbox's count), then the engine and the
  // sandbox stop, then the app quits, and electron-updater installs if it was told to.
  let stopped = false;
  app.on('will-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    stopped = true;
    void updates
      .beforeQuit()
      .catch(() => undefined)
      .then(() => Promise.allSettled([engine.close(), sandbox.close()]))
      .finally(() => {
        log.info('app', 'quit');
        if (!updates.finishQuit()) app.quit();
      });
  });

  void app.whenReady().then(() => {
    hardenSession(session.defaultSession, devServerUrl);
    const languages = setUpSpellChecker(
      session.defaultSession,
      app.getPreferredSystemLanguages(),
      process.platform,
    );
    log.info('app', 'spell-checker', { languages: languages.join(',') || 'os' });
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        menuTemplate({
          isDev: !app.isPackaged,
          isMac: process.platform === 'darwin',
          command: (name) => send('command', { name }),
          signOut: () => void signOut().catch(() => undefined),
          openWebsite: (page) => void calls.openWebsite(page).catch(() => false),
          checkForUpdates: () => void updates.checkFromMenu().catch(() => undefined),
          exportDiagnostics: () =>
            void diagnostics().catch((error: unknown) => {
              log.error('diagnostics', 'failed', { error: toBridgeError(error).name });
              dialog.showErrorBox('Export diagnostics', toBridgeError(error).message);
            }),
          quit: () => app.quit(),
          ...(process.platform === 'darwin' && app.isPackaged
            ? {
                installCommand: () =>
                  void installCommand({
                    resourcesPath: process.resourcesPath,
                    symlink: async (target, path) => {
                      await rm(path, { force: true });
                      await symlink(target, path);
                    },
                    osascript: async (script) => {
                      await execFileAsync('osascript', ['-e', script]);
                    },
                    say: (message, detail) =>
                      ask({ message, detail, buttons: ['OK'], defaultId: 0, cancelId: 0 }),
                  }).catch(() => undefined),
              }
            : {}),
        }),
      ),
    );
    const tray = createTray({
      makeTray: (icon) => new Tray(icon),
      buildMenu: (template) => Menu.buildFromTemplate(template),
      iconPath: paths.iconFile,
      open: () => showWindow(),
      syncNow: () => void ready.then(() => engine.calls.syncNow()).catch(() => undefined),
    });
    engine.events.on('status', (status) => tray.setUnsent(status.unsent));
    app.on('will-quit', () => tray.destroy());
    showWindow(places.takeStartHash());
    void ready.then(() => updates.checkAtStart());
  });
}

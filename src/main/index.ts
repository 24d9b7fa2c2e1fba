import { release } from 'node:os';
import { join } from 'node:path';
import type { BrowserWindow } from 'electron';
import {
  app,
  dialog,
  ipcMain,
  Menu,
  Notification,
  session,
  shell,
  Tray,
  utilityProcess,
} from 'electron';
import { DEEP_LINK_SCHEME, targetHash } from './rules/deep-link';
import { createFileLogger } from '@engine/log/logger';
import type { BridgeEventName, BridgeEvents } from '@shared/bridge/contract';
import { createBridgeCalls } from './bridge-calls';
import { commandLineArgs, runCommandLine } from './command-line';
import { AppNavigator } from './deep-links';
import { askOn, confirmSignOut, fileDialogsOn, saveDiagnostics } from './app-dialogs';
import { setApplicationMenu } from './app-menu';
import { engineAndSandbox } from './app-processes';
import { toBridgeError } from './errors';
import { FileTokens } from './file-tokens';
import { forwardEvents, registerBridge } from './ipc';
import { wireNotifications } from './notifications';
import { appPaths } from './paths';
import { hardenSession, hardenWebContents } from './security';
import { setUpSpellChecker } from './spellcheck';
import { createTray } from './tray';
import { Updates } from './updates';
import { MainWindow } from './main-window';
import { sizeRendererHeapForMemory } from './renderer-heap';

// Lifecycle only: every piece of behaviour lives in a small module that takes its Electron
// dependencies as parameters. The engine (SQLite, keychain, sync, outbox) and the embedded
// sandbox run in utility processes of their own, so nothing they do can stall a window.

app.enableSandbox();
app.setAppUserModelId('com.bountydesk.app');
sizeRendererHeapForMemory(app);

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
  const ask = askOn(() => mainWindow.current);
  const mainWindow: MainWindow = new MainWindow({
    paths,
    devServerUrl,
    log,
    isReady: () => app.isReady(),
    ask,
    onLoaded: () => places.loaded(),
  });
  const showWindow = (hash?: string): BrowserWindow => mainWindow.show(hash);
  const send = <E extends BridgeEventName>(event: E, payload: BridgeEvents[E]): void =>
    mainWindow.send(event, payload);
  const places = new AppNavigator(
    {
      window: () => mainWindow.state(),
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

  const { engine, sandbox } = engineAndSandbox({
    paths,
    log,
    sendState: (state) => send('engine', state),
  });
  const files = new FileTokens();
  const calls = createBridgeCalls({
    call: (name, args) => engine.call(name, args),
    engine: engine.calls,
    sandbox,
    shell,
    files,
    dialog: fileDialogsOn(() => mainWindow.current),
    downloadsDir: app.getPath('downloads'),
    // Chromium's own printing of what the window shows with print media (the report's print view).
    printToPDF: async () => {
      const win = mainWindow.current;
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
      const win = mainWindow.current;
      if (win && !win.isDestroyed()) win.setProgressBar(fraction);
    },
    outbox: async () => ({ unsent: (await engine.calls.getStatus()).unsent }),
    quit: () => app.quit(),
  });
  const diagnostics = (): Promise<void> =>
    saveDiagnostics(
      {
        logDir: paths.logDir,
        settingsFile: paths.choiceFile,
        versions,
        engine: { ...engine.calls, ...engine.host },
        updates: () => ({ ...updates.state, packaged: app.isPackaged }),
        dialog: fileDialogsOn(() => mainWindow.current),
        defaultDir: app.getPath('downloads'),
        now: () => new Date(),
        log,
      },
      ask,
      (path) => shell.showItemInFolder(path),
    );
  const signOut = async (): Promise<void> => {
    if (!(await confirmSignOut())) return;
    await calls.signOut();
    mainWindow.current?.webContents.reload();
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
    setApplicationMenu({
      isDev: !app.isPackaged,
      platform: process.platform,
      isPackaged: app.isPackaged,
      resourcesPath: process.resourcesPath,
      ask,
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
    });
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

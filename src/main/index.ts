import type { BrowserWindow } from 'electron';
import { app, dialog, ipcMain, Menu, Notification, session, shell, Tray } from 'electron';
import { Engine } from '../core/engine';
import { KeytarSecretStore } from '../core/secrets';
import { startSandbox } from '../sandbox';
import { eventChannel, type BridgeEventName, type BridgeEvents } from '../shared/bridge/contract';
import { createBridgeCalls } from './bridge-calls';
import { toBridgeError } from './errors';
import { forwardEvents, registerBridge } from './ipc';
import { menuTemplate } from './menu';
import { wireNotifications } from './notifications';
import { appPaths } from './paths';
import { SandboxAccount } from './sandbox-account';
import { hardenSession, hardenWebContents } from './security';
import { createTray } from './tray';
import { createMainWindow, focusWindow } from './window';

// Lifecycle only: every piece of behaviour lives in a small module that takes its Electron
// dependencies as parameters (unit-tested in test/main with `electron` mocked).

app.enableSandbox();
app.setAppUserModelId('com.bountydesk.app');

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  start();
}

function start(): void {
  const paths = appPaths(app.getPath('userData'), import.meta.dirname);
  // `npm run dev` serves the renderer from Vite; a packaged or previewed app loads the bundle.
  const devServerUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
  const rendererUrl = devServerUrl ?? paths.rendererUrl;
  const engine = new Engine({ dataDir: paths.dataDir, secrets: new KeytarSecretStore() });
  const sandbox = new SandboxAccount({
    engine,
    dataDir: paths.sandboxDir,
    choiceFile: paths.choiceFile,
    start: startSandbox,
  });
  let win: BrowserWindow | null = null;

  const showWindow = (): BrowserWindow => {
    if (!win || win.isDestroyed()) {
      win = createMainWindow({ ...paths, ...(devServerUrl ? { devServerUrl } : {}) });
      win.on('closed', () => (win = null));
    }
    focusWindow(win);
    return win;
  };
  const send = <E extends BridgeEventName>(event: E, payload: BridgeEvents[E]): void => {
    if (win && !win.isDestroyed()) win.webContents.send(eventChannel(event), payload);
  };

  const calls = createBridgeCalls({
    engine,
    sandbox,
    shell,
    dialog: {
      showSaveDialog: (options) =>
        win ? dialog.showSaveDialog(win, options) : dialog.showSaveDialog(options),
    },
    downloadsDir: app.getPath('downloads'),
  });
  // The account is restored before any call reaches the engine (calls wait for it).
  const ready = app
    .whenReady()
    .then(() => sandbox.restore())
    .catch((error: unknown) => {
      console.error('Could not restore the account:', toBridgeError(error).message);
    });

  registerBridge({
    ipcMain,
    rendererUrl,
    calls,
    ready,
    onError: (name, error) => console.warn(`bridge ${name}: ${error.name}: ${error.message}`),
  });
  forwardEvents(engine.events, send);
  wireNotifications({
    events: engine.events,
    make: (options) => new Notification(options),
    focusWindow: () => showWindow(),
    openReport: (reportId) => send('open-report', { reportId }),
  });

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
  app.on('second-instance', () => showWindow());
  app.on('activate', () => showWindow());
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  let stopped = false;
  app.on('will-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    stopped = true;
    void Promise.allSettled([engine.close(), sandbox.close()]).finally(() => app.quit());
  });

  void app.whenReady().then(() => {
    hardenSession(session.defaultSession, devServerUrl);
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        menuTemplate({
          isDev: !app.isPackaged,
          isMac: process.platform === 'darwin',
          command: (name) => send('command', { name }),
          signOut: () => void signOut().catch(() => undefined),
          openWebsite: (page) => void calls.openWebsite(page).catch(() => false),
          quit: () => app.quit(),
        }),
      ),
    );
    const tray = createTray({
      makeTray: (icon) => new Tray(icon),
      buildMenu: (template) => Menu.buildFromTemplate(template),
      iconPath: paths.iconFile,
      open: () => showWindow(),
      syncNow: () => void ready.then(() => engine.syncNow()).catch(() => undefined),
    });
    engine.events.on('status', (status) => tray.setUnsent(status.unsent));
    app.on('will-quit', () => tray.destroy());
    showWindow();
  });
}

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
import { eventChannel, type BridgeEventName, type BridgeEvents } from '../shared/bridge/contract';
import { createBridgeCalls } from './bridge-calls';
import { EngineClient } from './engine-client';
import { toBridgeError } from './errors';
import { FileTokens } from './file-tokens';
import { forwardEvents, registerBridge } from './ipc';
import { menuTemplate } from './menu';
import { wireNotifications } from './notifications';
import { appPaths } from './paths';
import { SandboxAccount } from './sandbox-account';
import { sandboxInProcess } from './sandbox-launcher';
import { hardenSession, hardenWebContents } from './security';
import { createTray } from './tray';
import { createMainWindow, focusWindow } from './window';

// Lifecycle only: every piece of behaviour lives in a small module that takes its Electron
// dependencies as parameters. The engine (SQLite, keychain, sync, outbox) and the embedded
// sandbox run in utility processes of their own, so nothing they do can stall a window.

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

  const engine = new EngineClient({
    fork: () =>
      utilityProcess.fork(paths.engineEntry, [], {
        serviceName: 'Bounty Desk engine',
      }),
    options: { dataDir: paths.dataDir },
    onState: (state) => send('engine', { state }),
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
      console.error('Could not restore the account:', toBridgeError(error).message);
    });

  registerBridge({
    ipcMain,
    rendererUrl,
    calls,
    files,
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
      syncNow: () => void ready.then(() => engine.calls.syncNow()).catch(() => undefined),
    });
    engine.events.on('status', (status) => tray.setUnsent(status.unsent));
    app.on('will-quit', () => tray.destroy());
    showWindow();
  });
}

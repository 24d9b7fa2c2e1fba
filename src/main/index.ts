import { app, BrowserWindow, session, shell } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hardenSession, hardenWebContents, secureWebPreferences } from './security';

// Thin shell: windows and lifecycle only. The engine lives in src/core and never imports electron.
const rendererFile = join(import.meta.dirname, '../renderer/index.html');
export const rendererUrl = pathToFileURL(rendererFile).href;

app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  app.quit();
}

app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, shell));

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    show: false,
    webPreferences: secureWebPreferences(join(import.meta.dirname, '../preload/index.cjs')),
  });
  win.once('ready-to-show', () => win.show());
  void win.loadFile(rendererFile);
  return win;
}

app.on('second-instance', () => {
  const [win] = BrowserWindow.getAllWindows();
  if (win) {
    if (win.isMinimized()) win.restore();
    win.focus();
  }
});

void app.whenReady().then(() => {
  hardenSession(session.defaultSession);
  createWindow();
});
app.on('window-all-closed', () => app.quit());

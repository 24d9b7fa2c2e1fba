import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as electron from 'electron';
import { askBeforeLosingText, createMainWindow, focusWindow } from '../../src/main/window';
import { SECURE_WEB_PREFERENCES } from './web-preferences';
import { appPaths } from '../../src/main/paths';
import type { ElectronMock } from './electron-mock';

vi.mock('electron', async () => (await import('./electron-mock')).electronMock());
const { BrowserWindow } = electron as unknown as ElectronMock;

describe('the app window', () => {
  const paths = appPaths('/home/u/.config/Bounty Desk', '/opt/app/out/main');
  beforeEach(() => (BrowserWindow.created.length = 0));

  it("is created with exactly the webPreferences of Electron's security checklist and the preload", () => {
    createMainWindow(paths);
    const [win] = BrowserWindow.created;
    expect(win?.options['webPreferences']).toEqual({
      preload: '/opt/app/out/preload/index.cjs',
      ...SECURE_WEB_PREFERENCES,
    });
    expect(win?.options['show']).toBe(false);
  });

  it('loads the bundled renderer file, or the dev server only when given one', () => {
    createMainWindow(paths);
    createMainWindow({ ...paths, devServerUrl: 'http://localhost:5173/' });
    expect(BrowserWindow.created.map((w) => w.loaded)).toEqual([
      ['/opt/app/out/renderer/index.html'],
      ['http://localhost:5173/'],
    ]);
    expect(paths.rendererUrl).toBe('file:///opt/app/out/renderer/index.html');
    expect(paths.dataDir).toBe('/home/u/.config/Bounty Desk/data');
    expect(paths.sandboxDir).toBe('/home/u/.config/Bounty Desk/sandbox');
    expect(paths.iconFile).toBe('/opt/app/out/main/icon.png');
  });

  it('opens at the placement it is given (bounds, minimum size), maximized before it shows when it was', () => {
    createMainWindow(paths);
    const placed = createMainWindow({
      ...paths,
      bounds: { x: 2100, y: 150, width: 1400, height: 900 },
      maximized: true,
      minSize: { width: 640, height: 480 },
    }) as unknown as InstanceType<typeof BrowserWindow>;
    const [plain] = BrowserWindow.created;
    expect(plain?.options).toMatchObject({
      width: 1200,
      height: 800,
      minWidth: 720,
      minHeight: 480,
    });
    expect(plain?.options).not.toHaveProperty('x');
    expect(placed.options).toMatchObject({
      x: 2100,
      y: 150,
      width: 1400,
      height: 900,
      minWidth: 640,
      minHeight: 480,
      show: false,
    });
    placed.listeners.get('ready-to-show')?.();
    expect(placed.calls).toEqual(['maximize', 'show']);
  });

  it('shows itself once ready, and focusing restores a minimized window', () => {
    const win = createMainWindow(paths) as unknown as InstanceType<typeof BrowserWindow>;
    win.listeners.get('ready-to-show')?.();
    expect(win.calls).toEqual(['show']);
    win.calls = [];
    win.minimized = true;
    focusWindow(win as unknown as electron.BrowserWindow);
    expect(win.calls).toEqual(['restore', 'show', 'focus']);
  });
});

describe('a window whose page refuses to unload (a save the full disk refused)', () => {
  async function refused(choice: number) {
    const { EventEmitter } = await import('node:events');
    const webContents = new EventEmitter();
    let destroyed = false;
    const questions: { message: string; buttons: string[]; defaultId: number }[] = [];
    askBeforeLosingText(
      {
        webContents: webContents as never,
        destroy: () => void (destroyed = true),
        isDestroyed: () => destroyed,
      },
      async (options) => {
        questions.push(options);
        return choice;
      },
    );
    webContents.emit('will-prevent-unload', { preventDefault: () => undefined });
    await new Promise((resolve) => setImmediate(resolve));
    return { destroyed, questions };
  }

  it('asks first, and keeping the window open is the default', async () => {
    const { destroyed, questions } = await refused(0);
    expect(questions).toEqual([
      expect.objectContaining({
        message: 'What you typed last is not saved yet',
        buttons: ['Keep the window open', 'Close anyway'],
        defaultId: 0,
        cancelId: 0,
      }),
    ]);
    expect(destroyed).toBe(false);
  });

  it('"Close anyway" closes it without asking again', async () => {
    expect((await refused(1)).destroyed).toBe(true);
  });
});

import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../renderer/support/ui';
import { AppProcess, type Rect, type StandInDisplay, type WindowStateView } from './app-process';
import { buildApp } from './build';

/**
 * The window's size, position and maximized state through main as built: the user moves, resizes
 * and maximizes the window, the app quits, and the next launch (same userData) opens it there;
 * a position on a display that is gone opens on the primary display. Displays are the stand-in's
 * `screen` (configured per launch); the window's page is not needed, so it loads at once.
 */
describe('window size, position and maximized state across launches', () => {
  const PRIMARY: StandInDisplay = {
    bounds: { x: 0, y: 0, width: 1920, height: 1080 },
    workArea: { x: 0, y: 0, width: 1920, height: 1040 },
  };
  const RIGHT: StandInDisplay = {
    bounds: { x: 1920, y: 0, width: 2560, height: 1440 },
    workArea: { x: 1920, y: 0, width: 2560, height: 1400 },
  };
  /** The default 1200×800, centered in the primary's work area. */
  const CENTERED: Rect = { x: 360, y: 120, width: 1200, height: 800 };

  let userData: string;
  const launched: AppProcess[] = [];

  beforeAll(async () => {
    await buildApp();
  }, 300_000);
  beforeEach(async () => {
    userData = await mkdtemp(join(tmpdir(), 'bounty-desk-window-'));
  });
  afterEach(async () => {
    for (const app of launched.splice(0)) await app.quit().catch(() => undefined);
    await rm(userData, { recursive: true, force: true });
  });
  afterAll(async () => {
    for (const app of launched.splice(0)) app.kill();
  });

  async function launch(displays: StandInDisplay[]) {
    const app = AppProcess.launch({ userData, displays });
    launched.push(app);
    // No browser: the window's page "loads" at once, so main gets ready-to-show and shows it.
    app.attach({
      load: async () => undefined,
      send: () => undefined,
      reload: () => undefined,
      printToPDF: () => Promise.reject(new Error('no browser to print with')),
    });
    await until('the window', () => app.windows.size > 0, 20_000);
    const [info] = [...app.windows.values()];
    if (!info) throw new Error('no window');
    let shown: WindowStateView | null = null;
    await until('the window is shown', async () => {
      shown = await app.actOnWindow(info.id);
      return shown?.visible === true;
    });
    const { x, y, width, height } = info.options as unknown as Rect;
    return {
      app,
      id: info.id,
      /** What main gave the new window: its constructor's bounds. */
      created: { x, y, width, height },
      shown: shown as unknown as WindowStateView,
    };
  }

  type Opened = Awaited<ReturnType<typeof launch>>;

  /** The window was created and shown with `bounds`, not maximized. */
  function expectOpenedAt(opened: Opened, bounds: Rect): void {
    expect(opened.created).toEqual(bounds);
    expect(opened.shown).toMatchObject({ bounds, maximized: false });
  }

  /** The window was created with `normal` bounds and shown maximized over `display`'s work area. */
  function expectOpenedMaximized(opened: Opened, normal: Rect, display: StandInDisplay): void {
    expect(opened.created).toEqual(normal);
    expect(opened.shown).toMatchObject({
      bounds: display.workArea,
      normalBounds: normal,
      maximized: true,
    });
  }

  const stateFile = (): string => join(userData, 'window-state.json');
  const saved = async (): Promise<unknown> =>
    JSON.parse(await readFile(stateFile(), 'utf8').catch(() => 'null'));
  const mainLog = async (): Promise<string> =>
    readFile(join(userData, 'logs', 'main.log'), 'utf8').catch(() => '');

  it('moved and resized onto a second display, then maximized: the next launch opens there, maximized; restored and moved: opens there', async () => {
    const first = await launch([PRIMARY, RIGHT]);
    expectOpenedAt(first, CENTERED);

    // The user drags the window onto the right display and makes it bigger, then maximizes it.
    const onRight = { x: 2100, y: 150, width: 1400, height: 900 };
    expect(
      await first.app.actOnWindow(first.id, { action: 'setBounds', bounds: onRight }),
    ).toMatchObject({ bounds: onRight, maximized: false });
    expect(await first.app.actOnWindow(first.id, { action: 'maximize' })).toMatchObject({
      bounds: RIGHT.workArea,
      normalBounds: onRight,
      maximized: true,
    });
    await first.app.quit();
    expect(await first.app.exited).toBe(0);
    // The normal bounds are saved, not the maximized ones.
    expect(await saved()).toEqual({ bounds: onRight, maximized: true });

    const second = await launch([PRIMARY, RIGHT]);
    expectOpenedMaximized(second, onRight, RIGHT);
    // Restored, it is where it was before maximizing; then the user drags it back left.
    expect(await second.app.actOnWindow(second.id, { action: 'unmaximize' })).toMatchObject({
      bounds: onRight,
      maximized: false,
    });
    const back = { x: 200, y: 90, width: 1000, height: 700 };
    await second.app.actOnWindow(second.id, { action: 'setBounds', bounds: back });
    // Saved once the drag pauses, while the app runs (a crash later loses nothing).
    await until('the drag saved', async () => {
      const now = (await saved()) as { bounds?: Rect } | null;
      return now?.bounds?.x === back.x;
    });
    expect(await saved()).toEqual({ bounds: back, maximized: false });
    // The user closes the window: on Linux and Windows the app quits with it (on macOS it stays).
    expect(await second.app.actOnWindow(second.id, { action: 'close' })).toBeNull();
    if (process.platform === 'darwin') await second.app.quit();
    expect(await second.app.exited).toBe(0);

    const third = await launch([PRIMARY, RIGHT]);
    expectOpenedAt(third, back);
  });

  it('a position on a display that is gone opens at the default size on the primary; a corrupt or hand-edited file opens at the defaults', async () => {
    const docked = await launch([PRIMARY, RIGHT]);
    const onRight = { x: 2500, y: 300, width: 1600, height: 1000 };
    await docked.app.actOnWindow(docked.id, { action: 'setBounds', bounds: onRight });
    await docked.app.quit();
    expect(await saved()).toEqual({ bounds: onRight, maximized: false });

    // The right monitor was unplugged.
    const laptop = await launch([PRIMARY]);
    expectOpenedAt(laptop, CENTERED);
    await laptop.app.quit();
    expect(await saved()).toEqual({ bounds: CENTERED, maximized: false });

    // A file someone edited by hand, or cut short: the defaults, and the reason in the log.
    await writeFile(stateFile(), '{"bounds":{"x":2500,"y":300,"width":');
    const again = await launch([PRIMARY, RIGHT]);
    expect(again.created).toEqual(CENTERED);
    expect(again.shown.visible).toBe(true);
    await again.app.quit();
    expect(await mainLog()).toMatch(/\(window\) state-ignored reason=not-json$/m);

    // Well-formed but far off every display: never opened off-screen.
    const far = { x: 50_000, y: -40_000, width: 1400, height: 900 };
    await writeFile(stateFile(), JSON.stringify({ bounds: far, maximized: true }));
    const edited = await launch([PRIMARY, RIGHT]);
    expectOpenedMaximized(edited, CENTERED, PRIMARY);
  });
});

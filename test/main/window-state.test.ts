/**
 * The window's size, position and maximized state (src/main/window-state.ts): what a state file
 * may hold, where the window opens on the displays there are now, and when the state is saved.
 * Node only, like the module: Electron's displays and window are plain objects here.
 */
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../src/engine/log/logger';
import {
  DEFAULT_SIZE,
  MAX_FILE_BYTES,
  MIN_SIZE,
  parseWindowState,
  placeWindow,
  readWindowState,
  restorePlacement,
  trackWindowState,
  writeWindowState,
  type DisplayLike,
  type Rect,
  type WindowState,
} from '../../src/main/window-state';

/** A 1920×1080 primary with a 40 px taskbar, and a 2560×1440 display to its right. */
const PRIMARY: DisplayLike = { workArea: { x: 0, y: 0, width: 1920, height: 1040 } };
const RIGHT: DisplayLike = { workArea: { x: 1920, y: 0, width: 2560, height: 1400 } };
const CENTERED_ON_PRIMARY: Rect = { x: 360, y: 120, width: 1200, height: 800 };

const state = (bounds: Rect, maximized = false): WindowState => ({ bounds, maximized });

function inside(rect: Rect, area: Rect): boolean {
  return (
    rect.x >= area.x &&
    rect.y >= area.y &&
    rect.x + rect.width <= area.x + area.width &&
    rect.y + rect.height <= area.y + area.height
  );
}

describe('the state file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bounty-desk-window-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('round-trips the normal bounds and the maximized flag, written whole (no temporary left)', async () => {
    const file = join(dir, 'nested', 'window-state.json');
    writeWindowState(file, state({ x: 2100, y: 150, width: 1400, height: 900 }, true));
    expect(readWindowState(file)).toEqual({
      state: state({ x: 2100, y: 150, width: 1400, height: 900 }, true),
      problem: null,
    });
    writeWindowState(file, state({ x: -1500, y: 20, width: 800, height: 600 }));
    expect(readWindowState(file).state).toEqual(
      state({ x: -1500, y: 20, width: 800, height: 600 }),
    );
    expect(await readdir(join(dir, 'nested'))).toEqual(['window-state.json']);
  });

  it('a first run has no file and no problem', () => {
    expect(readWindowState(join(dir, 'none.json'))).toEqual({ state: null, problem: null });
  });

  it.each([
    ['truncated JSON', '{"bounds":{"x":10,"y":', 'not-json'],
    ['not JSON at all', '\u0000\u0001garbage', 'not-json'],
    ['empty', '', 'not-json'],
    ['an array', '[1,2,3,4]', 'invalid'],
    ['null', 'null', 'invalid'],
    ['bounds missing', '{"maximized":true}', 'invalid'],
    ['a string for a number', '{"bounds":{"x":"10","y":0,"width":800,"height":600}}', 'invalid'],
    ['a zero width', '{"bounds":{"x":0,"y":0,"width":0,"height":600}}', 'invalid'],
    ['a negative height', '{"bounds":{"x":0,"y":0,"width":800,"height":-600}}', 'invalid'],
    ['a coordinate far out', '{"bounds":{"x":1e9,"y":0,"width":800,"height":600}}', 'invalid'],
    ['a huge size', '{"bounds":{"x":0,"y":0,"width":1e308,"height":1e308}}', 'invalid'],
  ])('ignores a file with %s (%j)', async (_name, text, problem) => {
    const file = join(dir, 'bad.json');
    await writeFile(file, text);
    expect(readWindowState(file)).toEqual({ state: null, problem });
  });

  it('ignores a file that is far too large, and one that cannot be read', async () => {
    const big = join(dir, 'big.json');
    await writeFile(big, ' '.repeat(MAX_FILE_BYTES + 1));
    expect(readWindowState(big)).toEqual({ state: null, problem: 'too-large' });
    const folder = join(dir, 'folder.json');
    await mkdir(folder);
    expect(readWindowState(folder)).toEqual({ state: null, problem: 'unreadable' });
  });

  it('rounds hand-edited fractions, takes maximized only when exactly true, ignores extra fields', () => {
    expect(
      parseWindowState({
        bounds: { x: 10.4, y: 20.6, width: 1000.5, height: 700, z: 3 },
        maximized: 'yes',
        theme: 'dark',
      }),
    ).toEqual(state({ x: 10, y: 21, width: 1001, height: 700 }));
    expect(
      parseWindowState({ bounds: { x: 0, y: 0, width: 800, height: 600 }, maximized: 1 }),
    ).toEqual(state({ x: 0, y: 0, width: 800, height: 600 }));
  });

  it('restorePlacement logs why a file was ignored (never its content) and opens at the defaults', async () => {
    const file = join(dir, 'corrupt.json');
    await writeFile(file, '{"bounds": "C:\\\\Users\\\\secret"');
    const lines: string[] = [];
    const log: Logger = {
      info: (scope, event, fields) =>
        lines.push(`info ${scope} ${event} ${JSON.stringify(fields)}`),
      warn: (scope, event, fields) =>
        lines.push(`warn ${scope} ${event} ${JSON.stringify(fields)}`),
      error: () => undefined,
    };
    const placement = restorePlacement(file, { displays: [PRIMARY, RIGHT], primary: PRIMARY }, log);
    expect(placement).toEqual({ bounds: CENTERED_ON_PRIMARY, maximized: false, minSize: MIN_SIZE });
    expect(lines[0]).toBe('warn window state-ignored {"reason":"not-json"}');
    expect(lines.join('\n')).not.toContain('secret');
  });
});

describe('placing the window on the displays there are now', () => {
  it('a first run: the default size, centered in the primary display’s work area', () => {
    expect(placeWindow(null, [RIGHT, PRIMARY], PRIMARY)).toEqual({
      bounds: CENTERED_ON_PRIMARY,
      maximized: false,
      minSize: MIN_SIZE,
    });
  });

  it('restores saved bounds exactly where they still fit, on any display', () => {
    const onRight = { x: 2100, y: 150, width: 1400, height: 900 };
    expect(placeWindow(state(onRight, true), [PRIMARY, RIGHT], PRIMARY)).toEqual({
      bounds: onRight,
      maximized: true,
      minSize: MIN_SIZE,
    });
    const negative = { workArea: { x: -1280, y: -200, width: 1280, height: 984 } };
    const left = { x: -1200, y: -150, width: 800, height: 600 };
    expect(placeWindow(state(left), [PRIMARY, negative]).bounds).toEqual(left);
  });

  it('a display that is gone (unplugged): the default size centered on the primary, still maximized if it was', () => {
    const onRight = { x: 2100, y: 150, width: 1400, height: 900 };
    expect(placeWindow(state(onRight, true), [PRIMARY], PRIMARY)).toEqual({
      bounds: CENTERED_ON_PRIMARY,
      maximized: true,
      minSize: MIN_SIZE,
    });
  });

  it('mostly off every display: back to the default; partly off: pulled fully onto its display', () => {
    // 100 of 1000 px wide visible: a tenth of the window.
    expect(
      placeWindow(state({ x: 1820, y: 100, width: 1000, height: 700 }), [PRIMARY]).bounds,
    ).toEqual(CENTERED_ON_PRIMARY);
    // 60% visible, and below the taskbar's edge: moved the least needed.
    expect(
      placeWindow(state({ x: -400, y: 600, width: 1000, height: 700 }), [PRIMARY]).bounds,
    ).toEqual({ x: 0, y: 340, width: 1000, height: 700 });
  });

  it('straddling two displays: on the one holding more of it', () => {
    const straddling = { x: 1500, y: 100, width: 1000, height: 700 }; // 420 px left, 580 px right
    expect(placeWindow(state(straddling), [PRIMARY, RIGHT], PRIMARY).bounds).toEqual({
      x: 1920,
      y: 100,
      width: 1000,
      height: 700,
    });
  });

  it('larger than its display now (a lower resolution): clamped to the work area', () => {
    const small = { workArea: { x: 0, y: 0, width: 1366, height: 728 } };
    expect(placeWindow(state({ x: 0, y: 0, width: 2400, height: 1300 }, true), [small])).toEqual({
      bounds: { x: 0, y: 0, width: 1366, height: 728 },
      maximized: true,
      minSize: MIN_SIZE,
    });
  });

  it('smaller than the minimum (hand-edited): raised to it; on a tiny display the minimum shrinks to fit', () => {
    expect(placeWindow(state({ x: 100, y: 100, width: 50, height: 40 }), [PRIMARY]).bounds).toEqual(
      { x: 100, y: 100, ...MIN_SIZE },
    );
    const tiny = { workArea: { x: 0, y: 0, width: 640, height: 400 } };
    expect(placeWindow(null, [tiny])).toEqual({
      bounds: { x: 0, y: 0, width: 640, height: 400 },
      maximized: false,
      minSize: { width: 640, height: 400 },
    });
  });

  it('ignores displays with unusable work areas; without any display, opens at the default size', () => {
    const broken = [
      { workArea: { x: Number.NaN, y: 0, width: 100, height: 100 } },
      { workArea: { x: 0, y: 0, width: 0, height: 900 } },
    ] as DisplayLike[];
    expect(placeWindow(null, [...broken, PRIMARY]).bounds).toEqual(CENTERED_ON_PRIMARY);
    expect(placeWindow(null, []).bounds).toEqual({ x: 0, y: 0, ...DEFAULT_SIZE });
    expect(placeWindow(null, [RIGHT], broken[0]).bounds).toEqual({
      x: 1920 + 680,
      y: 300,
      ...DEFAULT_SIZE,
    });
  });
});

describe('placement properties (fast-check)', () => {
  const area = fc.record({
    x: fc.integer({ min: -20_000, max: 20_000 }),
    y: fc.integer({ min: -20_000, max: 20_000 }),
    width: fc.integer({ min: 1, max: 8_000 }),
    height: fc.integer({ min: 1, max: 6_000 }),
  });
  const displays = fc.array(
    area.map((workArea) => ({ workArea })),
    { minLength: 1, maxLength: 4 },
  );
  /** Displays side by side, as a desktop lays them out (no two overlap), tops staggered. */
  const sideBySide = fc
    .array(
      fc.record({
        width: fc.integer({ min: 1, max: 8_000 }),
        height: fc.integer({ min: 1, max: 6_000 }),
        y: fc.integer({ min: -3_000, max: 3_000 }),
        gap: fc.nat(2_000),
      }),
      { minLength: 1, maxLength: 4 },
    )
    .chain((sizes) =>
      fc.integer({ min: -20_000, max: 0 }).map((start) => {
        let x = start;
        return sizes.map(({ width, height, y, gap }) => {
          const workArea = { x, y, width, height };
          x += width + gap;
          return { workArea };
        });
      }),
    );
  /** A saved file's content: well-formed states near and far, and anything at all. */
  const savedValue = fc.oneof(
    fc.record({
      bounds: fc.record({
        x: fc.oneof(fc.integer({ min: -25_000, max: 25_000 }), fc.double()),
        y: fc.oneof(fc.integer({ min: -25_000, max: 25_000 }), fc.double()),
        width: fc.oneof(fc.integer({ min: -10, max: 10_000 }), fc.double()),
        height: fc.oneof(fc.integer({ min: -10, max: 10_000 }), fc.double()),
      }),
      maximized: fc.oneof(fc.boolean(), fc.anything()),
    }),
    fc.anything(),
    fc.jsonValue(),
  );

  it('any saved state on any displays: a whole-pixel window lying on one display, its size within the limits', () => {
    fc.assert(
      fc.property(savedValue, displays, fc.nat(3), (value, list, primaryIndex) => {
        const primary = list[primaryIndex % list.length];
        const placed = placeWindow(parseWindowState(value), list, primary);
        const { bounds, minSize } = placed;
        for (const n of Object.values(bounds)) expect(Number.isInteger(n)).toBe(true);
        const home = list.find(
          (d) =>
            inside(bounds, d.workArea) &&
            bounds.width >= Math.min(MIN_SIZE.width, d.workArea.width) &&
            bounds.height >= Math.min(MIN_SIZE.height, d.workArea.height),
        );
        expect(home, JSON.stringify({ value, list, placed })).toBeDefined();
        expect(bounds.width).toBeGreaterThanOrEqual(minSize.width);
        expect(bounds.height).toBeGreaterThanOrEqual(minSize.height);
        expect(minSize.width).toBeLessThanOrEqual(MIN_SIZE.width);
        expect(minSize.height).toBeLessThanOrEqual(MIN_SIZE.height);
      }),
      { numRuns: 2_000 },
    );
  });

  it('a window that lies on a display within the limits is restored exactly, and placing is idempotent', () => {
    fc.assert(
      fc.property(
        sideBySide,
        fc.nat(),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.boolean(),
        (list, index, fw, fh, fx, fy, maximized) => {
          const { workArea: a } = list[index % list.length] as DisplayLike;
          const minW = Math.min(MIN_SIZE.width, a.width);
          const minH = Math.min(MIN_SIZE.height, a.height);
          const width = minW + Math.floor(fw * (a.width - minW));
          const height = minH + Math.floor(fh * (a.height - minH));
          const saved = state(
            {
              x: a.x + Math.floor(fx * (a.width - width)),
              y: a.y + Math.floor(fy * (a.height - height)),
              width,
              height,
            },
            maximized,
          );
          const placed = placeWindow(saved, list);
          expect(placed.bounds).toEqual(saved.bounds);
          expect(placed.maximized).toBe(maximized);
          expect(placeWindow(state(placed.bounds, maximized), list)).toEqual(placed);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('parsing never throws, and what it accepts is whole, finite and in range', () => {
    fc.assert(
      fc.property(savedValue, (value) => {
        const parsed = parseWindowState(value);
        if (!parsed) return;
        for (const n of Object.values(parsed.bounds)) {
          expect(Number.isInteger(n) && Math.abs(n) <= 100_000).toBe(true);
        }
        expect(parsed.bounds.width).toBeGreaterThan(0);
        expect(parsed.bounds.height).toBeGreaterThan(0);
        expect(typeof parsed.maximized).toBe('boolean');
      }),
      { numRuns: 2_000 },
    );
  });
});

/** Electron's BrowserWindow as tracking sees it: events, normal bounds, state flags. */
class FakeWindow extends EventEmitter {
  normal: Rect = { x: 100, y: 100, width: 1200, height: 800 };
  maximized = false;
  minimized = false;
  destroyed = false;
  getNormalBounds(): Rect {
    return { ...this.normal };
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

describe('tracking the window', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function track() {
    vi.useFakeTimers();
    const win = new FakeWindow();
    const saved: WindowState[] = [];
    const warnings: string[] = [];
    const log: Logger = {
      info: () => undefined,
      warn: (scope, event, fields) => warnings.push(`${scope} ${event} ${JSON.stringify(fields)}`),
      error: () => undefined,
    };
    const saveNow = trackWindowState(win, { save: (s) => saved.push(s), log, debounceMs: 500 });
    return { win, saved, warnings, saveNow };
  }

  it('a drag or resize (dozens of events) is saved once, after the user pauses', () => {
    const { win, saved } = track();
    for (let i = 0; i < 30; i++) {
      win.normal = { ...win.normal, x: 100 + i * 10, width: 1200 + i };
      win.emit(i % 2 ? 'move' : 'resize');
      vi.advanceTimersByTime(100);
    }
    expect(saved).toEqual([]);
    vi.advanceTimersByTime(500);
    expect(saved).toEqual([state({ x: 390, y: 100, width: 1229, height: 800 })]);
  });

  it('maximize and unmaximize are saved at once, with the normal bounds, not the maximized ones', () => {
    const { win, saved } = track();
    win.maximized = true; // getNormalBounds keeps the normal bounds while maximized
    win.emit('maximize');
    win.emit('resize'); // the maximized size arrives as a resize too
    expect(saved).toEqual([state({ x: 100, y: 100, width: 1200, height: 800 }, true)]);
    vi.advanceTimersByTime(1_000);
    expect(saved).toHaveLength(1); // unchanged: not written again
    win.maximized = false;
    win.emit('unmaximize');
    expect(saved.at(-1)).toEqual(state({ x: 100, y: 100, width: 1200, height: 800 }));
  });

  it('close saves a pending change at once; nothing after the window is gone', () => {
    const { win, saved } = track();
    win.normal = { x: 5, y: 6, width: 900, height: 700 };
    win.emit('move');
    win.emit('close');
    expect(saved).toEqual([state({ x: 5, y: 6, width: 900, height: 700 })]);
    win.emit('closed');
    win.destroyed = true;
    win.normal = { x: 50, y: 60, width: 900, height: 700 };
    win.emit('move');
    vi.advanceTimersByTime(1_000);
    expect(saved).toHaveLength(1);
  });

  it('a minimized window keeps the maximized flag it had (Windows reports it as not maximized)', () => {
    const { win, saved, saveNow } = track();
    win.maximized = true;
    win.emit('maximize');
    win.minimized = true;
    win.maximized = false;
    win.normal = { ...win.normal, x: 300 };
    saveNow();
    expect(saved.at(-1)).toEqual(state({ x: 300, y: 100, width: 1200, height: 800 }, true));
  });

  it('a failed save is logged by its code and never thrown into Electron; the next change tries again', () => {
    vi.useFakeTimers();
    const win = new FakeWindow();
    const warnings: string[] = [];
    let fail = true;
    const saved: WindowState[] = [];
    trackWindowState(win, {
      save: (s) => {
        if (fail)
          throw Object.assign(new Error('ENOSPC: no space left, write /home/u/x'), {
            code: 'ENOSPC',
          });
        saved.push(s);
      },
      log: {
        info: () => undefined,
        warn: (scope, event, fields) =>
          warnings.push(`${scope} ${event} ${JSON.stringify(fields)}`),
        error: () => undefined,
      },
    });
    expect(() => win.emit('maximize')).not.toThrow();
    expect(warnings).toEqual(['window state-not-saved {"error":"Error","code":"ENOSPC"}']);
    fail = false;
    win.emit('close');
    expect(saved).toHaveLength(1);
  });

  it('writes through to the file main uses, which the next start reads back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bounty-desk-window-'));
    try {
      const file = join(dir, 'window-state.json');
      const win = new FakeWindow();
      trackWindowState(win, { save: (s) => writeWindowState(file, s) });
      expect(existsSync(file)).toBe(false);
      win.normal = { x: 2100, y: 150, width: 1400, height: 900 };
      win.maximized = true;
      win.emit('maximize');
      expect(restorePlacement(file, { displays: [PRIMARY, RIGHT] })).toEqual({
        bounds: { x: 2100, y: 150, width: 1400, height: 900 },
        maximized: true,
        minSize: MIN_SIZE,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '@engine/log/logger';

// The window's size, position and maximized state across launches. Node only (no electron
// import): main hands in Electron's displays and its window, so every rule here is unit-tested.
//
// Coordinates are Electron's: DIPs in one desktop space, a display's `workArea` being the part
// that taskbars, docks and menu bars leave free.

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

/** What placement needs of an Electron `Display`. */
export interface DisplayLike {
  workArea: Rect;
}

/** What is saved: the normal (not maximized) bounds, and whether the window was maximized. */
export interface WindowState {
  bounds: Rect;
  maximized: boolean;
}

/** Where and how the window opens. */
export interface Placement {
  bounds: Rect;
  maximized: boolean;
  /** The window's minimum size: MIN_SIZE, or the work area where that is smaller. */
  minSize: Size;
}

export const DEFAULT_SIZE: Readonly<Size> = { width: 1200, height: 800 };
export const MIN_SIZE: Readonly<Size> = { width: 720, height: 480 };
/**
 * Saved bounds are restored on a display when at least this share of the window's area lies in
 * its work area (and then pulled fully inside); less than that on every display (its monitor was
 * unplugged, the resolution changed) and the window opens at the default size, centered on the
 * primary display.
 */
export const MIN_VISIBLE_SHARE = 0.25;
/** No real desktop is this far out; a larger number in the file is someone's edit. */
export const MAX_COORDINATE = 100_000;
/** The file is a few dozen bytes; anything much larger is not ours. */
export const MAX_FILE_BYTES = 16 * 1024;
/** Electron's answer when it has no display (never on a real machine). */
const FALLBACK_AREA: Readonly<Rect> = { x: 0, y: 0, ...DEFAULT_SIZE };

// ---- reading and writing ------------------------------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A finite number within ±MAX_COORDINATE, rounded to a whole DIP; null for anything else. */
function coordinate(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  if (Math.abs(value) > MAX_COORDINATE) return null;
  return Math.round(value);
}

/** A rectangle with whole coordinates and a size of at least 1×1, or null. */
export function parseRect(value: unknown): Rect | null {
  if (!isRecord(value)) return null;
  const x = coordinate(value['x']);
  const y = coordinate(value['y']);
  const width = coordinate(value['width']);
  const height = coordinate(value['height']);
  if (x === null || y === null || width === null || height === null) return null;
  if (width < 1 || height < 1) return null;
  return { x, y, width, height };
}

/**
 * The state in a parsed file, validated: bounds of four finite numbers in range with a positive
 * size, and `maximized` only when it is exactly `true`. Anything else is null (defaults).
 */
export function parseWindowState(value: unknown): WindowState | null {
  if (!isRecord(value)) return null;
  const bounds = parseRect(value['bounds']);
  if (!bounds) return null;
  return { bounds, maximized: value['maximized'] === true };
}

export type ReadProblem = 'unreadable' | 'too-large' | 'not-json' | 'invalid';

/**
 * The saved state, or null with the reason it was ignored (none for a first run without a file).
 * Never throws: a corrupt, truncated, huge or hand-edited file gives the defaults.
 */
export function readWindowState(file: string): {
  state: WindowState | null;
  problem: ReadProblem | null;
} {
  let text: string;
  try {
    if (statSync(file).size > MAX_FILE_BYTES) return { state: null, problem: 'too-large' };
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return { state: null, problem: missing ? null : 'unreadable' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { state: null, problem: 'not-json' };
  }
  const state = parseWindowState(parsed);
  return state ? { state, problem: null } : { state: null, problem: 'invalid' };
}

/**
 * Writes the state whole or not at all (a temporary file renamed over the old one). Synchronous:
 * it is a few bytes, and the last save happens while the window closes, just before the app quits.
 */
export function writeWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  const { x, y, width, height } = state.bounds;
  writeFileSync(
    temporary,
    `${JSON.stringify({ bounds: { x, y, width, height }, maximized: state.maximized })}\n`,
  );
  renameSync(temporary, file);
}

// ---- placement ----------------------------------------------------------------------------------

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

function overlap(a: Rect, b: Rect): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

function minSizeIn(area: Rect): Size {
  return {
    width: Math.min(MIN_SIZE.width, area.width),
    height: Math.min(MIN_SIZE.height, area.height),
  };
}

/** `rect` resized into the limits of `area` and moved the least needed to lie fully inside it. */
export function fitInto(rect: Rect, area: Rect): Rect {
  const min = minSizeIn(area);
  const width = clamp(rect.width, min.width, area.width);
  const height = clamp(rect.height, min.height, area.height);
  return {
    x: clamp(rect.x, area.x, area.x + area.width - width),
    y: clamp(rect.y, area.y, area.y + area.height - height),
    width,
    height,
  };
}

/** The default size (or the work area, when smaller), centered in `area`. */
export function centeredIn(area: Rect): Rect {
  const width = Math.min(DEFAULT_SIZE.width, area.width);
  const height = Math.min(DEFAULT_SIZE.height, area.height);
  return {
    x: area.x + Math.floor((area.width - width) / 2),
    y: area.y + Math.floor((area.height - height) / 2),
    width,
    height,
  };
}

/**
 * Where the window opens, given what was saved (or null) and the displays now: on the display
 * holding the largest part of the saved bounds, if that is at least MIN_VISIBLE_SHARE of the
 * window, resized to fit its work area and pulled fully inside it; otherwise at the default size,
 * centered on the primary display. The maximized flag is kept either way: the window maximizes on
 * the display its normal bounds are on. Displays with an unusable work area are ignored; the
 * primary is `primary` when usable, else the first display.
 */
export function placeWindow(
  saved: WindowState | null,
  displays: readonly DisplayLike[],
  primary?: DisplayLike,
): Placement {
  const areas = displays.map((d) => parseRect(d.workArea)).filter((a): a is Rect => a !== null);
  const main = (primary && parseRect(primary.workArea)) ?? areas[0] ?? FALLBACK_AREA;
  const maximized = saved?.maximized === true;
  if (saved) {
    let best: Rect | null = null;
    let bestOverlap = 0;
    for (const area of areas) {
      const shared = overlap(saved.bounds, area);
      if (shared > bestOverlap) [best, bestOverlap] = [area, shared];
    }
    const share = bestOverlap / (saved.bounds.width * saved.bounds.height);
    if (best && share >= MIN_VISIBLE_SHARE) {
      return { bounds: fitInto(saved.bounds, best), maximized, minSize: minSizeIn(best) };
    }
  }
  return { bounds: centeredIn(main), maximized, minSize: minSizeIn(main) };
}

/**
 * Reads the state file and places the window on the displays there are now. A file that had to be
 * ignored is logged by its reason (the defaults apply).
 */
export function restorePlacement(
  file: string,
  screen: { displays: readonly DisplayLike[]; primary?: DisplayLike },
  log?: Logger,
): Placement {
  const { state, problem } = readWindowState(file);
  if (problem) log?.warn('window', 'state-ignored', { reason: problem });
  const placement = placeWindow(state, screen.displays, screen.primary);
  log?.info('window', 'placed', {
    restored: state !== null,
    displays: screen.displays.length,
    maximized: placement.maximized,
  });
  return placement;
}

// ---- tracking -----------------------------------------------------------------------------------

/** What tracking needs of an Electron `BrowserWindow`. */
export interface TrackedWindow {
  on(event: string, listener: () => void): unknown;
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  isMinimized(): boolean;
  isDestroyed(): boolean;
}

export interface TrackOptions {
  save(state: WindowState): void;
  /** A failed save (a full disk, a read-only folder) is logged by its code, never thrown. */
  log?: Logger;
  /** Moves and resizes arrive by the dozen while the user drags: saved once they pause. */
  debounceMs?: number;
}

export const SAVE_DEBOUNCE_MS = 500;

/**
 * Saves the window's state as the user changes it: after a pause in moves and resizes, at once on
 * maximize and unmaximize, and when the window closes (the app quitting closes it too). What is
 * saved is always the normal bounds (`getNormalBounds`, whatever the window's state) with the
 * maximized flag; a minimized window keeps the flag it had. An unchanged state is not written
 * again. Returns a function that saves now (for a quit that skips `close`).
 */
export function trackWindowState(win: TrackedWindow, options: TrackOptions): () => void {
  const debounceMs = options.debounceMs ?? SAVE_DEBOUNCE_MS;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let last = '';
  let maximized = false;
  let closed = false;

  const cancel = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  const saveNow = (): void => {
    cancel();
    if (closed || win.isDestroyed()) return;
    try {
      if (!win.isMinimized()) maximized = win.isMaximized();
      const bounds = parseRect(win.getNormalBounds());
      if (!bounds) return;
      const state = { bounds, maximized };
      const text = JSON.stringify(state);
      if (text === last) return;
      options.save(state);
      last = text;
    } catch (error) {
      options.log?.warn('window', 'state-not-saved', {
        error: error instanceof Error ? error.name : 'Error',
        code: (error as NodeJS.ErrnoException | null)?.code,
      });
    }
  };
  const saveLater = (): void => {
    cancel();
    timer = setTimeout(saveNow, debounceMs);
  };

  win.on('resize', saveLater);
  win.on('move', saveLater);
  win.on('maximize', saveNow);
  win.on('unmaximize', saveNow);
  win.on('close', saveNow);
  win.on('closed', () => {
    cancel();
    closed = true;
  });
  return saveNow;
}

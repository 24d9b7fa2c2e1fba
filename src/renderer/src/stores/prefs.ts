import { create } from 'zustand';
import { readRemembered, remember } from '../lib/remembered';

export type Theme = 'light' | 'dark';
const THEME_KEY = 'bountyDesk.theme';

function storedTheme(): Theme | null {
  const v = readRemembered(THEME_KEY);
  return v === 'light' || v === 'dark' ? v : null;
}

function systemTheme(): Theme {
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

const LIST_WIDTH_KEY = 'bountyDesk.reportsListWidth';
/** The reports list's width in the two-pane workspace, in CSS pixels. */
export const LIST_WIDTH = { min: 280, max: 960, initial: 420 } as const;

const clampWidth = (px: number): number =>
  Math.round(Math.min(LIST_WIDTH.max, Math.max(LIST_WIDTH.min, px)));

function storedListWidth(): number {
  const v = Number(readRemembered(LIST_WIDTH_KEY));
  return Number.isFinite(v) && v > 0 ? clampWidth(v) : LIST_WIDTH.initial;
}

interface PrefsState {
  theme: Theme;
  /** True once the user picked a theme; until then the system's preference is followed. */
  themeChosen: boolean;
  toggleTheme(): void;
  followSystem(theme: Theme): void;
  /** The reports list's width beside the open report (remembered across starts). */
  listWidth: number;
  /** Sets the width while it is dragged; `keep` keeps it for the next start too. */
  setListWidth(px: number, keep: boolean): void;
}

export const usePrefs = create<PrefsState>((set, get) => ({
  theme: storedTheme() ?? systemTheme(),
  themeChosen: storedTheme() !== null,
  toggleTheme() {
    const theme: Theme = get().theme === 'dark' ? 'light' : 'dark';
    remember(THEME_KEY, theme);
    set({ theme, themeChosen: true });
  },
  followSystem(theme) {
    if (!get().themeChosen) set({ theme });
  },
  listWidth: storedListWidth(),
  setListWidth(px, keep) {
    const listWidth = clampWidth(px);
    set({ listWidth });
    if (keep) remember(LIST_WIDTH_KEY, String(listWidth));
  },
}));

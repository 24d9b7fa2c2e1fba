import { create } from 'zustand';

export type Theme = 'light' | 'dark';
const THEME_KEY = 'bountyDesk.theme';

function storedTheme(): Theme | null {
  try {
    const v = window.localStorage.getItem(THEME_KEY);
    return v === 'light' || v === 'dark' ? v : null;
  } catch {
    return null;
  }
}

function systemTheme(): Theme {
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

interface PrefsState {
  theme: Theme;
  /** True once the user picked a theme; until then the system's preference is followed. */
  themeChosen: boolean;
  toggleTheme(): void;
  followSystem(theme: Theme): void;
}

export const usePrefs = create<PrefsState>((set, get) => ({
  theme: storedTheme() ?? systemTheme(),
  themeChosen: storedTheme() !== null,
  toggleTheme() {
    const theme: Theme = get().theme === 'dark' ? 'light' : 'dark';
    try {
      window.localStorage.setItem(THEME_KEY, theme);
    } catch {
      // Storage can be unavailable; the choice then lasts for this session.
    }
    set({ theme, themeChosen: true });
  },
  followSystem(theme) {
    if (!get().themeChosen) set({ theme });
  },
}));

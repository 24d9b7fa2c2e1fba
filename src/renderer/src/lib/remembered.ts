/**
 * Small view choices kept across restarts in the page's own storage (theme, split, last screen,
 * the list's order and program). Storage can be unavailable (a locked profile, a full disk): the
 * choice then lasts for the session, and a missing or unreadable value reads as null.
 */
export function readRemembered(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Keeps `value` under `key`; null forgets it. */
export function remember(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // See above: the choice lasts for this session.
  }
}

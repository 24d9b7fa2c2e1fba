/** Keyboard shortcuts → command names. Pure, so the mapping is unit-tested. */
export type ShortcutAction =
  | {
      kind: 'command';
      name: 'new-report' | 'save-now' | 'send-reply' | 'sync-now' | 'focus-search';
    }
  | { kind: 'navigate'; section: 'programs' | 'reports' | 'account' };

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

export function shortcutFor(e: KeyLike, isMac: boolean): ShortcutAction | null {
  const mod = isMac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  if (!mod || e.altKey) return null;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (e.shiftKey) return null;
  switch (key) {
    case 'n':
      return { kind: 'command', name: 'new-report' };
    case 's':
      return { kind: 'command', name: 'save-now' };
    case 'Enter':
      return { kind: 'command', name: 'send-reply' };
    case 'r':
      return { kind: 'command', name: 'sync-now' };
    case 'f':
      return { kind: 'command', name: 'focus-search' };
    case '1':
      return { kind: 'navigate', section: 'programs' };
    case '2':
      return { kind: 'navigate', section: 'reports' };
    case '3':
      return { kind: 'navigate', section: 'account' };
    default:
      return null;
  }
}

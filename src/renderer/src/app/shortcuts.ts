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

/** Each key that, with Ctrl (⌘ on a Mac) and no other modifier, runs a command or opens a section. */
const SHORTCUTS: ReadonlyMap<string, ShortcutAction> = new Map<string, ShortcutAction>([
  ['n', { kind: 'command', name: 'new-report' }],
  ['s', { kind: 'command', name: 'save-now' }],
  ['Enter', { kind: 'command', name: 'send-reply' }],
  ['r', { kind: 'command', name: 'sync-now' }],
  ['f', { kind: 'command', name: 'focus-search' }],
  ['1', { kind: 'navigate', section: 'programs' }],
  ['2', { kind: 'navigate', section: 'reports' }],
  ['3', { kind: 'navigate', section: 'account' }],
]);

export function shortcutFor(e: KeyLike, isMac: boolean): ShortcutAction | null {
  const mod = isMac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  if (!mod || e.altKey) return null;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (e.shiftKey) return null;
  return SHORTCUTS.get(key) ?? null;
}

/**
 * The right-click menu. Electron shows no context menu unless
 * the app builds one: main builds it from the `context-menu` event's params (what Chromium knows
 * of the place clicked: editable, selection, link, misspelled word and its suggestions). The menu's
 * contents are decided here without Electron, so they are unit-tested; index.ts only wires it.
 */
import { isSafeExternalUrl } from './security';

/** What the menu needs of Electron's `ContextMenuParams`. */
export interface ContextMenuParams {
  isEditable: boolean;
  selectionText: string;
  linkURL: string;
  misspelledWord: string;
  dictionarySuggestions: readonly string[];
  editFlags: { canCut: boolean; canCopy: boolean; canPaste: boolean; canSelectAll: boolean };
}

export interface ContextMenuActions {
  /** `webContents.replaceMisspelling`: the misspelled word becomes `word`. */
  replaceMisspelling(word: string): void;
  /** `session.addWordToSpellCheckerDictionary`: never marked again, on this computer. */
  addToDictionary(word: string): void;
  /** The link's address to the clipboard (never opened from here). */
  copyLink(url: string): void;
}

/** A subset of Electron's `MenuItemConstructorOptions` (roles act on the focused page). */
export type ContextMenuItem =
  | { type: 'separator' }
  | { role: 'cut' | 'copy' | 'paste' | 'selectAll'; label: string; enabled: boolean }
  | { label: string; enabled: boolean; click?: () => void };

/** Chromium offers up to this many; more would push Cut/Copy/Paste off a small screen. */
const MAX_SUGGESTIONS = 5;

/**
 * The menu for one right-click: spelling first (suggestions, "Add to dictionary") on a misspelled
 * word in an editable field, then "Copy link" on a link the app would open, then the editing
 * commands (Cut, Copy, Paste, Select all; each enabled as Chromium says it can run), or Copy and
 * Select all on text that cannot be edited. Empty when there is nothing to offer.
 */
export function contextMenuTemplate(
  params: ContextMenuParams,
  actions: ContextMenuActions,
): ContextMenuItem[] {
  const groups: ContextMenuItem[][] = [];
  const word = params.misspelledWord.trim();
  if (params.isEditable && word !== '') {
    const suggestions = params.dictionarySuggestions.slice(0, MAX_SUGGESTIONS);
    groups.push(
      suggestions.length > 0
        ? suggestions.map((s) => ({
            label: s,
            enabled: true,
            click: () => actions.replaceMisspelling(s),
          }))
        : [{ label: 'No spelling suggestions', enabled: false }],
      [
        {
          label: `Add “${word.length > 40 ? `${word.slice(0, 40)}…` : word}” to dictionary`,
          enabled: true,
          click: () => actions.addToDictionary(word),
        },
      ],
    );
  }
  if (params.linkURL && isSafeExternalUrl(params.linkURL)) {
    const url = params.linkURL;
    const mail = url.toLowerCase().startsWith('mailto:');
    groups.push([
      {
        label: mail ? 'Copy e-mail address' : 'Copy link',
        enabled: true,
        click: () => actions.copyLink(mail ? decodeMailto(url) : url),
      },
    ]);
  }
  const flags = params.editFlags;
  if (params.isEditable) {
    groups.push(
      [
        { role: 'cut', label: 'Cut', enabled: flags.canCut },
        { role: 'copy', label: 'Copy', enabled: flags.canCopy },
        { role: 'paste', label: 'Paste', enabled: flags.canPaste },
      ],
      [{ role: 'selectAll', label: 'Select all', enabled: flags.canSelectAll }],
    );
  } else {
    const copy: ContextMenuItem[] =
      params.selectionText.trim() !== ''
        ? [{ role: 'copy', label: 'Copy', enabled: flags.canCopy }]
        : [];
    groups.push([...copy, { role: 'selectAll', label: 'Select all', enabled: flags.canSelectAll }]);
  }
  return groups
    .filter((g) => g.length > 0)
    .flatMap((g, i) => (i === 0 ? g : [{ type: 'separator' } as const, ...g]));
}

/** `mailto:a@b.example?subject=…` → `a@b.example`. */
function decodeMailto(url: string): string {
  const address = url.slice('mailto:'.length).split('?')[0] ?? '';
  try {
    return decodeURIComponent(address);
  } catch {
    return address;
  }
}

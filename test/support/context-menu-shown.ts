/** A context menu item in what every menu of the app shares: a separator, or a labelled item. */
type MenuItem = { type: 'separator' } | { label: string; enabled: boolean };

/** A context menu as a user reads it: labels, `-` for a separator, `(off)` for a disabled item. */
export function menuAsShown(items: readonly MenuItem[]): string[] {
  return items.map((i) => ('type' in i ? '-' : `${i.label}${i.enabled ? '' : ' (off)'}`));
}

/**
 * How a right-click in an editable field with nothing selected ends, as menuAsShown reads it: the
 * editing commands, Cut and Copy off, Paste on.
 */
export const EDITING_NOTHING_SELECTED = ['Cut (off)', 'Copy (off)', 'Paste', '-', 'Select all'];

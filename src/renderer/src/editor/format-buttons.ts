/** The toolbar's formatting buttons, one definition each, and their shortcuts as a person reads them. */
export type FormatAction =
  | 'bold'
  | 'italic'
  | 'code'
  | 'link'
  | 'heading'
  | 'bullet-list'
  | 'numbered-list'
  | 'quote'
  | 'code-block'
  | 'table';

export interface FormatButton {
  action: FormatAction;
  label: string;
  /** What the button shows (a short glyph; the label is its name). */
  face: string;
  /** ProseMirror's key name (`Mod` is Ctrl, or Cmd on macOS). */
  keys: string;
  /** A toggle: pressed where the selection has the format, and a click takes it off again. */
  toggle?: true;
}

export const FORMAT_BUTTONS: readonly FormatButton[] = [
  { action: 'bold', toggle: true, label: 'Bold', face: 'B', keys: 'Mod-b' },
  { action: 'italic', toggle: true, label: 'Italic', face: 'I', keys: 'Mod-i' },
  { action: 'code', toggle: true, label: 'Code', face: '</>', keys: 'Mod-e' },
  { action: 'link', label: 'Link', face: 'Link', keys: 'Mod-k' },
  { action: 'heading', toggle: true, label: 'Heading', face: 'H', keys: 'Mod-Alt-2' },
  { action: 'bullet-list', toggle: true, label: 'Bulleted list', face: '•', keys: 'Mod-Alt-8' },
  // '⒈' (U+2488) is missing from common fonts and showed as an empty box; '1.' as a face is a
  // visible label not in the accessible name (WCAG 2.5.3). '№' is in every common UI font.
  { action: 'numbered-list', toggle: true, label: 'Numbered list', face: '№', keys: 'Mod-Alt-7' },
  { action: 'quote', toggle: true, label: 'Quote', face: '❝', keys: 'Mod-Shift-b' },
  { action: 'code-block', label: 'Code block', face: '{ }', keys: 'Mod-Alt-c' },
  { action: 'table', label: 'Table', face: '▦', keys: 'Mod-Alt-t' },
];

const isMac = (): boolean => /Mac|iPhone|iPad/.test(navigator.platform);

/** A shortcut as the user reads it ("Ctrl+Alt+2", "⌘⌥2"). */
export function shortcutText(keys: string): string {
  const mac = isMac();
  return keys
    .split('-')
    .map((part) => {
      if (part === 'Mod') return mac ? '⌘' : 'Ctrl';
      if (part === 'Alt') return mac ? '⌥' : 'Alt';
      if (part === 'Shift') return mac ? '⇧' : 'Shift';
      return part.toUpperCase();
    })
    .join(mac ? '' : '+');
}

/** The shortcut in `aria-keyshortcuts` form ("Control+Alt+2"). */
export function ariaShortcut(keys: string): string {
  return keys
    .split('-')
    .map((part) =>
      part === 'Mod'
        ? isMac()
          ? 'Meta'
          : 'Control'
        : part.length === 1
          ? part.toUpperCase()
          : part,
    )
    .join('+');
}

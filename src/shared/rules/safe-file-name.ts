const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;

/**
 * A name written to the user's disk from text others chose (an attachment's name, a title): no
 * folder parts, no control or reserved characters, no leading dots, no Windows device names, at
 * most `maxLength` characters (keeping the extension). Main's save dialogs and the engine's
 * exported files both use it.
 */
export function safeFileName(
  raw: string,
  { maxLength = 180, fallback = 'attachment' }: { maxLength?: number; fallback?: string } = {},
): string {
  let name = raw
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f<>:"/\\|?*\u202a-\u202e\u2066-\u2069]/g, '_')
    .replace(/^[\s.]+/, '')
    .replace(/[\s.]+$/, '')
    .trim();
  if (WINDOWS_RESERVED.test(name)) name = `_${name}`;
  if (name.length > maxLength) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = name.slice(0, maxLength - ext.length) + ext;
  }
  return name || fallback;
}

/**
 * Names written to the user's disk from text others chose (a title, an attachment's name): no
 * folder parts, no control or reserved characters, no leading dots, no Windows device names.
 */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;

export function safeName(raw: string, fallback = 'file'): string {
  let name = raw
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f<>:"/\\|?*\u202a-\u202e\u2066-\u2069]/g, '_')
    .replace(/^[\s.]+/, '')
    .replace(/[\s.]+$/, '')
    .trim();
  if (WINDOWS_RESERVED.test(name)) name = `_${name}`;
  if (name.length > 120) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = name.slice(0, 120 - ext.length) + ext;
  }
  return name || fallback;
}

/** A report's folder: its title's words and the start of its id (titles repeat). */
export function folderName(title: string, reportId: string): string {
  const words = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${words || 'report'}-${reportId.slice(0, 8)}`;
}

/** `name`, or `name (2)`… when taken (case-insensitively: macOS and Windows disks); recorded. */
export function uniqueName(raw: string, taken: Set<string>): string {
  const name = safeName(raw);
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n += 1) candidate = `${stem} (${n})${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

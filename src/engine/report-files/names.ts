import { safeFileName } from '@shared/rules/safe-file-name';

/** A name for the user's disk from text others chose; exported files keep to 120 characters. */
export function safeName(raw: string, fallback = 'file'): string {
  return safeFileName(raw, { maxLength: 120, fallback });
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

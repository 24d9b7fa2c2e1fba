/** Who wrote a message of a report's thread, in words (the API's `author` codes). */
const AUTHOR_NAMES: Readonly<Record<string, string>> = {
  agent: 'Triage agent',
  researcher: 'You',
  founder: 'Program team',
};

/** "Triage agent", "Program team", "You"; a code this version does not know, as written. */
export function authorName(author: string): string {
  return Object.hasOwn(AUTHOR_NAMES, author) ? (AUTHOR_NAMES[author] ?? author) : author;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * A time a person reads in a file that may travel (an exported thread): "3 January 2026, 10:00
 * UTC". In UTC, so the file reads the same on every computer; an unreadable value as written.
 */
export function readableUtc(iso: string | null): string {
  if (iso === null) return 'time unknown';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()] ?? ''} ${d.getUTCFullYear()}, ${hh}:${mm} UTC`;
}

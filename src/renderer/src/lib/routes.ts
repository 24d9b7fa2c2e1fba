/** State-based navigation mirrored in the location hash (never a remote URL). Pure parsing. */

/** A part of a program's page a link may land on (its heading takes the focus). */
export const PROGRAM_SECTIONS = ['policy', 'scope'] as const;
export type ProgramSection = (typeof PROGRAM_SECTIONS)[number];
const isProgramSection = (raw: string): raw is ProgramSection =>
  (PROGRAM_SECTIONS as readonly string[]).includes(raw);

export type Route =
  | { name: 'programs' }
  | { name: 'program'; programId: string; section?: ProgramSection }
  | { name: 'reports' }
  | { name: 'report'; reportId: string }
  | { name: 'payouts' }
  | { name: 'account' };

function decodeSegment(raw: string | undefined): string {
  if (!raw) return '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return '';
  }
}

export function parseHash(hash: string): Route {
  const path = hash.replace(/^#/u, '').replace(/^\/+/u, '');
  const [head, rawId, rawSection] = path.split('/');
  const id = decodeSegment(rawId);
  const section = decodeSegment(rawSection);
  if (head === 'programs' && id)
    return isProgramSection(section)
      ? { name: 'program', programId: id, section }
      : { name: 'program', programId: id };
  if (head === 'reports' && id) return { name: 'report', reportId: id };
  if (head === 'reports') return { name: 'reports' };
  if (head === 'payouts') return { name: 'payouts' };
  if (head === 'account') return { name: 'account' };
  return { name: 'programs' };
}

export function routeHash(route: Route): string {
  switch (route.name) {
    case 'program':
      return `#/programs/${encodeURIComponent(route.programId)}${route.section ? `/${route.section}` : ''}`;
    case 'report':
      return `#/reports/${encodeURIComponent(route.reportId)}`;
    default:
      return `#/${route.name}`;
  }
}

/** Which main section a route belongs to (for the navigation's current link). */
export function sectionOf(route: Route): 'programs' | 'reports' | 'payouts' | 'account' {
  if (route.name === 'program' || route.name === 'programs') return 'programs';
  if (route.name === 'report' || route.name === 'reports') return 'reports';
  if (route.name === 'payouts') return 'payouts';
  return 'account';
}

/** State-based navigation mirrored in the location hash (never a remote URL). Pure parsing. */
export type Route =
  | { name: 'programs' }
  | { name: 'program'; programId: string }
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
  const [head, rawId] = path.split('/');
  const id = decodeSegment(rawId);
  if (head === 'programs' && id) return { name: 'program', programId: id };
  if (head === 'reports' && id) return { name: 'report', reportId: id };
  if (head === 'reports') return { name: 'reports' };
  if (head === 'payouts') return { name: 'payouts' };
  if (head === 'account') return { name: 'account' };
  return { name: 'programs' };
}

export function routeHash(route: Route): string {
  switch (route.name) {
    case 'program':
      return `#/programs/${encodeURIComponent(route.programId)}`;
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

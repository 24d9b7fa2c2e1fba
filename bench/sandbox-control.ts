/** The sandbox's control routes over HTTP, for the benchmarks (accounts, bulk reports, stats). */

export interface Stats {
  requests: number;
  by_status: Record<string, number>;
  by_route: Record<string, number>;
}

interface Account {
  uid: string;
  keys: { scope: 'read' | 'write'; key: string }[];
}

export async function control<T>(
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${url}${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
  return (await res.json()) as T;
}

/** A fresh verified account (payments ready) with `reports` bulk reports, half of them submitted. */
export async function newAccount(url: string, reports: number): Promise<{ key: string }> {
  const account = await control<Account>(url, 'POST', '/__sandbox/accounts', {});
  if (reports > 0) {
    await control(url, 'POST', '/__sandbox/bulk-reports', {
      uid: account.uid,
      count: reports,
      submitted_share: 0.5,
    });
  }
  const key = account.keys.find((k) => k.scope === 'write')?.key;
  if (!key) throw new Error(`account ${account.uid} has no write key`);
  return { key };
}

export const stats = (url: string) => control<Stats>(url, 'GET', '/__sandbox/stats');
export const resetStats = (url: string) => control(url, 'DELETE', '/__sandbox/stats');

const REPORT_ROUTES = [
  'GET /api/reports',
  'GET /api/reports/{report_id}',
  'GET /api/reports/{report_id}/messages',
];

/** List pages, details and threads: what a mirror of the reports costs. */
export function reportRequests(s: Stats): number {
  return REPORT_ROUTES.reduce((sum, route) => sum + (s.by_route[route] ?? 0), 0);
}

/**
 * The fewest requests a mirror of bulk reports can make: every list page, one detail per report
 * and one thread per submitted one (half of them, see newAccount).
 */
export function minimumMirrorRequests(reports: number, page = 100): number {
  return Math.ceil(reports / page) + reports + Math.floor(reports / 2);
}

export function routeSummary(s: Stats): string {
  return Object.entries(s.by_route)
    .sort((a, b) => b[1] - a[1])
    .map(([route, n]) => `${n} ${route}`)
    .join(', ');
}

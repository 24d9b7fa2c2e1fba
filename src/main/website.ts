import type { WebsitePage } from '@shared/bridge/contract';
import type { AccountView } from '@shared/bridge/views';
import { fetchWorldAccounts } from './sandbox-account';

/**
 * Paths of the service's website for the steps the API cannot do. The API document does not
 * publish them: these are assumptions (docs/security.md, "Website links").
 */
export const WEBSITE_PATHS: Record<WebsitePage, string> = {
  'sign-up': '/signup',
  'verify-email': '/verify-email',
  'payment-onboarding': '/settings/payments',
  'api-keys': '/settings/api-keys',
};

/** The website page of a real server: same origin as the API, path from WEBSITE_PATHS. */
export function websiteUrl(serverUrl: string, page: WebsitePage): string {
  return new URL(WEBSITE_PATHS[page], new URL(serverUrl).origin).href;
}

/**
 * The sandbox has no website. Payment onboarding is real there: the sandbox's single-use link,
 * asked for with the demo account's website session (listed by `/__sandbox/world`), makes the
 * payments `ready` when opened. Every other page is the sandbox's account list
 * (`/__sandbox/world`), which shows what sign-up, e-mail verification and key pages would.
 */
export async function sandboxPageUrl(
  sandboxUrl: string,
  uid: string | null,
  page: WebsitePage,
): Promise<string> {
  const world = `${sandboxUrl}/__sandbox/world`;
  if (page !== 'payment-onboarding' || !uid) return world;
  const account = (await fetchWorldAccounts(sandboxUrl)).find((a) => a.uid === uid);
  if (!account) return world;
  const response = await fetch(`${sandboxUrl}/api/payments/onboarding`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${account.session_token}` },
  });
  if (!response.ok) return world; // e.g. onboarding_in_progress: the list shows the status
  const body = (await response.json()) as { url?: unknown };
  return typeof body.url === 'string' && body.url.startsWith(`${sandboxUrl}/`) ? body.url : world;
}

/** Where `openWebsite(page)` goes for the current account; null when there is no server yet. */
export async function websitePageUrl(
  account: AccountView | null,
  page: WebsitePage,
): Promise<string | null> {
  if (!account) return null;
  if (account.sandbox) return sandboxPageUrl(account.serverUrl, account.me?.uid ?? null, page);
  return websiteUrl(account.serverUrl, page);
}

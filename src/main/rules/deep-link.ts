import { LIMITS } from '@shared/api';

/**
 * Links into the app: `bountydesk://report/<report id>` and `bountydesk://program/<program id>`.
 * They come from anywhere (a web page, a chat, another program), so they are parsed strictly:
 * the scheme, one of the two places, one id of the API's shape (a UUID for a report, the API's
 * program id pattern for a program), and nothing else: no query, no fragment, no credentials, no
 * percent-encoding, no second path segment. One trailing slash is accepted because some
 * launchers add it. Anything else is refused with a short reason for the log, never thrown.
 */

export const DEEP_LINK_SCHEME = 'bountydesk';

export type DeepLinkTarget =
  { kind: 'report'; reportId: string } | { kind: 'program'; programId: string };

export type DeepLinkResult = { ok: true; target: DeepLinkTarget } | { ok: false; reason: string };

/** Longer than any valid link by far: a longer argument is refused before any parsing. */
const MAX_LINK_CHARS = 200;
const SHAPE = /^bountydesk:\/\/(report|program)\/([^/?#\s]+)\/?$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PROGRAM_ID = new RegExp(LIMITS.programIdPattern);

export function parseDeepLink(raw: unknown): DeepLinkResult {
  if (typeof raw !== 'string') return { ok: false, reason: 'not-a-string' };
  if (raw.length > MAX_LINK_CHARS) return { ok: false, reason: 'too-long' };
  if (!raw.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}:`))
    return { ok: false, reason: 'not-a-bountydesk-link' };
  const match = SHAPE.exec(raw);
  if (!match) return { ok: false, reason: 'unknown-shape' };
  const place = match[1] ?? '';
  const id = match[2] ?? '';
  // The place is a fixed word: `REPORT` is not accepted, as no link the app makes looks so.
  if (place === 'report') {
    return UUID.test(id)
      ? { ok: true, target: { kind: 'report', reportId: id.toLowerCase() } }
      : { ok: false, reason: 'bad-report-id' };
  }
  if (place === 'program') {
    return PROGRAM_ID.test(id)
      ? { ok: true, target: { kind: 'program', programId: id } }
      : { ok: false, reason: 'bad-program-id' };
  }
  return { ok: false, reason: 'unknown-place' };
}

/** The link for a place in the app (what notifications and tests build). */
export function deepLinkFor(target: DeepLinkTarget): string {
  return target.kind === 'report'
    ? `${DEEP_LINK_SCHEME}://report/${target.reportId}`
    : `${DEEP_LINK_SCHEME}://program/${target.programId}`;
}

/**
 * The links in a command line (Windows and Linux hand a clicked link to the app as an argument,
 * to the first instance through `second-instance`): every argument that names the scheme, parsed.
 * Other arguments (Chromium's switches, the app's path) are not links and are ignored.
 */
export function linksInArgv(argv: readonly unknown[]): DeepLinkResult[] {
  return argv
    .filter((arg): arg is string => typeof arg === 'string' && /^bountydesk:/i.test(arg))
    .map((arg) => parseDeepLink(arg));
}

/** The renderer's route for a target, as the window's location hash (src/renderer/src/lib/routes.ts). */
export function targetHash(target: DeepLinkTarget): string {
  return target.kind === 'report'
    ? `/reports/${encodeURIComponent(target.reportId)}`
    : `/programs/${encodeURIComponent(target.programId)}`;
}

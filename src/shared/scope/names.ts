/**
 * Names as the scope guard compares them: host names checked against the public suffix list,
 * listed paths, name patterns, code hosts and S3 buckets, and the targets a name or URL is.
 */
import { parse as parseDomain } from 'tldts';
import type { ScopeTarget } from './types';

/**
 * Top-level names reserved for documentation, tests and private networks (RFC 2606, RFC 6761,
 * ICANN's `.internal`): not in the public suffix list, yet real in program scopes.
 */
const SPECIAL_USE = new Set(['example', 'test', 'invalid', 'localhost', 'local', 'internal']);

/** A host name: a public suffix (tldts) or a special-use one; `report.pdf` is neither. */
export function isHost(name: string): boolean {
  const parsed = parseDomain(name);
  if (parsed.domain !== null && (parsed.isIcann === true || parsed.isPrivate === true)) return true;
  const labels = name.split('.');
  return labels.length >= 2 && SPECIAL_USE.has(labels[labels.length - 1] ?? '');
}

/** A name as compared: lower case, ASCII (punycode) form, no trailing dot. */
export function asciiName(name: string): string {
  const lower = name.toLowerCase().replace(/\.+$/, '');
  if (/^[\x20-\x7e]*$/.test(lower)) return lower;
  try {
    // `*` is kept by the URL parser, so a wildcard name converts label by label too.
    return new URL(`http://${lower}/`).hostname;
  } catch {
    return lower;
  }
}

/** `/*`, `*` and `/` at the end of a listed path mean "this path and below". */
function pathPrefix(path: string): string {
  // A query or fragment in a listed path narrows a page the path already names: the path is read.
  return (
    path
      .replace(/[?#].*$/, '')
      // `/*` at the end is "and below"; `blog*` keeps its `*`, a glob within the segment.
      .replace(/(?:\/\*+)+$/, '')
      .replace(/\/+$/, '')
  );
}

/**
 * Whether a listed path covers the asset's path: the same path or one below it. A segment in
 * brackets (`cm.com/[locale]/app/*`) is a placeholder the program fills in: any one segment.
 */
export function pathCovers(listed: string, path: string): boolean {
  if (!/[[*]/.test(listed)) return path === listed || path.startsWith(`${listed}/`);
  // A `*` inside a path (`/users/*.json`, `/enquiries/*/x`) stands for any run within a segment.
  const body = listed
    .split('/')
    .map((part) =>
      /^\[[\w-]+\]$/.test(part)
        ? '[^/]+'
        : part
            .split('*')
            .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('[^/]*'),
    )
    .join('/');
  return new RegExp(`^${body}(?:/|$)`).test(path);
}

/**
 * Hosts whose first path segments are an account and a repository, names the host compares
 * without case (`github.com/ValveSoftware` is `github.com/valvesoftware`).
 */
const CODE_HOSTS = new Set([
  'github.com',
  'www.github.com',
  'gitlab.com',
  'www.gitlab.com',
  'bitbucket.org',
  'www.bitbucket.org',
  'codeberg.org',
  'hub.docker.com',
  'www.npmjs.com',
  'pypi.org',
]);

/**
 * The S3 bucket a host and path name, in every form AWS serves it: virtual-hosted
 * (`b.s3.amazonaws.com`, `b.s3.eu-west-1.amazonaws.com`, `b.s3-eu-west-1.amazonaws.com`,
 * `b.s3.dualstack.us-east-1.amazonaws.com`), path-style (`s3.amazonaws.com/b/key`) and `s3://b`.
 */
export function bucketOf(scheme: string, host: string, path: string): string | null {
  if (scheme === 's3') return host.replace(/\*$/, '') || null;
  const virtual = /^(.+)\.s3(?:[.-][a-z0-9-]+)*\.amazonaws\.com(?:\.cn)?$/.exec(host);
  if (virtual?.[1] && !virtual[1].includes('*')) return virtual[1];
  if (/^s3(?:[.-][a-z0-9-]+)*\.amazonaws\.com(?:\.cn)?$/.test(host)) {
    const first = /^\/([a-z0-9][a-z0-9.-]{1,62})(?:\/|$)/.exec(path);
    return first?.[1] ?? null;
  }
  return null;
}

/** A name and its path as the targets they are: the host (or pattern) and, if any, its bucket. */
export function nameTargets(name: string, path = '', scheme = ''): ScopeTarget[] {
  const host = asciiName(name).replace(/^\[|\]$/g, '');
  const bucket = bucketOf(scheme.toLowerCase(), host, path);
  if (scheme.toLowerCase() === 's3') return bucket ? [{ type: 'bucket', name: bucket }] : [];
  const target = hostTarget(host, CODE_HOSTS.has(host) ? path.toLowerCase() : path);
  return [target, ...(bucket ? [{ type: 'bucket' as const, name: bucket }] : [])].filter(
    (t): t is ScopeTarget => t !== null,
  );
}

function hostTarget(name: string, path = ''): ScopeTarget | null {
  const host = asciiName(name).replace(/^\[|\]$/g, '');
  const prefix = pathPrefix(path);
  if (host.startsWith('*.') && !host.slice(2).includes('*')) {
    const domain = host.slice(2);
    return prefix ? { type: 'pattern', pattern: `${host}${prefix}` } : { type: 'wildcard', domain };
  }
  if (host.includes('*')) return { type: 'pattern', pattern: `${host}${prefix}` };
  return prefix ? { type: 'url', host, path: prefix } : { type: 'url', host, path: '' };
}

export function urlTargets(raw: string): ScopeTarget[] {
  const text = raw.replace(/[.,;:!?]+$/, '');
  const m = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^/?#:]*)(?::\d*)?([^?#]*)/i.exec(
    text,
  );
  if (!m?.[2]) return [];
  return nameTargets(m[2], m[3] ?? '', m[1] ?? '');
}

/** A regex for a name pattern: `*` is any run of name characters (dots too, as a glob reads). */
function patternRegex(name: string): RegExp {
  // A trailing `.*` stands for the top-level domain (`.com`, `.co.uk`), not for any host.
  const tld = name.endsWith('.*');
  const body =
    (tld ? name.slice(0, -2) : name)
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[a-z0-9.-]*') + (tld ? '\\.([a-z0-9-]+(?:\\.[a-z0-9-]+)?)' : '');
  return new RegExp(`^${body}$`, 'i');
}

/**
 * A name matches a pattern; a trailing `.*` must be a real top-level domain (`.com`, `.co.uk`),
 * so `aqora.naiad.*` covers `aqora.naiad.co.uk` and not `aqora.naiad.evil.example`.
 */
export function patternMatches(pattern: string, host: string): boolean {
  const m = patternRegex(pattern).exec(host);
  if (!m) return false;
  const tld = pattern.endsWith('.*') ? m[m.length - 1] : undefined;
  if (tld === undefined) return true;
  const parsed = parseDomain(`x.${tld}`);
  return parsed.publicSuffix === tld && parsed.isIcann === true;
}

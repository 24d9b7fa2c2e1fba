import { domainToASCII } from 'node:url';
import { HttpEvidenceError } from './model';

/** A URL split as curl splits it, keeping the bytes of path and query as typed. */
export interface CurlUrl {
  /** `ftp` only through an HTTP proxy, which curl asks with an absolute `ftp://` target. */
  scheme: 'http' | 'https' | 'ftp';
  /** `scheme://host[:port]` for an absolute-form target (a request through a proxy). */
  origin: string;
  /** The Host header: the host as typed, with the port unless it is the scheme's default. */
  hostHeader: string;
  /** The host name as typed (no port), which cookies and .netrc entries are matched against. */
  host: string;
  /** The user and password of the URL (decoded), sent as Basic when `-u` is not given. */
  user: string | null;
  password: string | null;
  path: string;
  query: string | null;
}

/** RFC 3986 remove_dot_segments, which curl applies to the path unless `--path-as-is`. */
export function removeDotSegments(path: string): string {
  const input = path.split('/');
  const out: string[] = [];
  for (let i = 0; i < input.length; i++) {
    const seg = input[i] ?? '';
    const last = i === input.length - 1;
    if (seg === '.' || seg === '..') {
      if (seg === '..' && out.length > 1) out.pop();
      if (last) out.push('');
    } else out.push(seg);
  }
  const joined = out.join('/');
  return joined.startsWith('/') ? joined : `/${joined}`;
}

/**
 * The parts curl sends of a URL as typed: the scheme guessed as curl guesses it (`http://` when
 * absent), the fragment dropped, `%2e` and other escapes left alone (curl does not decode them).
 */
export function splitCurlUrl(raw: string, pathAsIs: boolean, ftpViaProxy = false): CurlUrl {
  const text = raw.trim();
  const scheme = urlScheme(text);
  if (scheme !== 'http' && scheme !== 'https' && !(scheme === 'ftp' && ftpViaProxy))
    throw new HttpEvidenceError(`"${raw}" is not an HTTP URL (curl would use ${scheme})`);
  const schemeMatch = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(text);
  const rest = schemeMatch ? text.slice(schemeMatch[0].length) : text;
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  let tail = authorityEnd === -1 ? '' : rest.slice(authorityEnd);
  const at = authority.lastIndexOf('@');
  const userinfo = at === -1 ? null : authority.slice(0, at);
  const hostPort = at === -1 ? authority : authority.slice(at + 1);
  const portMatch = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostPort);
  if (!portMatch || !portMatch[1])
    throw new HttpEvidenceError(`"${raw}" has no host curl can read`);
  const typedHost = portMatch[1];
  const port = portMatch[2] ? Number(portMatch[2]) : null;
  const hash = tail.indexOf('#');
  if (hash !== -1) tail = tail.slice(0, hash);
  const q = tail.indexOf('?');
  let path = q === -1 ? tail : tail.slice(0, q);
  const query = q === -1 ? null : tail.slice(q + 1);
  if (path === '') path = '/';
  if (!pathAsIs) path = removeDotSegments(path);
  // An international name is sent as curl's IDN library writes it (punycode).
  const host = [...typedHost].every((c) => c.charCodeAt(0) < 0x80)
    ? typedHost
    : domainToASCII(typedHost) || typedHost;
  const defaultPort = scheme === 'https' ? 443 : scheme === 'ftp' ? 21 : 80;
  // Through a proxy an ftp:// URL keeps its user in the target, and Host always names the port.
  const hostHeader =
    port !== null && port !== defaultPort
      ? `${host}:${port}`
      : scheme === 'ftp'
        ? `${host}:21`
        : host;
  const origin =
    scheme === 'ftp'
      ? `ftp://${userinfo === null ? '' : `${userinfo}@`}${host}${port === null ? '' : `:${port}`}`
      : `${scheme}://${hostHeader}`;
  const { user, password } =
    userinfo === null ? { user: null, password: null } : splitUserinfo(userinfo);
  return {
    scheme: scheme === 'https' ? 'https' : scheme === 'ftp' ? 'ftp' : 'http',
    origin,
    hostHeader,
    host,
    user,
    password,
    path,
    query,
  };
}

/** The scheme of a URL as curl guesses it: `http` when none is typed. */
export function urlScheme(text: string): string {
  return (/^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(text.trim())?.[1] ?? 'http').toLowerCase();
}

/**
 * `user:password` of a URL's userinfo, each part decoded on its own as curl decodes them (so an
 * encoded `%3A` stays in the user name); the password is null when there is no colon.
 */
export function splitUserinfo(userinfo: string): { user: string; password: string | null } {
  const colon = userinfo.indexOf(':');
  const user = colon === -1 ? userinfo : userinfo.slice(0, colon);
  return {
    user: decodePart(user),
    password: colon === -1 ? null : decodePart(userinfo.slice(colon + 1)),
  };
}

function decodePart(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

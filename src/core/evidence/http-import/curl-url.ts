import { HttpEvidenceError } from './model';

/** A URL split as curl splits it, keeping the bytes of path and query as typed. */
export interface CurlUrl {
  scheme: 'http' | 'https';
  /** `scheme://host[:port]` for an absolute-form target (a request through a proxy). */
  origin: string;
  /** The Host header: the host as typed, with the port unless it is the scheme's default. */
  hostHeader: string;
  /** `user:password` from the URL, sent as Basic authorization when `-u` is not given. */
  credentials: string | null;
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
export function splitCurlUrl(raw: string, pathAsIs: boolean): CurlUrl {
  const text = raw.trim();
  const schemeMatch = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(text);
  const scheme = (schemeMatch?.[1] ?? 'http').toLowerCase();
  if (scheme !== 'http' && scheme !== 'https')
    throw new HttpEvidenceError(`"${raw}" is not an HTTP URL (curl would use ${scheme})`);
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
  const host = portMatch[1];
  const port = portMatch[2] ? Number(portMatch[2]) : null;
  const hash = tail.indexOf('#');
  if (hash !== -1) tail = tail.slice(0, hash);
  const q = tail.indexOf('?');
  let path = q === -1 ? tail : tail.slice(0, q);
  const query = q === -1 ? null : tail.slice(q + 1);
  if (path === '') path = '/';
  if (!pathAsIs) path = removeDotSegments(path);
  const defaultPort = scheme === 'https' ? 443 : 80;
  const hostHeader = port !== null && port !== defaultPort ? `${host}:${port}` : host;
  const credentials = userinfo === null ? null : decodeUserinfo(userinfo);
  const origin = `${scheme}://${hostHeader}`;
  return { scheme, origin, hostHeader, credentials, path, query };
}

function decodeUserinfo(userinfo: string): string {
  try {
    return decodeURIComponent(userinfo);
  } catch {
    return userinfo;
  }
}

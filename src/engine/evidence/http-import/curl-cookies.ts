/**
 * The cookie files `-b <file>` loads, and the cookies curl picks from them for one request, as
 * lib/cookie.c does (curl/curl at 5c61e168698a): Netscape cookie-jar lines (`#HttpOnly_` too) and
 * `Set-Cookie:` lines; domain tail match, path match, secure only over HTTPS or to localhost,
 * expired and (with `-j`) session cookies left out; longest path, domain, name first, then the
 * newest; at most 150 cookies and 8190 bytes. Not done: the public-suffix check of a curl built
 * with libpsl (a jar cookie for `.co.uk` is sent here).
 */
import { curlGetdate } from './curl-date';

export interface JarCookie {
  /** Null for a `Set-Cookie:` line without a domain: sent to every host, as curl does. */
  domain: string | null;
  tailmatch: boolean;
  path: string | null;
  secure: boolean;
  /** Seconds since 1970; 0 for a session cookie. */
  expires: number;
  name: string;
  value: string;
  created: number;
}

export interface CookieJar {
  cookies: JarCookie[];
  /** The creation counter, shared by every file loaded into one jar (curl's `lastct`). */
  count: number;
}

const MAX_SEND = 150;
const MAX_HEADER = 8190;

/** Control bytes, which curl refuses in a cookie's name or value (servers answer 400). */
const hasControl = (text: string): boolean =>
  [...text].some((c) => (c.charCodeAt(0) > 0 && c.charCodeAt(0) < 0x20) || c === '\x7f');

/** curl_strnequal(field, word, field.length): the field is a case-blind prefix of the word. */
const prefixOf = (field: string, word: string): boolean =>
  field.length <= word.length && word.slice(0, field.length).toUpperCase() === field.toUpperCase();

const isIp = (host: string): boolean => /^\d+\.\d+\.\d+\.\d+$/.test(host) || host.includes(':');

/** The cookie's domain is the host or a domain the host is under (case-blind). */
function tailmatch(domain: string, host: string): boolean {
  const d = domain.toLowerCase();
  const h = host.toLowerCase();
  if (!h.endsWith(d)) return false;
  return h.length === d.length || h[h.length - d.length - 1] === '.';
}

function sanitizePath(raw: string): string {
  let path = raw;
  if (path.startsWith('"')) path = path.slice(1).replace(/"$/, '');
  if (!path.startsWith('/')) return '/';
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** RFC 6265 path-match, as curl's pathmatch (the cookie path has no trailing slash). */
function pathmatch(cookiePath: string, uriPath: string): boolean {
  if (cookiePath.length === 1) return true;
  const uri = uriPath.startsWith('/') ? uriPath : '/';
  if (!uri.startsWith(cookiePath)) return false;
  return uri.length === cookiePath.length || uri[cookiePath.length] === '/';
}

function netscapeLine(line: string): Omit<JarCookie, 'created'> | null {
  const text = line.startsWith('#HttpOnly_') ? line.slice(10) : line;
  if (text.startsWith('#')) return null;
  const fields = (/^[^\r\n]*/.exec(text)?.[0] ?? '').split('\t');
  const cookie = { domain: '', tailmatch: false, path: '/', secure: false, expires: 0 };
  let name: string | null = null;
  let value: string | null = null;
  let n = 0;
  for (const field of fields) {
    if (n === 0) cookie.domain = field.startsWith('.') ? field.slice(1) : field;
    else if (n === 1) cookie.tailmatch = prefixOf(field, 'TRUE');
    else if (n === 2 && !'TRUE'.startsWith(field) && !'FALSE'.startsWith(field))
      cookie.path = sanitizePath(field);
    else if (n === 2 || n === 3) {
      // A boolean where the path goes: the path was left out, this is the secure flag.
      if (n === 2) n++;
      cookie.secure = prefixOf(field, 'TRUE');
    } else if (n === 4) {
      const digits = /^\d+/.exec(field)?.[0];
      if (digits === undefined) return null;
      cookie.expires = Number(digits);
    } else if (n === 5) name = field;
    else if (n === 6) value = field;
    n++;
  }
  if (n === 6) {
    value = '';
    n++;
  }
  if (n !== 7 || name === null || value === null) return null;
  if (hasControl(name) || hasControl(value)) return null;
  return { ...cookie, name, value };
}

/** A `Set-Cookie:` line of a cookie file: no default domain or path (it applies everywhere). */
function headerLine(line: string, now: number): Omit<JarCookie, 'created'> | null {
  if (line.length > 5000) return null;
  let name: string | null = null;
  let value = '';
  let domain: string | null = null;
  let tail = false;
  let path: string | null = null;
  let secure = false;
  let expires = 0;
  let maxAgeSeen = false;
  let rest = line;
  for (;;) {
    const key = /^[^;\t\r\n=]*/.exec(rest)?.[0] ?? '';
    rest = rest.slice(key.length);
    if (key !== '') {
      const k = key.replace(/^[ \t]+|[ \t]+$/g, '');
      if (hasControl(k)) return null;
      let v = '';
      const sep = rest.startsWith('=');
      if (sep) {
        const raw = /^=([^;\r\n]*)/.exec(rest)?.[1] ?? '';
        rest = rest.slice(1 + raw.length);
        v = raw.replace(/^[ \t]+|[ \t]+$/g, '');
        if (hasControl(v)) return null;
      }
      if (name === null) {
        if (!sep || k === '' || k.length + v.length > 4096) return null;
        name = k;
        value = v;
      } else if (!sep) {
        if (k.toLowerCase() === 'secure') secure = true;
      } else if (k.toLowerCase() === 'path') path = v;
      else if (k.toLowerCase() === 'domain' && v !== '') {
        const d = v.startsWith('.') ? v.slice(1) : v;
        const dot = d.indexOf('.');
        if (d.toLowerCase() !== 'localhost' && (dot === -1 || dot === d.length - 1)) return null;
        domain = d;
        tail = !isIp(d);
      } else if (k.toLowerCase() === 'max-age' && v !== '') {
        const digits = /^\d+$/.exec(v.replace(/^"/, ''))?.[0];
        expires = digits === undefined || Number(digits) === 0 ? 1 : now + Number(digits);
        maxAgeSeen = true;
      } else if (k.toLowerCase() === 'expires' && v !== '' && !maxAgeSeen && v.length < 80) {
        const date = curlGetdate(v);
        expires = date === null ? 0 : date || 1;
      }
    }
    if (!rest.startsWith(';')) break;
    rest = rest.slice(1);
  }
  if (name === null) return null;
  return {
    domain,
    tailmatch: tail,
    path: path === null ? null : sanitizePath(path),
    secure,
    expires,
    name,
    value,
  };
}

/** Loads one cookie file into the jar as curl's cookie_load does; `-j` drops session cookies. */
export function loadCookieFile(
  jar: CookieJar,
  text: string,
  dropSession: boolean,
  now: number,
): void {
  for (const line of text.split('\n')) {
    const header = /^Set-Cookie:[ \t]*/i.exec(line);
    const read = header ? headerLine(line.slice(header[0].length), now) : netscapeLine(line);
    if (!read) continue;
    if (read.name.startsWith('__Secure-') && !read.secure) continue;
    if (read.name.startsWith('__Host-') && !(read.secure && read.path === '/' && !read.tailmatch))
      continue;
    if (dropSession && read.expires === 0) continue;
    const cookie: JarCookie = { ...read, created: ++jar.count };
    // The same name, domain and path replaces the older cookie, keeping its creation time.
    const old = jar.cookies.findIndex(
      (c) =>
        c.name === cookie.name &&
        (c.domain ?? '').toLowerCase() === (cookie.domain ?? '').toLowerCase() &&
        (c.domain === null) === (cookie.domain === null) &&
        c.tailmatch === cookie.tailmatch &&
        c.path === cookie.path,
    );
    if (old !== -1) {
      cookie.created = jar.cookies[old]?.created ?? cookie.created;
      jar.cookies.splice(old, 1);
    }
    jar.cookies.push(cookie);
  }
}

/**
 * The `name=value` pairs curl sends from the jar to one URL, in its order, and whether the
 * header filled up (curl then leaves out the `-b name=value` strings too).
 */
export function jarCookiesFor(
  jar: CookieJar,
  url: { host: string; path: string; https: boolean },
  now: number,
): { pairs: string[]; full: boolean } {
  const host = url.host.replace(/^\[(.*)\]$/, '$1');
  const ip = isIp(host);
  const secureContext =
    url.https || host.toLowerCase() === 'localhost' || host === '127.0.0.1' || host === '::1';
  const matches: JarCookie[] = [];
  for (const c of jar.cookies) {
    if (c.expires !== 0 && c.expires < now) continue;
    if (c.secure && !secureContext) continue;
    const domainOk =
      c.domain === null ||
      (c.tailmatch && !ip && tailmatch(c.domain, host)) ||
      ((!c.tailmatch || ip) && c.domain.toLowerCase() === host.toLowerCase());
    if (!domainOk || (c.path !== null && !pathmatch(c.path, url.path))) continue;
    matches.push(c);
    if (matches.length >= MAX_SEND) break;
  }
  const len = (s: string | null): number => (s === null ? 0 : s.length);
  matches.sort(
    (a, b) =>
      len(b.path) - len(a.path) ||
      len(b.domain) - len(a.domain) ||
      b.name.length - a.name.length ||
      b.created - a.created,
  );
  const pairs: string[] = [];
  let size = 8;
  for (const c of matches) {
    const add = c.name.length + c.value.length + 1;
    if (size + add >= MAX_HEADER) return { pairs, full: true };
    pairs.push(`${c.name}=${c.value}`);
    size += add + (pairs.length > 1 ? 2 : 0);
  }
  return { pairs, full: false };
}

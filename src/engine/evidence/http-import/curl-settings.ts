/**
 * What one set of curl options asks for (the options between two `--next`): method, headers,
 * data, form, cookies, credentials, proxy, protocol version. Read in the order typed, as curl
 * reads them: a later option overrides or adds to an earlier one.
 */
import { loadCookieFile, type CookieJar } from './curl-cookies';
import { curlGetdate } from './curl-date';
import type { CurlFiles } from './curl-files';
import type { FormField } from './curl-form';
import { curlEscape, expandVariables, setVariable, type CurlVariables } from './curl-variables';
import type { CurlOption } from './curl-getopt';
import { ownValue } from '@shared/lookup/own';

/** A header line as `-H` takes it: `Name: value`, `Name:` (drop), `Name;` (empty). */
export type CustomHeader = { name: string; value: string; drop: boolean };

export interface CurlSettings {
  method: string | null;
  custom: CustomHeader[];
  data: string | null;
  json: boolean;
  form: FormField[];
  query: string[];
  cookies: string[];
  /** The cookies of the `-b <file>` files whose contents were given (null when none were). */
  jar: CookieJar | null;
  user: string | null;
  userAgent: string | null;
  referer: string | null;
  head: boolean;
  get: boolean;
  upload: string | null;
  pathAsIs: boolean;
  globOff: boolean;
  version: string;
  target: string | null;
  range: string | null;
  proxy: string | null;
  bearer: string | null;
  compressed: boolean;
  tunnel: boolean;
  resumeAt: string | null;
  /** A challenge-response scheme for the server (`digest`, `ntlm`…), or null for Basic. */
  challenge: string | null;
  /** The same for the proxy (`--proxy-digest`…). */
  proxyChallenge: string | null;
  /** The HTTP version of a CONNECT to the proxy (`--proxy1.0`). */
  tunnelVersion: string;
  /** `--aws-sigv4`: the provider string; curl signs with the time it runs. */
  awsSigv4: string | null;
  proxyUser: string | null;
  trEncoding: boolean;
  /** URLs curl does not glob (those read from `--url @file`). */
  literalUrls: Set<string>;
  /** `--noproxy`: the hosts that skip the proxy. */
  noProxy: string | null;
  /** `--ipfs-gateway`: where ipfs:// and ipns:// URLs are fetched. */
  ipfsGateway: string | null;
  /** `--http2`: HTTP/2 by ALPN over TLS, by an h2c Upgrade over plain HTTP. */
  h2Upgrade: boolean;
  /** `--netrc`/`--netrc-optional`: the file's text (null when the paste lacks it), required or not. */
  netrc: { text: string | null; required: boolean } | null;
  /** `--etag-compare`: the If-None-Match value from the file, or null. */
  etag: string | null;
  /** `-z`: the conditional header and its date (seconds since 1970), when the date reads. */
  timeCondition: { header: string; seconds: number } | null;
}

/** curl_easy_escape: everything but unreserved characters, as UTF-8 bytes; spaces become `+`. */
function formEscape(text: string): string {
  return curlEscape(text).replace(/%20/g, '+');
}

/** `--data-urlencode` and `--url-query`: `content`, `=content`, `name=content`, `name@file`. */
function urlencodePart(value: string, file: (name: string) => string): string {
  const eq = value.indexOf('=');
  const at = eq === -1 ? value.indexOf('@') : -1;
  const sep = eq !== -1 ? eq : at;
  if (sep === -1) return formEscape(value);
  const name = value.slice(0, sep);
  const content = at !== -1 ? file(value.slice(sep + 1)) : value.slice(sep + 1);
  return name ? `${name}=${formEscape(content)}` : formEscape(content);
}

function customHeader(line: string): CustomHeader | null {
  const colon = line.indexOf(':');
  const semi = line.indexOf(';');
  if (colon > 0 && (semi === -1 || colon < semi)) {
    const value = line.slice(colon + 1).replace(/^[ \t]+/, '');
    return { name: line.slice(0, colon), value, drop: value.trim() === '' };
  }
  // `Name;` sends an empty header: only when the `;` ends the line (`Name; ` is dropped).
  if (semi > 0 && semi === line.length - 1)
    return { name: line.slice(0, semi).trim(), value: '', drop: false };
  return null;
}

/**
 * `-z [+-=]date`: If-Modified-Since (`+` or none), If-Unmodified-Since (`-`), Last-Modified (`=`).
 * What is not a date is a file whose modification time curl sends: not in a paste, so noted.
 */
function timeCondition(value: string, files: CurlFiles): CurlSettings['timeCondition'] {
  const sign = value[0] ?? '';
  const header =
    sign === '-' ? 'If-Unmodified-Since' : sign === '=' ? 'Last-Modified' : 'If-Modified-Since';
  const text = '+-='.includes(sign) && sign !== '' ? value.slice(1) : value;
  const seconds = curlGetdate(text);
  if (seconds !== null) return { header, seconds };
  files.note(
    `-z ${text}: curl sends ${header} with the modification time of that file, which is not part of the paste.`,
  );
  return null;
}

type SettingOf<T> = {
  [K in keyof CurlSettings]: CurlSettings[K] extends T ? K : never;
}[keyof CurlSettings];

/** Switches (`yes` on, `--no-…` off) that set one setting each. */
const SWITCHES: Readonly<Record<string, SettingOf<boolean>>> = {
  head: 'head',
  get: 'get',
  'path-as-is': 'pathAsIs',
  globoff: 'globOff',
  'tr-encoding': 'trEncoding',
  proxytunnel: 'tunnel',
  compressed: 'compressed',
};

/** Options whose value is the setting, as typed. */
const AS_TYPED: Readonly<Record<string, SettingOf<string | null>>> = {
  request: 'method',
  user: 'user',
  'user-agent': 'userAgent',
  'oauth2-bearer': 'bearer',
  'upload-file': 'upload',
  'request-target': 'target',
  'proxy-user': 'proxyUser',
};

/** The protocol version each option asks for. */
const VERSIONS: Readonly<Record<string, string>> = {
  'http1.0': 'HTTP/1.0',
  'http1.1': 'HTTP/1.1',
  http2: 'HTTP/2',
  'http2-prior-knowledge': 'HTTP/2',
  http3: 'HTTP/3',
  'http3-only': 'HTTP/3',
};

/**
 * The settings of one set of options. `files` gives the files the command reads (or notes that
 * the paste does not hold them), and `urls` gets the `--url` values.
 */
export function curlSettings(
  options: readonly CurlOption[],
  urls: string[],
  files: CurlFiles,
  vars: CurlVariables = new Map(),
): CurlSettings {
  const file = (name: string): string => files.contents(name);
  const s: CurlSettings = {
    method: null,
    custom: [],
    data: null,
    json: false,
    form: [],
    query: [],
    cookies: [],
    jar: null,
    user: null,
    userAgent: null,
    referer: null,
    head: false,
    get: false,
    upload: null,
    pathAsIs: false,
    globOff: false,
    version: 'HTTP/1.1',
    target: null,
    range: null,
    proxy: null,
    bearer: null,
    compressed: false,
    tunnel: false,
    resumeAt: null,
    challenge: null,
    proxyChallenge: null,
    awsSigv4: null,
    tunnelVersion: 'HTTP/1.1',
    proxyUser: null,
    trEncoding: false,
    h2Upgrade: false,
    ipfsGateway: null,
    noProxy: null,
    literalUrls: new Set(),
    timeCondition: null,
    netrc: null,
    etag: null,
  };
  const addData = (text: string, binary: boolean): void => {
    if (s.data !== null && !binary) s.data += '&';
    s.data = (s.data ?? '') + text;
  };
  const cookieFiles: string[] = [];
  let junkSession = false;
  let netrcMode: string | null = null;
  let netrcFile: string | null = null;
  for (const option of options) {
    const { name } = option;
    const value = option.expand ? expandVariables(vars, option.value) : option.value;
    if (name === 'variable') setVariable(vars, value, files);
    const on = ownValue(SWITCHES, name);
    const typed = ownValue(AS_TYPED, name);
    const version = ownValue(VERSIONS, name);
    if (on !== undefined) s[on] = value === 'yes';
    else if (typed !== undefined) s[typed] = value;
    else if (version !== undefined) {
      s.version = version;
      s.h2Upgrade = name === 'http2';
    }
    switch (name) {
      case 'header': {
        // `-H @file`: each line of the file is a header.
        const lines = value.startsWith('@')
          ? (files.read(value.slice(1)) ?? '').split(/\r?\n/)
          : [value];
        for (const line of lines) {
          const h = customHeader(line);
          if (h) s.custom.push(h);
        }
        break;
      }
      case 'data':
      case 'data-ascii':
        addData(value.startsWith('@') ? file(value.slice(1)).replace(/[\r\n]/g, '') : value, false);
        break;
      case 'data-raw':
        addData(value, false);
        break;
      case 'data-binary':
        addData(value.startsWith('@') ? file(value.slice(1)) : value, false);
        break;
      case 'data-urlencode':
        addData(urlencodePart(value, file), false);
        break;
      case 'json':
        s.json = true;
        addData(value.startsWith('@') ? file(value.slice(1)) : value, s.data !== null && s.json);
        break;
      case 'form':
      case 'form-string': {
        const eq = value.indexOf('=');
        s.form.push({
          name: value.slice(0, Math.max(0, eq)),
          value: value.slice(eq + 1),
          literal: name === 'form-string',
        });
        break;
      }
      case 'url-query':
        s.query.push(value.startsWith('+') ? value.slice(1) : urlencodePart(value, file));
        break;
      case 'cookie':
        if (value.includes('=')) s.cookies.push(value);
        else cookieFiles.push(value);
        break;
      case 'junk-session-cookies':
        junkSession = value === 'yes';
        break;
      case 'referer': {
        // `;auto` only sets Referer on redirects; what is before it is the first request's.
        const first = value.endsWith(';auto') ? value.slice(0, -5) : value;
        s.referer = first === '' ? null : first;
        break;
      }
      case 'netrc':
      case 'netrc-optional':
        netrcMode = value === 'yes' ? name : netrcMode === name ? null : netrcMode;
        break;
      case 'netrc-file':
        netrcFile = value;
        break;
      case 'etag-compare': {
        // The file's text without its line ends, or "" when it is empty (tool_operate.c).
        const text = files.read(value);
        const tag = text === null ? null : text.replace(/[\r\n]/g, '');
        s.etag = tag === null ? null : tag === '' ? '""' : tag;
        break;
      }
      case 'url':
        // `--url @file`: a URL a line (empty lines skipped), not globbed.
        if (value.startsWith('@'))
          for (const line of (files.read(value.slice(1)) ?? '').split(/\r?\n/)) {
            if (line.trim() === '') continue;
            urls.push(line.trim());
            s.literalUrls.add(line.trim());
          }
        else urls.push(value);
        break;
      case 'config':
        files.note(
          `-K ${value}: curl reads more options from ${value === '-' ? 'standard input' : value}; they are not applied here.`,
        );
        break;
      case 'noproxy':
        s.noProxy = value;
        break;
      case 'ipfs-gateway':
        s.ipfsGateway = value;
        break;
      case 'range':
        s.range = value.includes('-') ? value : `${value}-`;
        break;
      case 'proxy':
        s.proxy = value === '' ? null : value;
        break;
      case 'continue-at':
        s.resumeAt = /^(?:\d+|-)$/.test(value) ? value : null;
        break;
      case 'digest':
      case 'ntlm':
      case 'negotiate':
      case 'anyauth':
        // A challenge-response scheme: what is sent depends on the server's answer.
        s.challenge = value === 'yes' ? name : null;
        break;
      case 'proxy-digest':
      case 'proxy-ntlm':
      case 'proxy-negotiate':
      case 'proxy-anyauth':
        s.proxyChallenge = value === 'yes' ? name : null;
        break;
      case 'proxy-basic':
        if (value === 'yes') s.proxyChallenge = null;
        break;
      case 'proxy1.0':
        s.proxy = value;
        s.tunnelVersion = 'HTTP/1.0';
        break;
      case 'aws-sigv4':
        s.awsSigv4 = value;
        break;
      case 'time-cond':
        s.timeCondition = timeCondition(value, files);
        break;
      case 'basic':
        if (value === 'yes') s.challenge = null;
        break;
    }
  }
  // --netrc-file alone means --netrc-optional; without a file curl reads ~/.netrc.
  if (netrcMode !== null || netrcFile !== null)
    s.netrc = {
      text: files.read(netrcFile ?? '~/.netrc'),
      required: netrcMode === 'netrc',
    };
  // curl loads the cookie files when the transfer starts, so -j counts wherever it is typed.
  const now = Math.floor(Date.now() / 1000);
  for (const name of cookieFiles) {
    const text = files.read(name);
    if (text === null) continue;
    s.jar ??= { cookies: [], count: 0 };
    loadCookieFile(s.jar, text, junkSession, now);
  }
  return s;
}

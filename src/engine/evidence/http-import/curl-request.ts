/**
 * One request as curl sends it for one URL of a command: the method as written, the path bytes
 * as written, headers in curl's order with `-H` lines as typed, and the body bytes curl posts.
 */
import { splitUserinfo, type CurlUrl } from './curl-url';
import { jarCookiesFor } from './curl-cookies';
import { httpDate } from './curl-date';
import { FORM_BOUNDARY, multipartBody } from './curl-form';
import { netrcCredentials } from './curl-netrc';
import { curlEscape } from './curl-variables';
import type { CurlFiles } from './curl-files';
import type { CurlSettings } from './curl-settings';
import type { HttpExchange } from './model';

function basic(credentials: string): string {
  return `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
}

/** `--noproxy`: `*`, or hosts and domains (a leading dot optional) that skip the proxy. */
function bypassesProxy(host: string, noProxy: string | null): boolean {
  if (noProxy === null) return false;
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return noProxy.split(',').some((entry) => {
    const e = entry.trim().toLowerCase().replace(/^\./, '');
    return e === '*' || (e !== '' && (h === e || h.endsWith(`.${e}`)));
  });
}

export function curlRequest(
  s: CurlSettings,
  url: CurlUrl,
  uploadFile: string | null,
  files: CurlFiles,
): HttpExchange {
  const file = (name: string): string => files.contents(name);
  const { method, custom, data, json, form, query, cookies, user, userAgent, referer } = s;
  const { head, get, version, target, range, proxy, bearer, compressed, tunnel } = s;
  const { resumeAt, challenge, proxyUser, trEncoding, timeCondition } = s;
  let path = url.path;
  // A URL ending in `/` gets the file's name, URL-encoded (not when a query follows the slash).
  if (uploadFile && path.endsWith('/') && url.query === null)
    path += curlEscape(uploadFile.replace(/^.*[\\/]/, ''));
  let search = url.query;
  for (const q of query) search = search === null ? q : `${search}&${q}`;
  let body: string | null = null;
  let contentType: string | null = null;
  let contentRange: string | null = null;
  let verb: string;
  if (get || head) {
    if (data !== null) search = search === null ? data : `${search}&${data}`;
    verb = head ? 'HEAD' : 'GET';
  } else if (uploadFile) {
    const text = files.read(uploadFile);
    body = text ?? file(uploadFile);
    verb = 'PUT';
    // -C: the upload resumes; curl sends the rest of the file and says which part it is.
    if (text !== null && resumeAt !== null) {
      const all = Buffer.from(text, 'utf8');
      const from = resumeAt === '-' ? 0 : Math.min(Number(resumeAt), all.length);
      body = all.subarray(from).toString('utf8');
      contentRange = `bytes ${from}-${all.length - 1}/${all.length}`;
    } else if (text !== null && range !== null)
      contentRange = `bytes ${range}/${Buffer.byteLength(text, 'utf8')}`;
  } else if (form.length > 0) {
    body = multipartBody(form, files);
    contentType = `multipart/form-data; boundary=${FORM_BOUNDARY}`;
    verb = 'POST';
  } else if (data !== null) {
    body = data;
    contentType = json ? 'application/json' : 'application/x-www-form-urlencoded';
    verb = 'POST';
  } else verb = 'GET';
  if (method !== null) verb = method;

  const proxied = proxy !== null && !bypassesProxy(url.host, s.noProxy);
  const viaProxy = proxied && !tunnel && url.scheme !== 'https' && !/^socks/i.test(proxy ?? '');
  // An ftp:// URL through a proxy carries -u in its target, as curl writes it.
  const origin =
    url.scheme === 'ftp' && url.user === null && user !== null
      ? url.origin.replace('ftp://', `ftp://${user}@`)
      : url.origin;
  const requestTarget =
    target ?? (viaProxy ? `${origin}${path}` : path) + (search === null ? '' : `?${search}`);

  // curl's order (lib/http.c): Host, Proxy-Authorization, Authorization, Range, User-Agent,
  // Accept, TE, Accept-Encoding, Referer, Proxy-Connection, Upgrade, Cookie, If-Modified-Since,
  // the -H lines as typed, the body's length and type, Connection. A typed Host takes the Host
  // place; a typed header of curl's own name replaces (or with `Name:`, removes) curl's.
  // --json adds its two headers after the typed ones (unless typed already), as get_args does.
  const typedAll = [...custom];
  if (json)
    for (const [name, value] of [
      ['Content-Type', 'application/json'],
      ['Accept', 'application/json'],
    ] as const)
      if (!custom.some((h) => h.name.toLowerCase() === name.toLowerCase()))
        typedAll.push({ name, value, drop: false });
  const typedHost = typedAll.find((h) => h.name.toLowerCase() === 'host');
  // Typed Connection headers go last, the first one joined with curl's own values.
  const connection = typedAll.filter(
    (h) => h.name.toLowerCase() === 'connection' && !h.drop && h.value.trim() !== '',
  );
  // With -F a typed Content-Type moves to the body's headers and gets the boundary.
  const typedFormType =
    form.length > 0 && body !== null
      ? typedAll.find((h) => h.name.toLowerCase() === 'content-type' && !h.drop)
      : undefined;
  const typed = typedAll.filter(
    (h) =>
      h.name.toLowerCase() !== 'host' &&
      h.name.toLowerCase() !== 'connection' &&
      h !== typedFormType,
  );
  const dropped = new Set(typedAll.map((h) => h.name.toLowerCase()));
  const headers: [string, string][] = [];
  const own = (name: string, value: string | null): void => {
    if (value !== null && !dropped.has(name.toLowerCase())) headers.push([name, value]);
  };
  if (typedHost) {
    if (!typedHost.drop) headers.push([typedHost.name, typedHost.value]);
  } else own('Host', url.hostHeader);
  // A user name in a URL without a password is sent with an empty one (`alice:`), as curl does.
  const proxyInfo = proxy ? /^(?:[a-z0-9+.-]+:\/\/)?([^@/]+)@/i.exec(proxy)?.[1] : undefined;
  const proxyUrlUser = proxyInfo === undefined ? null : splitUserinfo(proxyInfo);
  const proxyCredentials =
    proxyUser ?? (proxyUrlUser ? `${proxyUrlUser.user}:${proxyUrlUser.password ?? ''}` : null);
  if (viaProxy && proxyCredentials && s.proxyChallenge === null)
    own('Proxy-Authorization', basic(proxyCredentials));
  if (proxied && !/^socks/i.test(proxy ?? '') && (tunnel || url.scheme === 'https')) {
    const port = url.hostHeader.includes(':') ? '' : url.scheme === 'https' ? ':443' : ':80';
    files.note(
      `curl first sends CONNECT ${url.hostHeader}${port} ${s.tunnelVersion} to the proxy ${proxy}; shown: the request it then sends inside the tunnel.`,
    );
  }
  if (viaProxy && proxyCredentials && s.proxyChallenge !== null)
    files.note(
      `--${s.proxyChallenge}: the Proxy-Authorization header depends on the proxy's challenge; it is left out.`,
    );
  // .netrc fills in what the URL lacks (with --netrc, it is asked even when the URL has both).
  let urlUser = url.user === null ? null : { user: url.user, password: url.password };
  if (s.netrc?.text != null && user === null && bearer === null) {
    const complete = urlUser !== null && urlUser.password !== null;
    if (s.netrc.required || !complete) {
      const found = netrcCredentials(s.netrc.text, url.host, urlUser?.user ?? null);
      if (found) urlUser = found;
    }
  }
  const credentials = user !== null || urlUser !== null;
  if (challenge !== null && credentials)
    files.note(
      `--${challenge}: the Authorization header depends on the server's challenge (curl's first request${challenge === 'ntlm' ? ' opens the NTLM handshake and' : ''} sends no body); it is left out.`,
    );
  if (s.awsSigv4 !== null && credentials)
    files.note(
      `--aws-sigv4 ${s.awsSigv4}: curl signs the request (Authorization: AWS4-HMAC-SHA256 …, X-Amz-Date) with the time it runs; the signature is left out.`,
    );
  if (challenge !== null || (s.awsSigv4 !== null && credentials)) own('Authorization', null);
  else if (user !== null) {
    // `-u alice` without a password: curl asks for it when it runs.
    if (!user.includes(':') && s.awsSigv4 === null)
      files.note(`-u ${user}: curl asks for the password when it runs; shown with an empty one.`);
    own('Authorization', basic(user.includes(':') ? user : `${user}:`));
  } else if (urlUser !== null)
    own('Authorization', basic(`${urlUser.user}:${urlUser.password ?? ''}`));
  else if (bearer !== null) own('Authorization', `Bearer ${bearer}`);
  if (contentRange !== null) own('Content-Range', contentRange);
  else if (verb === 'GET' || verb === 'HEAD' || body === null) {
    if (range !== null) own('Range', `bytes=${range}`);
    else if (resumeAt !== null && resumeAt !== '-') own('Range', `bytes=${resumeAt}-`);
    else if (resumeAt === '-')
      files.note(
        '-C -: curl resumes from the size of the file it writes to, which is not part of the paste; the Range header it sends is left out.',
      );
  }
  own('User-Agent', userAgent);
  own('Accept', '*/*');
  if (trEncoding) own('TE', 'gzip');
  if (compressed) own('Accept-Encoding', 'deflate, gzip, br, zstd');
  own('Referer', referer);
  if (viaProxy) own('Proxy-Connection', 'Keep-Alive');
  // --http2 to an http:// URL: an HTTP/1.1 request asking to upgrade (h2c), with curl's
  // default SETTINGS (100 streams, 64 KiB window, no push).
  const h2c = s.h2Upgrade && url.scheme === 'http';
  if (h2c) {
    headers.push(['Upgrade', 'h2c']);
    headers.push(['HTTP2-Settings', 'AAMAAABkAAQAAQAAAAIAAAAA']);
  }
  // Cookies from -b files first (sent even beside a typed Cookie header), then -b strings.
  const jar = s.jar
    ? jarCookiesFor(
        s.jar,
        // A typed Host names the host cookies are picked for (curl's cookiehost).
        {
          host: typedHost && !typedHost.drop ? typedHost.value.replace(/:\d*$/, '') : url.host,
          path,
          https: url.scheme === 'https',
        },
        Math.floor(Date.now() / 1000),
      )
    : { pairs: [], full: false };
  const sentCookies = [...jar.pairs, ...(jar.full || dropped.has('cookie') ? [] : cookies)];
  if (sentCookies.length > 0) headers.push(['Cookie', sentCookies.join('; ')]);
  if (timeCondition) own(timeCondition.header, httpDate(timeCondition.seconds));
  for (const h of typed) if (!h.drop) headers.push([h.name, h.value]);
  // --etag-compare adds its header after the typed ones, as if typed last.
  if (s.etag !== null) headers.push(['If-None-Match', s.etag]);
  const chunked =
    version !== 'HTTP/2' &&
    custom.some((h) => h.name.toLowerCase() === 'transfer-encoding' && /chunked/i.test(h.value));
  if (body !== null) {
    if (!chunked) own('Content-Length', String(Buffer.byteLength(body, 'utf8')));
    if (typedFormType)
      headers.push(['Content-Type', `${typedFormType.value}; boundary=${FORM_BOUNDARY}`]);
    else own('Content-Type', contentType);
    // Bodies over 1 MiB announce themselves and wait for the server's 100 (HTTP/1.1 only).
    const httpVersion = h2c ? 'HTTP/1.1' : version;
    if (httpVersion === 'HTTP/1.1' && !h2c && Buffer.byteLength(body, 'utf8') > 1024 * 1024)
      own('Expect', '100-continue');
    // A typed `Transfer-Encoding: chunked` makes curl send the body in chunks.
    if (chunked) {
      const size = Buffer.byteLength(body, 'utf8');
      body = (size > 0 ? `${size.toString(16)}\r\n${body}\r\n` : '') + '0\r\n\r\n';
    }
  }
  const connectionValues = [
    ...(connection[0] ? [connection[0].value.trim()] : []),
    ...(trEncoding ? ['TE'] : []),
    ...(h2c ? ['Upgrade', 'HTTP2-Settings'] : []),
  ];
  if (connectionValues.length > 0) headers.push(['Connection', connectionValues.join(', ')]);
  for (const h of connection.slice(1)) headers.push([h.name, h.value]);
  return {
    request: {
      startLine: `${verb} ${requestTarget} ${h2c ? 'HTTP/1.1' : version}`,
      headers,
      body: body ?? '',
    },
    response: null,
    ...(files.notes.length > 0 ? { notes: [...files.notes] } : {}),
  };
}

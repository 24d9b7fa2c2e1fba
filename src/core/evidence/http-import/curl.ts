import { CURL_FLAG_OPTIONS, CURL_SHORT_OPTIONS, CURL_VALUE_OPTIONS } from './curl-options';
import { HttpEvidenceError, type HttpExchange } from './model';
import { cmdWords, looksLikeCmd, posixWords } from './shell-words';
import { splitCurlUrl, type CurlUrl } from './curl-url';

const TAKES_VALUE = new Set(CURL_VALUE_OPTIONS);
const FLAGS = new Set(CURL_FLAG_OPTIONS);

export interface CurlReadOptions {
  /**
   * The contents of a file the command reads (`-d @file`, `-T file`), when the caller has it.
   * The app never reads the user's files for a pasted command: the body then says which file.
   */
  readFile?: (name: string) => string | null;
}

/** One option as curl reads it: its long name and its value. */
interface CurlOption {
  name: string;
  value: string;
}

/** The words after `curl`, as curl's own getopt reads them (its option table, curl-options.ts). */
function readOptions(args: string[]): { options: CurlOption[]; urls: string[] } {
  const options: CurlOption[] = [];
  const urls: string[] = [];
  let endOfOptions = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    const place = `word ${i + 2}`;
    if (endOfOptions || !word.startsWith('-') || word === '-') {
      urls.push(word);
      continue;
    }
    if (word === '--') {
      endOfOptions = true;
      continue;
    }
    if (word.startsWith('--')) {
      // `--name value`, `--name=value`, `--no-flag`; `--expand-name` expands {{variables}},
      // which are not in the paste: the value is kept as written.
      let name = word.slice(2).replace(/^expand-/, '');
      const eq = name.indexOf('=');
      const attached = eq === -1 ? null : name.slice(eq + 1);
      if (eq !== -1) name = name.slice(0, eq);
      if (TAKES_VALUE.has(name)) {
        if (attached === null && i + 1 >= args.length)
          throw new HttpEvidenceError(`curl option ${word} needs a value (${place})`);
        options.push({ name, value: attached ?? args[++i] ?? '' });
        continue;
      }
      let value = 'yes';
      if (!FLAGS.has(name) && name.startsWith('no-') && FLAGS.has(name.slice(3))) {
        name = name.slice(3);
        value = 'no';
      }
      if (!FLAGS.has(name))
        throw new HttpEvidenceError(`curl does not know the option ${word} (${place})`);
      options.push({ name, value });
      continue;
    }
    // Short options: letters may be grouped (-sSL); a letter that takes a value ends the group,
    // its value being the rest of the word or else the next word (-XPOST, -X POST).
    for (let j = 1; j < word.length; j++) {
      const letter = word[j] ?? '';
      const name = CURL_SHORT_OPTIONS[letter];
      if (!name) throw new HttpEvidenceError(`curl does not know the option -${letter} (${place})`);
      if (!TAKES_VALUE.has(name)) {
        options.push({ name, value: 'yes' });
        continue;
      }
      const rest = word.slice(j + 1);
      if (rest === '' && i + 1 >= args.length)
        throw new HttpEvidenceError(`curl option -${letter} needs a value (${place})`);
      options.push({ name, value: rest !== '' ? rest : (args[++i] ?? '') });
      break;
    }
  }
  return { options, urls };
}

/** curl_easy_escape: everything but unreserved characters, as UTF-8 bytes; spaces become `+`. */
function formEscape(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
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

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function basic(credentials: string): string {
  return `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
}

/** A header line as `-H` takes it: `Name: value`, `Name:` (drop), `Name;` (empty). */
type CustomHeader = { name: string; value: string; drop: boolean };

function customHeader(line: string): CustomHeader | null {
  const colon = line.indexOf(':');
  const semi = line.indexOf(';');
  if (colon > 0 && (semi === -1 || colon < semi)) {
    const value = line.slice(colon + 1).replace(/^[ \t]+/, '');
    return { name: line.slice(0, colon), value, drop: value.trim() === '' };
  }
  if (semi > 0 && line.slice(semi + 1).trim() === '')
    return { name: line.slice(0, semi), value: '', drop: false };
  return null;
}

/** The words of a pasted command, by the shell that wrote it; null when it is not curl. */
function commandWords(command: string): string[] | null {
  const text = command.replace(/^\uFEFF/, '').replace(/^\s*(?:\$|>|PS [^>]*>)\s+/, '');
  const words = looksLikeCmd(text) ? cmdWords(text) : posixWords(text);
  const program = (words[0] ?? '').replace(/^.*[\\/]/, '').toLowerCase();
  return program === 'curl' || program === 'curl.exe' ? words.slice(1) : null;
}

/**
 * A curl command as the requests curl sends, one exchange per URL: the method as written, the
 * path bytes as written (dot segments removed as curl removes them, unless `--path-as-is`),
 * headers in curl's order with `-H` lines as typed, and the body bytes curl posts. curl's own
 * `User-Agent: curl/<version>` is left out (the version is not in the command). Throws
 * HttpEvidenceError naming the word that curl itself would refuse; null when it is not curl.
 */
export function parseCurlCommand(command: string, read: CurlReadOptions = {}): HttpExchange[] {
  const words = commandWords(command);
  if (!words) throw new HttpEvidenceError('the command is not curl');
  // `--next` (`-:`) starts a new set of options for the URLs after it.
  const groups: string[][] = [[]];
  for (const word of words) {
    if (word === '--next' || word === '-:') groups.push([]);
    else groups[groups.length - 1]?.push(word);
  }
  const exchanges = groups.flatMap((group) => (group.length ? requestsOf(group, read) : []));
  if (exchanges.length === 0) throw new HttpEvidenceError('the curl command has no URL');
  return exchanges;
}

function requestsOf(words: string[], read: CurlReadOptions): HttpExchange[] {
  const { options, urls } = readOptions(words);
  const fileNotes: string[] = [];
  const file = (name: string): string => {
    const text = name === '-' ? null : (read.readFile?.(name) ?? null);
    if (text !== null) return text;
    fileNotes.push(name);
    return `[contents of ${name === '-' ? 'standard input' : name}]`;
  };

  let method: string | null = null;
  const custom: CustomHeader[] = [];
  let data: string | null = null;
  let json = false;
  const form: { name: string; value: string }[] = [];
  const query: string[] = [];
  const cookies: string[] = [];
  let user: string | null = null;
  let userAgent: string | null = null;
  let referer: string | null = null;
  let head = false;
  let get = false;
  let upload: string | null = null;
  let pathAsIs = false;
  let globOff = false;
  let version = 'HTTP/1.1';
  let target: string | null = null;
  let range: string | null = null;
  let proxy: string | null = null;
  let bearer: string | null = null;
  let compressed = false;
  let tunnel = false;
  let resumeAt: string | null = null;
  let challenge = false;
  let proxyUser: string | null = null;
  let trEncoding = false;
  const addData = (text: string, binary: boolean): void => {
    if (data !== null && !binary) data += '&';
    data = (data ?? '') + text;
  };
  for (const { name, value } of options) {
    switch (name) {
      case 'request':
        method = value;
        break;
      case 'header': {
        const h = customHeader(value);
        if (h) custom.push(h);
        else if (value.startsWith('@')) fileNotes.push(value.slice(1));
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
        json = true;
        addData(value.startsWith('@') ? file(value.slice(1)) : value, data !== null && json);
        break;
      case 'form':
      case 'form-string': {
        const eq = value.indexOf('=');
        form.push({ name: value.slice(0, Math.max(0, eq)), value: value.slice(eq + 1) });
        break;
      }
      case 'url-query':
        query.push(value.startsWith('+') ? value.slice(1) : urlencodePart(value, file));
        break;
      case 'cookie':
        if (value.includes('=')) cookies.push(value);
        else fileNotes.push(value);
        break;
      case 'user':
        user = value;
        break;
      case 'user-agent':
        userAgent = value;
        break;
      case 'referer':
        referer = value.replace(/;auto$/, '');
        break;
      case 'oauth2-bearer':
        bearer = value;
        break;
      case 'head':
        head = value === 'yes';
        break;
      case 'get':
        get = value === 'yes';
        break;
      case 'upload-file':
        upload = value;
        break;
      case 'path-as-is':
        pathAsIs = value === 'yes';
        break;
      case 'globoff':
        globOff = value === 'yes';
        break;
      case 'url':
        urls.push(value);
        break;
      case 'request-target':
        target = value;
        break;
      case 'range':
        range = value.includes('-') ? value : `${value}-`;
        break;
      case 'proxy-user':
        proxyUser = value;
        break;
      case 'tr-encoding':
        trEncoding = value === 'yes';
        break;
      case 'proxy':
        proxy = value === '' ? null : value;
        break;
      case 'proxytunnel':
        tunnel = value === 'yes';
        break;
      case 'continue-at':
        resumeAt = /^\d+$/.test(value) ? value : null;
        break;
      case 'digest':
      case 'ntlm':
      case 'negotiate':
      case 'anyauth':
        // A challenge-response scheme: the first request goes without Authorization.
        challenge = value === 'yes';
        break;
      case 'basic':
        if (value === 'yes') challenge = false;
        break;
      case 'compressed':
        compressed = value === 'yes';
        break;
      case 'http1.0':
        version = 'HTTP/1.0';
        break;
      case 'http1.1':
        version = 'HTTP/1.1';
        break;
      case 'http2':
      case 'http2-prior-knowledge':
        version = 'HTTP/2';
        break;
      case 'http3':
      case 'http3-only':
        version = 'HTTP/3';
        break;
    }
  }
  if (urls.length === 0) throw new HttpEvidenceError('the curl command has no URL');

  const expanded = urls.flatMap((u) => (globOff ? [u] : expandGlob(u)));
  const exchanges = expanded.map((raw, index) =>
    requestFor(splitCurlUrl(raw, pathAsIs), index === 0 ? upload : null),
  );
  return exchanges;

  function requestFor(url: CurlUrl, uploadFile: string | null): HttpExchange {
    let path = url.path;
    // A URL ending in `/` gets the file's name (not when a query follows the slash).
    if (uploadFile && path.endsWith('/') && url.query === null)
      path += uploadFile.replace(/^.*[\\/]/, '');
    let search = url.query;
    for (const q of query) search = search === null ? q : `${search}&${q}`;
    let body: string | null = null;
    let contentType: string | null = null;
    let verb: string;
    if (get || head) {
      if (data !== null) search = search === null ? data : `${search}&${data}`;
      verb = head ? 'HEAD' : 'GET';
    } else if (uploadFile) {
      body = file(uploadFile);
      verb = 'PUT';
    } else if (form.length > 0) {
      const boundary = '------------------------curlBoundary';
      body =
        form
          .map((f) => {
            const fileName = f.value.startsWith('@') || f.value.startsWith('<');
            const shownName = f.value.slice(1).split(';')[0] ?? '';
            const disposition = `Content-Disposition: form-data; name="${f.name}"${
              f.value.startsWith('@') ? `; filename="${shownName.replace(/^.*[\\/]/, '')}"` : ''
            }`;
            const content = fileName ? file(shownName) : f.value;
            return `--${boundary}\r\n${disposition}\r\n\r\n${content}\r\n`;
          })
          .join('') + `--${boundary}--\r\n`;
      contentType = `multipart/form-data; boundary=${boundary}`;
      verb = 'POST';
    } else if (data !== null) {
      body = data;
      contentType = json ? 'application/json' : 'application/x-www-form-urlencoded';
      verb = 'POST';
    } else verb = 'GET';
    if (method !== null) verb = method;

    const viaProxy = proxy !== null && !tunnel && url.scheme === 'http' && !/^socks/i.test(proxy);
    const requestTarget =
      target ?? (viaProxy ? `${url.origin}${path}` : path) + (search === null ? '' : `?${search}`);

    // curl's order: Host, Authorization, Range, User-Agent, Accept, Referer, Cookie, the -H
    // lines as typed, then the body's length and type. A typed Host takes the Host place.
    // --json adds its two headers as if typed first with -H (unless typed already).
    const typedAll = [...custom];
    if (json)
      for (const [name, value] of [
        ['Accept', 'application/json'],
        ['Content-Type', 'application/json'],
      ] as const)
        if (!custom.some((h) => h.name.toLowerCase() === name.toLowerCase()))
          typedAll.unshift({ name, value, drop: false });
    const typedHost = typedAll.find((h) => h.name.toLowerCase() === 'host');
    const connection = typedAll.filter((h) => h.name.toLowerCase() === 'connection');
    const typed = typedAll.filter(
      (h) =>
        h.name.toLowerCase() !== 'host' && !(trEncoding && h.name.toLowerCase() === 'connection'),
    );
    const dropped = new Set(typedAll.map((h) => h.name.toLowerCase()));
    const headers: [string, string][] = [];
    const own = (name: string, value: string | null): void => {
      if (value !== null && !dropped.has(name.toLowerCase())) headers.push([name, value]);
    };
    if (typedHost) {
      if (!typedHost.drop) headers.push([typedHost.name, typedHost.value]);
    } else own('Host', url.hostHeader);
    const proxyCredentials =
      proxyUser ?? (proxy ? /^(?:[a-z]+:\/\/)?([^@/]+)@/i.exec(proxy)?.[1] : null);
    if (viaProxy && proxyCredentials)
      own('Proxy-Authorization', basic(decodeURIComponentSafe(proxyCredentials)));
    if (challenge) own('Authorization', null);
    else if (user !== null) own('Authorization', basic(user));
    else if (url.credentials !== null) own('Authorization', basic(url.credentials));
    else if (bearer !== null) own('Authorization', `Bearer ${bearer}`);
    if (range !== null) own('Range', `bytes=${range}`);
    else if (resumeAt !== null && body === null) own('Range', `bytes=${resumeAt}-`);
    own('User-Agent', userAgent);
    own('Accept', '*/*');
    if (compressed) own('Accept-Encoding', 'deflate, gzip, br, zstd');
    if (trEncoding) {
      // --tr-encoding asks for TE and names it in Connection, with any typed Connection values.
      headers.push(['TE', 'gzip']);
      const typedValues = connection.filter((h) => !h.drop && h.value).map((h) => h.value);
      const blanked = connection.some((h) => h.drop);
      headers.push(['Connection', blanked ? 'TE' : [...typedValues, 'TE'].join(', ')]);
    }
    own('Referer', referer);
    if (viaProxy) own('Proxy-Connection', 'Keep-Alive');
    if (cookies.length > 0) own('Cookie', cookies.join('; '));
    for (const h of typed) if (!h.drop) headers.push([h.name, h.value]);
    const chunked = custom.some(
      (h) => h.name.toLowerCase() === 'transfer-encoding' && /chunked/i.test(h.value),
    );
    if (body !== null) {
      if (!chunked) own('Content-Length', String(Buffer.byteLength(body, 'utf8')));
      own('Content-Type', contentType);
    }
    return {
      request: { startLine: `${verb} ${requestTarget} ${version}`, headers, body: body ?? '' },
      response: null,
      ...(fileNotes.length > 0
        ? {
            notes: [...new Set(fileNotes)].map(
              (name) => `The command reads ${name}: its contents are not part of the paste.`,
            ),
          }
        : {}),
    };
  }
}

/** curl's URL globbing: `{a,b}` sets and `[1-3]`, `[a-c]`, `[01-10:2]` ranges, at most 100. */
export function expandGlob(url: string): string[] {
  const m = /\{([^{}]*)\}|\[([0-9]+)-([0-9]+)(?::([0-9]+))?\]|\[([a-zA-Z])-([a-zA-Z])\]/.exec(url);
  if (!m) return [url];
  let choices: string[];
  if (m[1] !== undefined) choices = m[1].split(',');
  else if (m[2] !== undefined && m[3] !== undefined) {
    const from = Number(m[2]);
    const to = Number(m[3]);
    const step = Number(m[4] ?? '1') || 1;
    const width = m[2].startsWith('0') ? m[2].length : 0;
    choices = [];
    for (let n = from; n <= to && choices.length < 100; n += step)
      choices.push(String(n).padStart(width, '0'));
  } else {
    choices = [];
    const from = (m[5] ?? 'a').charCodeAt(0);
    const to = (m[6] ?? 'a').charCodeAt(0);
    for (let c = from; c <= to; c++) choices.push(String.fromCharCode(c));
  }
  const head = url.slice(0, m.index);
  const tail = url.slice(m.index + m[0].length);
  return choices.flatMap((c) => expandGlob(tail).map((t) => `${head}${c}${t}`)).slice(0, 100);
}

/** Back-compatible single result: the first request of the command (tests and old callers). */
export function parseCurl(command: string): HttpExchange | null {
  try {
    return parseCurlCommand(command)[0] ?? null;
  } catch {
    return null;
  }
}

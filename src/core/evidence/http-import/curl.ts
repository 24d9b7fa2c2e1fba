import { parse as parseShell } from 'shell-quote';
import type { HttpExchange } from './model';

/** Options that take a value; every other option is a flag (`-k`, `--compressed`…). */
const WITH_VALUE = new Set([
  '-X',
  '--request',
  '-H',
  '--header',
  '-d',
  '--data',
  '--data-raw',
  '--data-binary',
  '--data-ascii',
  '--data-urlencode',
  '--json',
  '-b',
  '--cookie',
  '-u',
  '--user',
  '-A',
  '--user-agent',
  '-e',
  '--referer',
  '--url',
  '-o',
  '--output',
  '-x',
  '--proxy',
  '-F',
  '--form',
  '--connect-timeout',
  '-m',
  '--max-time',
  '--resolve',
  '-w',
  '--write-out',
  '-c',
  '--cookie-jar',
  '--cert',
  '--key',
  '--cacert',
  '--retry',
  '-T',
  '--upload-file',
  '--oauth2-bearer',
]);
const DATA = new Set([
  '-d',
  '--data',
  '--data-raw',
  '--data-binary',
  '--data-ascii',
  '--data-urlencode',
]);

/**
 * A curl command (as "Copy as cURL" writes it in browsers and Burp) as the request it sends.
 * Words are split the way a POSIX shell would (shell-quote), variables are left as written, and
 * the command ends at the first pipe or redirection. Null when there is no curl and no URL.
 */
export function parseCurl(command: string): HttpExchange | null {
  const joined = command.replace(/^\s*\$\s+/, '').replace(/\\\r?\n/g, ' ');
  let words: string[];
  try {
    const tokens = parseShell(joined, (name) => `$${name}`);
    words = [];
    for (const token of tokens) {
      if (typeof token === 'string') words.push(token);
      else if ('op' in token && token.op === 'glob') words.push(token.pattern);
      else break;
    }
  } catch {
    return null;
  }
  if (words[0] !== 'curl') return null;
  let method: string | null = null;
  let url: string | null = null;
  const headers: [string, string][] = [];
  const data: string[] = [];
  const form: string[] = [];
  let head = false;
  let get = false;
  for (let i = 1; i < words.length; i++) {
    let word = words[i] ?? '';
    let value: string | undefined;
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    if (eq > 2 && WITH_VALUE.has(word.slice(0, eq))) {
      value = word.slice(eq + 1);
      word = word.slice(0, eq);
    } else if (/^-[A-Za-z]./.test(word) && WITH_VALUE.has(word.slice(0, 2))) {
      value = word.slice(2); // -XPOST, -HAccept:…
      word = word.slice(0, 2);
    } else if (WITH_VALUE.has(word)) {
      value = words[++i] ?? '';
    }
    switch (word) {
      case '-X':
      case '--request':
        method = (value ?? '').toUpperCase();
        break;
      case '-H':
      case '--header': {
        const header = value ?? '';
        const colon = header.indexOf(':');
        if (colon > 0)
          headers.push([header.slice(0, colon).trim(), header.slice(colon + 1).trim()]);
        break;
      }
      case '--json':
        data.push(value ?? '');
        headers.push(['Content-Type', 'application/json']);
        break;
      case '-F':
      case '--form':
        form.push(value ?? '');
        break;
      case '-b':
      case '--cookie':
        if ((value ?? '').includes('=')) headers.push(['Cookie', value ?? '']);
        break;
      case '-u':
      case '--user':
        headers.push(['Authorization', `Basic ${Buffer.from(value ?? '').toString('base64')}`]);
        break;
      case '--oauth2-bearer':
        headers.push(['Authorization', `Bearer ${value ?? ''}`]);
        break;
      case '-A':
      case '--user-agent':
        headers.push(['User-Agent', value ?? '']);
        break;
      case '-e':
      case '--referer':
        headers.push(['Referer', value ?? '']);
        break;
      case '--url':
        url = value ?? null;
        break;
      case '-I':
      case '--head':
        head = true;
        break;
      case '-G':
      case '--get':
        get = true;
        break;
      default:
        if (DATA.has(word)) data.push(value ?? '');
        else if (!word.startsWith('-') && url === null) url = word;
    }
  }
  if (!url) return null;
  let target: URL;
  try {
    target = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`);
  } catch {
    return null;
  }
  let body = data.join('&');
  if (get && body) {
    target.search = target.search ? `${target.search}&${body}` : `?${body}`;
    body = '';
  }
  if (form.length > 0 && !body) body = form.map((f) => `[form field] ${f}`).join('\n');
  const verb = method ?? (head ? 'HEAD' : body ? 'POST' : 'GET');
  if (body && data.length > 0 && !headers.some(([n]) => n.toLowerCase() === 'content-type'))
    headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
  if (!headers.some(([n]) => n.toLowerCase() === 'host')) headers.unshift(['Host', target.host]);
  return {
    request: {
      startLine: `${verb} ${target.pathname}${target.search} HTTP/1.1`,
      headers,
      body,
    },
    response: null,
  };
}

/** What the credential scan reads in a HAR: headers, cookies, query, form, bodies, websockets. */
import {
  isCredentialHeader,
  isNotCredentialHeader,
  isSecretField,
  NOT_SESSION_COOKIE,
} from './rules';
import {
  decodeContent,
  encodeContent,
  recordedBytes,
  writeRecorded,
} from '../http-import/recorded-body';
import type { Part } from './structured-parts';
import { looksLikeText } from './text-sniff';

interface Pair {
  name?: unknown;
  value?: unknown;
}
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The string `text` of `owner[key]` as one whole part, written back in place. */
function fieldPart(owner: Obj, key: string, text: string, where: string): Part {
  return {
    where,
    text,
    valueStart: 0,
    write: (v) => {
      owner[key] = v;
    },
  };
}

/** The `Content-Encoding` a HAR message's headers name, if any. */
function contentEncoding(headers: unknown): string | undefined {
  if (!Array.isArray(headers)) return undefined;
  const h = (headers as Pair[]).find(
    (p) => isObj(p) && typeof p.name === 'string' && p.name.toLowerCase() === 'content-encoding',
  );
  return typeof h?.value === 'string' ? h.value : undefined;
}

/**
 * `text` of a HAR body or content, as the reader shows it: base64 and hex (Polly.js, nock, chunk
 * lists) decoded, a content coding the bytes still carry undone; written back encoded the same.
 */
function bodyPart(owner: Obj, where: string, headers?: unknown): Part | null {
  const text = owner.text;
  if (typeof text !== 'string' || text === '') return null;
  const recorded = recordedBytes(owner);
  if (recorded) {
    const decoded = decodeContent(recorded.bytes, contentEncoding(headers));
    if (decoded.failed !== null || !looksLikeText(decoded.bytes)) return null;
    return {
      where,
      text: decoded.bytes.toString('utf8'),
      valueStart: 0,
      write: (v) => {
        const bytes = encodeContent(Buffer.from(v, 'utf8'), decoded.undone);
        owner.text = writeRecorded(bytes, recorded);
      },
    };
  }
  return fieldPart(owner, 'text', text, where);
}

function pairParts(list: unknown, where: string, kind: 'header' | 'cookie' | 'field'): Part[] {
  if (!Array.isArray(list)) return [];
  const parts: Part[] = [];
  for (const item of list as Pair[]) {
    if (!isObj(item) || typeof item.name !== 'string' || typeof item.value !== 'string') continue;
    const pair = item as { name: string; value: string };
    const name = pair.name;
    if (kind === 'header' && isNotCredentialHeader(name)) continue;
    const sep = kind === 'header' ? ': ' : '=';
    const prefix = `${name}${sep}`;
    let whole: Part['whole'];
    if (kind === 'cookie' && !NOT_SESSION_COOKIE.test(name) && pair.value.length >= 8)
      whole = { kind: 'cookie', label: `Cookie “${name}”` };
    if (kind === 'field' && isSecretField(name))
      whole = { kind: 'token', label: `Secret in field “${name}”` };
    if (kind === 'header' && isCredentialHeader(name) && !/^(set-)?cookie$/i.test(name))
      whole = { kind: 'authorization-header', label: `${name} header` };
    const label = kind === 'field' ? 'field' : kind;
    parts.push({
      where: `${where} ${label} “${name}”`,
      text: `${prefix}${pair.value}`,
      valueStart: prefix.length,
      whole,
      write: (v) => {
        pair.value = v;
      },
    });
  }
  return parts;
}

export function harParts(har: Obj): Part[] {
  const log = isObj(har.log) ? har.log : {};
  const entries = Array.isArray(log.entries) ? (log.entries as unknown[]) : [];
  const parts: Part[] = [];
  entries.forEach((entry, i) => {
    if (!isObj(entry)) return;
    const at = `entry ${i + 1}`;
    const req = isObj(entry.request) ? entry.request : null;
    if (req) {
      if (typeof req.url === 'string') {
        parts.push(fieldPart(req, 'url', req.url, `${at}, request URL`));
      }
      parts.push(...pairParts(req.headers, `${at}, request`, 'header'));
      parts.push(...pairParts(req.cookies, `${at}, request`, 'cookie'));
      parts.push(...pairParts(req.queryString, `${at}, query`, 'field'));
      const post = isObj(req.postData) ? req.postData : null;
      if (post) {
        parts.push(...pairParts(post.params, `${at}, form`, 'field'));
        const body = bodyPart(post, `${at}, request body`, req.headers);
        if (body) parts.push(body);
      }
    }
    const res = isObj(entry.response) ? entry.response : null;
    if (res) {
      parts.push(...pairParts(res.headers, `${at}, response`, 'header'));
      parts.push(...pairParts(res.cookies, `${at}, response`, 'cookie'));
      if (typeof res.redirectURL === 'string' && res.redirectURL !== '') {
        parts.push(fieldPart(res, 'redirectURL', res.redirectURL, `${at}, redirect URL`));
      }
      const content = isObj(res.content) ? res.content : null;
      if (content) {
        const body = bodyPart(content, `${at}, response body`, res.headers);
        if (body) parts.push(body);
      }
    }
    const messages = Array.isArray(entry._webSocketMessages) ? entry._webSocketMessages : [];
    (messages as unknown[]).forEach((message, j) => {
      if (!isObj(message) || typeof message.data !== 'string') return;
      parts.push(fieldPart(message, 'data', message.data, `${at}, websocket message ${j + 1}`));
    });
  });
  return parts;
}

/** A parsed HAR (`log.entries` is a list), or null. */
export function parseHarObject(text: string): Obj | null {
  const start = text.trimStart()[0];
  if (start !== '{') return null;
  try {
    const value: unknown = JSON.parse(text);
    if (isObj(value) && isObj(value.log) && Array.isArray(value.log.entries)) return value;
  } catch {
    return null;
  }
  return null;
}

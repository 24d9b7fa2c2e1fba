import type { Content, Entry, Har, Header, Param, PostData } from 'har-format';
import { binaryLabel, bodyOf } from './body-text';
import { decodeContent, recordedBytes } from './recorded-body';
import { HttpEvidenceError, type HttpExchange } from './model';

function headersOf(list: unknown): [string, string][] {
  if (!Array.isArray(list)) return [];
  return (list as Partial<Header>[])
    .filter((h) => typeof h?.name === 'string' && !h.name.startsWith(':'))
    .map((h) => [String(h.name), String(h.value ?? '')]);
}

/** The request target as recorded: the URL's path and query, bytes untouched. */
function targetOf(url: string): { target: string; host: string | null } {
  const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/?#]*)([^#]*)/.exec(url);
  if (!m) return { target: url, host: null };
  const authority = m[1] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  const rest = m[2] ?? '';
  return { target: rest.startsWith('/') ? rest : `/${rest}`, host: host || null };
}

/** The version as the browser recorded it (`http/2.0`, `h3`, `HTTP/1.1`); HTTP/1.1 if absent. */
function versionOf(recorded: unknown): string {
  return typeof recorded === 'string' && /^\S+$/.test(recorded) && !/^unknown$/i.test(recorded)
    ? recorded
    : 'HTTP/1.1';
}

type Body = ReturnType<typeof bodyOf> & { note?: string };

/**
 * The body as recorded, decoded: base64, hex (Polly.js, nock) and chunk lists read as bytes; a
 * `Content-Encoding` the bytes still carry undone; what is not text labelled, never dumped.
 */
function contentBody(content: Partial<Content> | undefined, headers: [string, string][]): Body {
  if (!content || typeof content.text !== 'string') return { body: '' };
  const type = String(content.mimeType ?? '');
  const recorded = recordedBytes(content as Record<string, unknown>);
  if (recorded) {
    const coding = headers.find(([n]) => n.toLowerCase() === 'content-encoding')?.[1];
    return decodedBody(
      recorded.bytes,
      type,
      coding,
      `${recorded.encoding}${recorded.chunked ? ' chunks' : ''}`,
    );
  }
  if (/^(image|audio|video|font)\//i.test(type) && !/svg/i.test(type))
    return { body: binaryLabel(content.size ?? content.text.length, type) };
  return { body: content.text };
}

/** Bytes with their content coding undone when they carry it, as text or a binary label. */
export function decodedBody(
  bytes: Buffer,
  type: string,
  coding: string | undefined,
  as: string,
): Body {
  const decoded = decodeContent(bytes, coding);
  if (decoded.failed !== null)
    return {
      body: `[binary body: ${bytes.length.toLocaleString('en-US')} bytes of ${type.split(';')[0]?.trim() || 'unknown type'}, ${decoded.failed}-compressed and not readable, not shown]`,
      binary: { bytes, contentType: 'application/octet-stream' },
    };
  const body = bodyOf(decoded.bytes, type);
  if (decoded.undone.length === 0) return body;
  return {
    ...body,
    note: `The body was recorded ${decoded.undone.join(', ')}-compressed (as ${as}); it is shown decoded.`,
  };
}

/** `postData.text`, or the `params[]` list when the browser recorded only that. */
function postText(post: Partial<PostData> | undefined): string {
  if (!post) return '';
  if (typeof post.text === 'string' && post.text !== '') return post.text;
  const params = Array.isArray(post.params) ? (post.params as Partial<Param>[]) : [];
  if (params.length === 0) return '';
  const type = String(post.mimeType ?? '');
  if (/multipart\/form-data/i.test(type)) {
    return params
      .map((p) => {
        const file = p.fileName ? `; filename="${p.fileName}"` : '';
        const value =
          p.fileName && p.value === undefined ? `[file ${p.fileName}]` : (p.value ?? '');
        return `Content-Disposition: form-data; name="${p.name ?? ''}"${file}\n\n${value}`;
      })
      .join('\n--\n');
  }
  return params.map((p) => `${p.name ?? ''}=${p.value ?? ''}`).join('&');
}

/** Line and column of a character offset, for an error message. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

function jsonError(source: string, e: unknown): HttpEvidenceError {
  const message = e instanceof Error ? e.message : String(e);
  const position = /position (\d+)/.exec(message)?.[1];
  const offset = position !== undefined ? Number(position) : source.length;
  const atEnd = offset >= source.trimEnd().length;
  const what =
    atEnd || /end of (JSON|data)/i.test(message)
      ? 'the JSON ends early (the file looks cut)'
      : `the JSON is broken (${message.replace(/ in JSON at position \d+.*$/, '')})`;
  return new HttpEvidenceError(`${what} at ${lineColumn(source, offset)}`);
}

interface WebSocketMessage {
  type?: string;
  opcode?: number;
  data?: string;
}

/** The entries of a HAR 1.2 log (browsers' "Save all as HAR"), each as recorded. */
export function parseHar(text: string): HttpExchange[] {
  const source = text.replace(/^\uFEFF/, '');
  let har: Partial<Har>;
  try {
    har = JSON.parse(source) as Partial<Har>;
  } catch (e) {
    throw jsonError(source, e);
  }
  const entries = har?.log?.entries as unknown;
  if (!Array.isArray(entries)) throw new HttpEvidenceError('the HAR has no log.entries list');
  if (entries.length === 0)
    throw new HttpEvidenceError('the HAR has no entries (log.entries is empty)');
  const exchanges: HttpExchange[] = [];
  const unreadable: number[] = [];
  (entries as Partial<Entry>[]).forEach((entry, index) => {
    const req = entry?.request;
    if (!req || typeof req.method !== 'string' || typeof req.url !== 'string') {
      unreadable.push(index + 1);
      return;
    }
    const { target, host } = targetOf(req.url);
    const headers = headersOf(req.headers);
    if (host && !headers.some(([n]) => n.toLowerCase() === 'host')) headers.unshift(['Host', host]);
    const res = entry.response;
    let bodyNote: string | undefined;
    const response = ((): HttpExchange['response'] => {
      if (!res || typeof res.status !== 'number' || res.status <= 0) return null;
      const resHeaders = headersOf(res.headers);
      const { note, ...body } = contentBody(res.content, resHeaders);
      bodyNote = note;
      return {
        startLine: `${versionOf(res.httpVersion)} ${res.status} ${res.statusText ?? ''}`.trimEnd(),
        headers: resHeaders,
        ...body,
      };
    })();
    const ws = (entry as { _webSocketMessages?: WebSocketMessage[] })._webSocketMessages;
    const exchange: HttpExchange = {
      request: {
        startLine: `${req.method} ${target} ${versionOf(req.httpVersion)}`,
        headers,
        body: postText(req.postData),
      },
      response,
    };
    if (bodyNote) exchange.notes = [bodyNote];
    if (Array.isArray(ws) && ws.length > 0)
      exchange.webSocket = ws.map((m) => ({
        sent: m.type === 'send',
        text:
          m.opcode === 2
            ? binaryLabel(Buffer.from(String(m.data ?? ''), 'base64').length, 'binary frame')
            : String(m.data ?? ''),
      }));
    exchanges.push(exchange);
  });
  if (exchanges.length === 0)
    throw new HttpEvidenceError(
      `no entry of the HAR has a request method and URL (${entries.length} entries)`,
    );
  if (unreadable.length > 0) {
    const last = exchanges[exchanges.length - 1];
    if (last)
      last.notes = [
        ...(last.notes ?? []),
        `HAR entr${unreadable.length === 1 ? 'y' : 'ies'} ${unreadable.join(', ')} left out: no request method and URL.`,
      ];
  }
  return exchanges;
}

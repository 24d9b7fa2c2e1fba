import type { Content, Har, Header, PostData } from 'har-format';
import type { HttpExchange } from './model';

function headersOf(list: unknown): [string, string][] {
  if (!Array.isArray(list)) return [];
  return (list as Partial<Header>[])
    .filter((h) => typeof h?.name === 'string' && !h.name.startsWith(':'))
    .map((h) => [String(h.name), String(h.value ?? '')]);
}

function pathOf(url: string): { path: string; host: string | null } {
  try {
    const u = new URL(url);
    return { path: `${u.pathname}${u.search}`, host: u.host };
  } catch {
    return { path: url, host: null };
  }
}

function textOf(content: Partial<Content> | Partial<PostData> | undefined): string {
  if (!content || typeof content.text !== 'string') return '';
  if ('encoding' in content && content.encoding === 'base64') {
    const bytes = Buffer.from(content.text, 'base64');
    const type = String(content.mimeType ?? '');
    // Binary bodies (images, fonts…) say what they are instead of pasting noise.
    if (!/text|json|xml|javascript|x-www-form-urlencoded|html/.test(type))
      return `[binary body: ${bytes.length} bytes of ${type || 'unknown type'}]`;
    return bytes.toString('utf8');
  }
  return content.text;
}

/** The entries of a HAR 1.2 log (browsers' "Save all as HAR"). Null when it is not a HAR. */
export function parseHar(text: string): HttpExchange[] | null {
  let har: Partial<Har>;
  try {
    har = JSON.parse(text.replace(/^\uFEFF/, '')) as Partial<Har>;
  } catch {
    return null;
  }
  const entries = har?.log?.entries;
  if (!Array.isArray(entries)) return null;
  return entries
    .filter((e) => e && typeof e.request?.method === 'string' && typeof e.request?.url === 'string')
    .map((entry) => {
      const req = entry.request;
      const { path, host } = pathOf(req.url);
      const version = /^HTTP\/\d/.test(req.httpVersion ?? '') ? req.httpVersion : 'HTTP/1.1';
      const headers = headersOf(req.headers);
      if (host && !headers.some(([n]) => n.toLowerCase() === 'host'))
        headers.unshift(['Host', host]);
      const res = entry.response;
      const response =
        res && typeof res.status === 'number' && res.status > 0
          ? {
              startLine:
                `${/^HTTP\/\d/.test(res.httpVersion ?? '') ? res.httpVersion : 'HTTP/1.1'} ` +
                `${res.status} ${res.statusText ?? ''}`.trimEnd(),
              headers: headersOf(res.headers),
              body: textOf(res.content),
            }
          : null;
      return {
        request: {
          startLine: `${req.method} ${path} ${version}`,
          headers,
          body: textOf(req.postData),
        },
        response,
      };
    });
}

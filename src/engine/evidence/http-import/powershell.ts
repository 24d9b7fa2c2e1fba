import { splitCurlUrl } from './curl-url';
import { HttpEvidenceError, type HttpExchange } from './model';

/** A PowerShell string literal: "…" (backtick escapes, "" for ") or '…' ('' for '). */
const STRING = String.raw`"(?:[^"\x60]|\x60[\s\S]|"")*"|'(?:[^']|'')*'`;

const BACKTICK: Record<string, string> = { n: '\n', r: '\r', t: '\t', '0': '\0', a: '\x07' };

function unquote(literal: string): string {
  if (literal.startsWith("'")) return literal.slice(1, -1).replace(/''/g, "'");
  return literal
    .slice(1, -1)
    .replace(/""/g, '"')
    .replace(/\x60([\s\S])/g, (_, c: string) => BACKTICK[c] ?? c);
}

function stringAfter(text: string, pattern: string): string | null {
  const m = new RegExp(`${pattern}\\s*(${STRING})`, 'i').exec(text);
  return m?.[1] ? unquote(m[1]) : null;
}

/** The `-Headers @{ "name"="value" … }` table, in order. */
function headerTable(text: string): [string, string][] {
  const start = /-Headers\s+@\{/i.exec(text);
  if (!start) return [];
  const pair = new RegExp(`[\\s;]*(${STRING}|[\\w-]+)\\s*=\\s*(${STRING})`, 'y');
  pair.lastIndex = start.index + start[0].length;
  const headers: [string, string][] = [];
  for (let m = pair.exec(text); m; m = pair.exec(text)) {
    const name = m[1]?.startsWith('"') || m[1]?.startsWith("'") ? unquote(m[1]) : (m[1] ?? '');
    headers.push([name, unquote(m[2] ?? '""')]);
  }
  return headers;
}

/**
 * A browser's "Copy as PowerShell" (`Invoke-WebRequest` with a web session) as the request it
 * sends: URI, method, the header table in order, the session's User-Agent and cookies, the
 * content type and the body. HTTP/2 pseudo-headers the browser copies into the table are left
 * out (the request line says them).
 */
export function parsePowerShell(text: string): HttpExchange[] {
  const uri = stringAfter(text, '-Uri');
  if (uri === null) throw new HttpEvidenceError('the PowerShell command has no -Uri "…"');
  const url = splitCurlUrl(uri, true);
  const method = stringAfter(text, '-Method') ?? /-Method\s+([A-Za-z]+)/i.exec(text)?.[1] ?? 'GET';
  const table = headerTable(text).filter(([n]) => !/^:?(authority|method|path|scheme)$/i.test(n));
  const headers: [string, string][] = [];
  if (!table.some(([n]) => n.toLowerCase() === 'host')) headers.push(['Host', url.hostHeader]);
  const userAgent = stringAfter(text, String.raw`\$session\.UserAgent\s*=`);
  if (userAgent !== null) headers.push(['User-Agent', userAgent]);
  headers.push(...table);
  const cookie = new RegExp(`System\\.Net\\.Cookie\\(\\s*(${STRING})\\s*,\\s*(${STRING})`, 'gi');
  const cookies = [...text.matchAll(cookie)].map(
    (m) => `${unquote(m[1] ?? '""')}=${unquote(m[2] ?? '""')}`,
  );
  if (cookies.length > 0) headers.push(['Cookie', cookies.join('; ')]);
  const contentType = stringAfter(text, '-ContentType');
  if (contentType !== null) headers.push(['Content-Type', contentType]);
  const body =
    stringAfter(text, String.raw`-Body\s+\(\[System\.Text\.Encoding\]::UTF8\.GetBytes\(`) ??
    stringAfter(text, '-Body') ??
    '';
  const target = `${url.path}${url.query === null ? '' : `?${url.query}`}`;
  return [
    { request: { startLine: `${method} ${target} HTTP/1.1`, headers, body }, response: null },
  ];
}

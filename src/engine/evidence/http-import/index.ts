/**
 * HTTP evidence import: a HAR file, a Burp Suite XML export, a curl command or
 * a raw request/response pair becomes fenced `http` code blocks for the description, with long
 * bodies cut (and a note saying so) and the full text kept for an evidence file. Redaction of
 * credentials is the caller's next step (the credential scan), on both texts.
 */
import { detectHttpEvidence, type HttpEvidenceFormat } from '@shared/evidence/http-detect';
import { parseBurpXml } from './burp';
import { parseCurlCommand } from './curl';
import { parseHar } from './har';
import {
  HttpEvidenceError,
  HttpEvidenceKeptAsFile,
  parseRawExchange,
  type HttpExchange,
  type HttpMessage,
} from './model';
import { parsePowerShell } from './powershell';

export type { HttpExchange, HttpMessage } from './model';

export interface HttpImport {
  format: HttpEvidenceFormat;
  exchanges: HttpExchange[];
}

/** Text of a known format that could not be read: what failed and where (entry, line, word). */
export interface HttpImportFailure {
  format: HttpEvidenceFormat;
  error: string;
  /** Recognised but not read as requests: kept whole as an evidence file of this name. */
  keepAsFile?: string;
}

export const FORMAT_NAMES: Record<HttpEvidenceFormat, string> = {
  har: 'HAR file',
  burp: 'Burp Suite export',
  curl: 'curl command',
  powershell: 'PowerShell command',
  raw: 'HTTP request',
};

/** A format's name with its article, as it is read aloud: "an HTTP request", "a HAR file". */
export function aFormatName(format: HttpEvidenceFormat): string {
  return `${format === 'raw' ? 'an' : 'a'} ${FORMAT_NAMES[format]}`;
}

function exchangesOf(format: HttpEvidenceFormat, text: string): HttpExchange[] {
  if (format === 'har') return parseHar(text);
  if (format === 'burp') return parseBurpXml(text);
  if (format === 'curl') return parseCurlCommand(text);
  if (format === 'powershell') return parsePowerShell(text);
  return [parseRawExchange(text)];
}

/**
 * The exchanges of pasted or dropped evidence; a failure (naming what and where) when the text
 * is of a known format but cannot be read; null when it is none of the formats. Never throws.
 */
export function readHttpEvidence(text: string): HttpImport | HttpImportFailure | null {
  const format = detectHttpEvidence(text);
  if (!format) return null;
  try {
    const exchanges = exchangesOf(format, text);
    if (exchanges.length === 0) return { format, error: 'it holds no request' };
    return { format, exchanges };
  } catch (e) {
    if (e instanceof HttpEvidenceKeptAsFile)
      return { format, error: e.message, keepAsFile: e.fileName };
    const error = e instanceof HttpEvidenceError ? e.message : `it cannot be read (${String(e)})`;
    return { format, error };
  }
}

/** The exchanges, or null when the text is not evidence the app reads. Never throws. */
export function parseHttpEvidence(text: string): HttpImport | null {
  const read = readHttpEvidence(text);
  return read && 'exchanges' in read ? read : null;
}

export interface RenderLimits {
  /** Characters of one body shown in the description. */
  bodyChars: number;
  /** Exchanges shown in the description; the rest are only in the evidence file. */
  exchanges: number;
}

export const DEFAULT_LIMITS: RenderLimits = { bodyChars: 1500, exchanges: 5 };

export interface RenderedEvidence {
  /** Fenced code blocks (and notes) for the description. */
  markdown: string;
  /** Every exchange in full: the text of the evidence file when `needsFile`. */
  fullText: string;
  /** Something was cut or left out of the description. */
  needsFile: boolean;
}

function messageText(message: HttpMessage, bodyChars: number): { text: string; cut: number } {
  const head = [
    message.startLine,
    ...message.headers.map(([n, v]) => (v === '' ? `${n}:` : `${n}: ${v}`)),
  ].join('\n');
  const body = message.body.replace(/\r\n/g, '\n').replace(/\n+$/, '');
  if (!body) return { text: head, cut: 0 };
  const cut = Math.max(0, body.length - bodyChars);
  const shown = cut > 0 ? body.slice(0, bodyChars) : body;
  const note = cut > 0 ? `\n[… ${cut} more characters of the body cut here]` : '';
  return { text: `${head}\n\n${shown}${note}`, cut };
}

function exchangeText(exchange: HttpExchange, bodyChars: number): { text: string; cut: number } {
  const parts = [messageText(exchange.request, bodyChars)];
  if (exchange.response) parts.push(messageText(exchange.response, bodyChars));
  const ws = exchange.webSocket ?? [];
  if (ws.length > 0) {
    const lines = ws.map((m) => `${m.sent ? '→' : '←'} ${m.text}`).join('\n');
    const cut = Math.max(0, lines.length - bodyChars);
    const note = cut > 0 ? `\n[… ${cut} more characters of WebSocket messages cut here]` : '';
    const head = `[WebSocket: ${ws.length} message${ws.length === 1 ? '' : 's'}, → sent, ← received]`;
    parts.push({ text: `${head}\n${cut > 0 ? lines.slice(0, bodyChars) : lines}${note}`, cut });
  }
  for (const note of exchange.notes ?? []) parts.push({ text: `[${note}]`, cut: 0 });
  return {
    text: parts.map((p) => p.text).join('\n\n'),
    cut: parts.reduce((n, p) => n + p.cut, 0),
  };
}

/** A fence longer than any run of backticks inside, so the block cannot be closed early. */
export function fence(text: string, info = 'http'): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const marks = '`'.repeat(Math.max(3, longest + 1));
  return `${marks}${info}\n${text}\n${marks}`;
}

export function renderHttpEvidence(
  imported: HttpImport,
  limits: RenderLimits = DEFAULT_LIMITS,
): RenderedEvidence {
  const shown = imported.exchanges.slice(0, limits.exchanges);
  const parts = shown.map((e) => exchangeText(e, limits.bodyChars));
  const cut = parts.some((p) => p.cut > 0);
  const left = imported.exchanges.length - shown.length;
  const blocks = parts.map((p) => fence(p.text));
  const notes: string[] = [];
  if (left > 0) notes.push(`${left} more request${left === 1 ? '' : 's'} not shown here.`);
  if (cut) notes.push('Long bodies are cut.');
  const fullText = imported.exchanges
    .map((e) => exchangeText(e, Number.MAX_SAFE_INTEGER).text)
    .join('\n\n' + '#'.repeat(60) + '\n\n');
  const source = `_From ${aFormatName(imported.format)}${notes.length ? `. ${notes.join(' ')}` : '.'}_`;
  return {
    markdown: `${source}\n\n${blocks.join('\n\n')}`,
    fullText: `${fullText}\n`,
    needsFile: cut || left > 0,
  };
}

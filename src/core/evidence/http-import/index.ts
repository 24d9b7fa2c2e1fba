/**
 * HTTP evidence import (issue 13, part 2): a HAR file, a Burp Suite XML export, a curl command or
 * a raw request/response pair becomes fenced `http` code blocks for the description, with long
 * bodies cut (and a note saying so) and the full text kept for an evidence file. Redaction of
 * credentials is the caller's next step (the credential scan), on both texts.
 */
import { detectHttpEvidence, type HttpEvidenceFormat } from '../../../shared/evidence/http-detect';
import { parseBurpXml } from './burp';
import { parseCurl } from './curl';
import { parseHar } from './har';
import { parseRawExchange, type HttpExchange, type HttpMessage } from './model';

export type { HttpExchange, HttpMessage } from './model';

export interface HttpImport {
  format: HttpEvidenceFormat;
  exchanges: HttpExchange[];
}

export const FORMAT_NAMES: Record<HttpEvidenceFormat, string> = {
  har: 'HAR file',
  burp: 'Burp Suite export',
  curl: 'curl command',
  raw: 'HTTP request',
};

/** Null when the text is none of the four formats or holds no request. Never throws. */
export function parseHttpEvidence(text: string): HttpImport | null {
  const format = detectHttpEvidence(text);
  if (!format) return null;
  let exchanges: HttpExchange[] | null;
  try {
    if (format === 'har') exchanges = parseHar(text);
    else if (format === 'burp') exchanges = parseBurpXml(text);
    else if (format === 'curl') exchanges = [parseCurl(text)].filter((e) => e !== null);
    else exchanges = [parseRawExchange(text)];
  } catch {
    exchanges = null;
  }
  return exchanges && exchanges.length > 0 ? { format, exchanges } : null;
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
  const head = [message.startLine, ...message.headers.map(([n, v]) => `${n}: ${v}`)].join('\n');
  const body = message.body.replace(/\r\n/g, '\n').replace(/\n+$/, '');
  if (!body) return { text: head, cut: 0 };
  const cut = Math.max(0, body.length - bodyChars);
  const shown = cut > 0 ? body.slice(0, bodyChars) : body;
  const note = cut > 0 ? `\n[… ${cut} more characters of the body cut here]` : '';
  return { text: `${head}\n\n${shown}${note}`, cut };
}

function exchangeText(exchange: HttpExchange, bodyChars: number): { text: string; cut: number } {
  const request = messageText(exchange.request, bodyChars);
  if (!exchange.response) return request;
  const response = messageText(exchange.response, bodyChars);
  return { text: `${request.text}\n\n${response.text}`, cut: request.cut + response.cut };
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
  const source = `_From a ${FORMAT_NAMES[imported.format]}${notes.length ? `. ${notes.join(' ')}` : '.'}_`;
  return {
    markdown: `${source}\n\n${blocks.join('\n\n')}`,
    fullText: `${fullText}\n`,
    needsFile: cut || left > 0,
  };
}

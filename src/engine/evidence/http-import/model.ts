import { ENGINE_CODES } from '@shared/errors/error-data';

/** One HTTP message as it goes on the wire: start line, headers in order, body as text. */
export interface HttpMessage {
  startLine: string;
  headers: [name: string, value: string][];
  body: string;
  /** A body that is not text: its bytes, offered as a file; `body` is then its label. */
  binary?: { bytes: Buffer; contentType: string };
}

/** A request and, when the evidence has it, its response. */
export interface HttpExchange {
  request: HttpMessage;
  response: HttpMessage | null;
  /** WebSocket messages recorded on this connection, in order (HAR `_webSocketMessages`). */
  webSocket?: { sent: boolean; text: string }[];
  /** What the evidence does not hold (a file the command reads, a body not recorded…). */
  notes?: string[];
}

/** Evidence of a known format that cannot be read: the message says what failed and where. */
export class HttpEvidenceError extends Error {
  override name = 'HttpEvidenceError';
  readonly code: string = ENGINE_CODES.invalidEvidence;
}

/**
 * Evidence the app recognises but does not turn into requests (a Burp Scanner issues export):
 * the message says what it is, and it is kept whole as an evidence file under `fileName`.
 */
export class HttpEvidenceKeptAsFile extends HttpEvidenceError {
  override name = 'HttpEvidenceKeptAsFile';
  constructor(
    message: string,
    readonly fileName: string,
  ) {
    super(message);
  }
}

const HEADER = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*)$/;

/**
 * Parses one raw message (start line, headers, blank line, body). Lenient on purpose: evidence
 * is often hand-edited, so a line that is not a header ends the headers instead of failing.
 */
export function parseRawMessage(text: string): HttpMessage {
  const normalized = text.replace(/\r\n/g, '\n');
  const lines = normalized.split('\n');
  const startLine = (lines.shift() ?? '').trim();
  const headers: [string, string][] = [];
  let i = 0;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') {
      i++;
      break;
    }
    const m = HEADER.exec(line);
    if (!m) break;
    headers.push([m[1] ?? '', (m[2] ?? '').trim()]);
  }
  return { startLine, headers, body: lines.slice(i).join('\n') };
}

const STATUS_LINE = /^HTTP\/\d(?:\.\d)? \d{3}\b.*$/m;

/** A raw request, optionally followed by its response (the first `HTTP/x.y NNN` line after). */
export function parseRawExchange(text: string): HttpExchange {
  const normalized = text.replace(/\r\n/g, '\n').replace(/^\s+/, '');
  const firstBreak = normalized.indexOf('\n');
  const rest = firstBreak === -1 ? '' : normalized.slice(firstBreak + 1);
  const status = STATUS_LINE.exec(rest);
  if (!status) return { request: parseRawMessage(normalized), response: null };
  const at = firstBreak + 1 + status.index;
  return {
    request: parseRawMessage(normalized.slice(0, at).replace(/\n+$/, '')),
    response: parseRawMessage(normalized.slice(at)),
  };
}

export function headerValue(message: HttpMessage, name: string): string | undefined {
  const lower = name.toLowerCase();
  return message.headers.find(([n]) => n.toLowerCase() === lower)?.[1];
}

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodedBody } from './har';
import {
  headerValue,
  HttpEvidenceError,
  HttpEvidenceKeptAsFile,
  parseRawMessage,
  type HttpExchange,
  type HttpMessage,
} from './model';

interface BurpText {
  '#text'?: string | number;
  '@_base64'?: string;
}

interface BurpItem {
  request?: BurpText | string;
  response?: BurpText | string;
}

/**
 * Entities stay bounded (no billion laughs); external entities are never fetched by this parser.
 * Burp's own DTD declares elements and attributes only.
 */
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  trimValues: false,
  isArray: (name) => name === 'item' || name === 'issue',
  processEntities: { enabled: true, maxEntityCount: 10, maxExpandedLength: 1_000_000 },
});

/** The message's bytes: base64 as Burp writes by default, else the XML text as Latin-1 bytes. */
function bytesOf(node: BurpText | string | undefined): Buffer | null {
  if (node === undefined) return null;
  if (typeof node === 'string') return Buffer.from(node, 'utf8');
  const text = String(node['#text'] ?? '');
  return node['@_base64'] === 'true' ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
}

/** A raw message from its bytes: head read as text, body decoded by its own Content-Type. */
function messageOf(bytes: Buffer): HttpMessage & { note?: string } {
  let split = bytes.indexOf('\r\n\r\n');
  let gap = 4;
  if (split === -1) {
    split = bytes.indexOf('\n\n');
    gap = 2;
  }
  const headBytes = split === -1 ? bytes : bytes.subarray(0, split);
  const head = parseRawMessage(new TextDecoder('utf-8').decode(headBytes));
  if (split === -1) return head;
  const type = headerValue(head, 'content-type') ?? '';
  const { note, ...body } = decodedBody(
    bytes.subarray(split + gap),
    type,
    headerValue(head, 'content-encoding'),
    'bytes',
  );
  return { ...head, ...body, ...(note ? { note } : {}) };
}

/**
 * A Burp Scanner issues export ("Report issues" as XML): findings with their severity, not the
 * requests of "Save items". Said as such, with what it holds, and kept whole as a file.
 */
function issuesExport(issues: unknown): HttpEvidenceKeptAsFile {
  const list = (issues as { issue?: unknown })?.issue;
  const all = (Array.isArray(list) ? list : list === undefined ? [] : [list]) as {
    name?: unknown;
    severity?: unknown;
  }[];
  const names = [...new Set(all.map((i) => String(i?.name ?? '').trim()).filter(Boolean))];
  const severities = new Map<string, number>();
  for (const i of all) {
    const s = String(i?.severity ?? '').trim() || 'unrated';
    severities.set(s, (severities.get(s) ?? 0) + 1);
  }
  const bySeverity = [...severities].map(([s, n]) => `${n} ${s}`).join(', ');
  const shown = names
    .slice(0, 3)
    .map((n) => `“${n}”`)
    .join(', ');
  const more = names.length > 3 ? ` and ${names.length - 3} more` : '';
  return new HttpEvidenceKeptAsFile(
    `it is a Burp Scanner issues export (${all.length} issue${all.length === 1 ? '' : 's'}` +
      `${bySeverity ? `: ${bySeverity}` : ''}${shown ? `; ${shown}${more}` : ''}), not a “Save items” ` +
      'export of requests',
    'burp-issues.xml',
  );
}

/** A Burp Suite "Save items" XML export, each item's request and response as recorded. */
export function parseBurpXml(text: string): HttpExchange[] {
  const valid = XMLValidator.validate(text);
  if (valid !== true)
    throw new HttpEvidenceError(
      `the XML is broken at line ${valid.err.line}, column ${valid.err.col} (${valid.err.msg})`,
    );
  const doc = parser.parse(text) as { items?: { item?: BurpItem[] }; issues?: unknown };
  if (doc?.issues !== undefined) throw issuesExport(doc.issues);
  const items = doc?.items?.item;
  if (!Array.isArray(items) || items.length === 0)
    throw new HttpEvidenceError('the Burp export has no <item>');
  const out: HttpExchange[] = [];
  const empty: number[] = [];
  items.forEach((item, index) => {
    const request = bytesOf(item.request);
    if (!request || request.toString('latin1').trim() === '') {
      empty.push(index + 1);
      return;
    }
    const responseBytes = bytesOf(item.response);
    const { note, ...response } =
      responseBytes && responseBytes.length > 0 ? messageOf(responseBytes) : { note: undefined };
    const { note: requestNote, ...requestMessage } = messageOf(request);
    const notes = [requestNote, note].filter((n): n is string => n !== undefined);
    out.push({
      request: requestMessage,
      response: 'startLine' in response ? (response as HttpMessage) : null,
      ...(notes.length > 0 ? { notes } : {}),
    });
  });
  if (out.length === 0) throw new HttpEvidenceError(`no <item> of the Burp export has a request`);
  const last = out[out.length - 1];
  if (empty.length > 0 && last)
    last.notes = [
      ...(last.notes ?? []),
      `Burp item${empty.length === 1 ? '' : 's'} ${empty.join(', ')} left out: no request.`,
    ];
  return out;
}

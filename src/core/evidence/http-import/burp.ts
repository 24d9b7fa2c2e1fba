import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { bodyOf } from './body-text';
import { HttpEvidenceError, parseRawMessage, type HttpExchange, type HttpMessage } from './model';

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
  isArray: (name) => name === 'item',
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
function messageOf(bytes: Buffer): HttpMessage {
  let split = bytes.indexOf('\r\n\r\n');
  let gap = 4;
  if (split === -1) {
    split = bytes.indexOf('\n\n');
    gap = 2;
  }
  const headBytes = split === -1 ? bytes : bytes.subarray(0, split);
  const head = parseRawMessage(new TextDecoder('utf-8').decode(headBytes));
  if (split === -1) return head;
  const type = head.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
  return { ...head, ...bodyOf(bytes.subarray(split + gap), type) };
}

/** A Burp Suite "Save items" XML export, each item's request and response as recorded. */
export function parseBurpXml(text: string): HttpExchange[] {
  const valid = XMLValidator.validate(text);
  if (valid !== true)
    throw new HttpEvidenceError(
      `the XML is broken at line ${valid.err.line}, column ${valid.err.col} (${valid.err.msg})`,
    );
  const doc = parser.parse(text) as { items?: { item?: BurpItem[] } };
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
    const response = bytesOf(item.response);
    out.push({
      request: messageOf(request),
      response: response && response.length > 0 ? messageOf(response) : null,
    });
  });
  if (out.length === 0) throw new HttpEvidenceError(`no <item> of the Burp export has a request`);
  const last = out[out.length - 1];
  if (empty.length > 0 && last)
    last.notes = [
      `Burp item${empty.length === 1 ? '' : 's'} ${empty.join(', ')} left out: no request.`,
    ];
  return out;
}

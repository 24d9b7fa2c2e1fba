import { XMLParser } from 'fast-xml-parser';
import { parseRawMessage, type HttpExchange } from './model';

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

function decode(node: BurpText | string | undefined): string | null {
  if (node === undefined) return null;
  if (typeof node === 'string') return node;
  const text = String(node['#text'] ?? '');
  return node['@_base64'] === 'true' ? Buffer.from(text, 'base64').toString('utf8') : text;
}

/** A Burp Suite "Save items" XML export. Null when the text is not one. */
export function parseBurpXml(text: string): HttpExchange[] | null {
  let doc: { items?: { item?: BurpItem[] } };
  try {
    doc = parser.parse(text) as typeof doc;
  } catch {
    return null;
  }
  const items = doc?.items?.item;
  if (!Array.isArray(items)) return null;
  const out: HttpExchange[] = [];
  for (const item of items) {
    const request = decode(item.request);
    if (!request || request.trim() === '') continue;
    const response = decode(item.response);
    out.push({
      request: parseRawMessage(request),
      response: response && response.trim() !== '' ? parseRawMessage(response) : null,
    });
  }
  return out;
}

/**
 * A Burp Suite XML export: each request and response decoded from base64 and scanned as HTTP,
 * the XML around them as text; redaction re-encodes each message as it was, so it still parses.
 */
import { pickFindings, scanLargeText } from './chunked-text';
import type { FileScan, FileScanOptions } from './file-scan-types';
import { redactionMark } from '@shared/evidence/redaction-mark';
import { scanParts, type Part } from './structured-parts';
import { looksLikeText } from './text-sniff';

/** `<request base64="true"><![CDATA[…]]></request>`, and the same for responses. */
const BURP_MESSAGE = /<(request|response)\b([^>]*)>(?:<!\[CDATA\[([\s\S]*?)\]\]>|([^<]*))<\/\1>/g;
const BURP_ITEM = /<(?:item|issue)>/g;

export function isBurpExport(text: string): boolean {
  const head = text.slice(0, 8192);
  return (
    /<(?:items|issues)\b[^>]*burpVersion/.test(head) || /<!DOCTYPE (?:items|issues)/.test(head)
  );
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

function burpParts(xml: string, edits: Edit[]): { parts: Part[]; masked: string } {
  const itemStarts = [...xml.matchAll(BURP_ITEM)].map((m) => m.index);
  const parts: Part[] = [];
  let masked = '';
  let last = 0;
  for (const m of xml.matchAll(BURP_MESSAGE)) {
    const [whole, tag = '', attrs = ''] = m;
    const cdata = m[3] !== undefined;
    const content = m[3] ?? m[4] ?? '';
    const contentStart = m.index + whole.indexOf(content, tag.length + attrs.length + 2);
    const item = itemStarts.filter((s) => s < m.index).length;
    const base64 = /base64\s*=\s*"true"/.test(attrs);
    const bytes = base64 ? Buffer.from(content.replace(/\s+/g, ''), 'base64') : null;
    const text = bytes ? bytes.toString(looksLikeText(bytes) ? 'utf8' : 'latin1') : content;
    const encoding: BufferEncoding = bytes && !looksLikeText(bytes) ? 'latin1' : 'utf8';
    masked += xml.slice(last, contentStart) + ' '.repeat(content.length);
    last = contentStart + content.length;
    if (text.trim() === '') continue;
    parts.push({
      where: `item ${Math.max(1, item)}, ${tag}`,
      text,
      valueStart: 0,
      write: (v) => {
        const raw = base64 ? Buffer.from(v, encoding).toString('base64') : v;
        edits.push({
          start: contentStart,
          end: contentStart + content.length,
          text: cdata ? raw.replace(/]]>/g, ']]]]><![CDATA[>') : raw,
        });
      },
    });
  }
  masked += xml.slice(last);
  return { parts, masked };
}

export async function scanBurp(xml: string, options: FileScanOptions): Promise<FileScan> {
  const edits: Edit[] = [];
  const { parts, masked } = burpParts(xml, edits);
  // The XML around the messages (URLs, paths, issue text), with the messages blanked out so
  // that offsets still point into the original.
  const around = await scanLargeText(masked, options);
  const structured = await scanParts(
    'burp',
    parts,
    () => {
      const sorted = [...edits].sort((a, b) => b.start - a.start);
      let out = xml;
      for (const e of sorted) out = out.slice(0, e.start) + e.text + out.slice(e.end);
      return Buffer.from(out, 'utf8');
    },
    options,
  );
  return {
    format: 'burp',
    findings: [...around.map((f) => ({ ...f, where: `line ${f.line}` })), ...structured.findings],
    redact: async (fingerprints) => {
      for (const f of pickFindings(around, fingerprints).sort((a, b) => b.start - a.start)) {
        edits.push({ start: f.start, end: f.end, text: redactionMark(f.kind) });
      }
      return structured.redact(fingerprints);
    },
  };
}

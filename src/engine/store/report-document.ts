import { deflateSync, inflateSync } from 'node:zlib';
import type Database from 'better-sqlite3';

/**
 * How `report_documents.report_json` holds a report (migration 16). A full report's JSON (about
 * 2.3 KB, most of it Markdown) filled most of a page on its own; stored deflated it takes about
 * 45% of that. A stored document is either
 * - TEXT: the JSON as it is (what versions before migration 16 wrote, kept until the report is
 *   written again), or
 * - a BLOB: one format byte, then the JSON deflated (zlib format) against a preset dictionary of
 *   what every report's JSON repeats (the API's field names, the description template's
 *   headings). A document decodes alone: one read inflates one row. The zlib format's checksum
 *   (6 bytes a row more than raw DEFLATE) makes a garbled row fail to decode instead of decoding
 *   to other text.
 *
 * The dictionary of a format byte never changes (every stored row was deflated against it): a
 * better one is a new format byte, and the old one stays readable.
 */
const DEFLATED_V1 = 1;

const DICTIONARY_V1 = Buffer.from(
  [
    'https://www.example.com/api/v1/users?id=',
    ' Authorization: Bearer Content-Type: application/json HTTP/1.1 Host: GET POST ',
    '```\n\n| --- |\n\n- The the and to of a in is that this for with an attacker request response ',
    'user account token parameter endpoint server value vulnerability',
    '"attachments":{},"submission":null,"decision":null,"payout":null}',
    '{"name":"","size":0,"content_type":"image/png","storage_path":"reports/","state":"ready",',
    '"started_at":"","uploaded_at":"',
    '"payout":{"status":"received","amount_cents":0,"approved_at":"","transferred_at":"",',
    '"received_at":"","payout_failed_at":null}',
    '"cvss_vector":"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H"',
    '"description":"## Steps to reproduce\\n\\n1. \\n\\n## Expected behavior\\n\\n',
    '## Actual behavior\\n\\n## Security impact\\n\\n',
    '{"id":"","program_id":"","program_name":"","status":"accepted","display_status":"",',
    '"title":"","revision":1,"created_at":"20","updated_at":"20","submitted_at":null,',
    '"withdrawn_at":null,"asset":"https://',
  ].join(''),
);

/** A stored document that does not decode: garbled bytes, an unknown format, not JSON. */
export class UnreadableDocumentError extends Error {
  constructor(reason: string) {
    super(`stored report document unreadable: ${reason}`);
    this.name = 'UnreadableDocumentError';
  }
}

/** What `report_documents.report_json` holds for a report's JSON text. */
export function encodeReportDocument(json: string): Buffer {
  const deflated = deflateSync(Buffer.from(json, 'utf8'), { dictionary: DICTIONARY_V1 });
  return Buffer.concat([Buffer.of(DEFLATED_V1), deflated]);
}

/** The JSON text of a stored document (either form); UnreadableDocumentError when garbled. */
export function decodeReportDocument(stored: unknown): string {
  if (typeof stored === 'string') return stored;
  if (!(stored instanceof Uint8Array) || stored.length < 2) {
    throw new UnreadableDocumentError('not a document');
  }
  if (stored[0] !== DEFLATED_V1) throw new UnreadableDocumentError(`format ${stored[0]}`);
  try {
    return inflateSync(stored.subarray(1), { dictionary: DICTIONARY_V1 }).toString('utf8');
  } catch (error) {
    throw new UnreadableDocumentError(error instanceof Error ? error.message : 'inflate failed');
  }
}

/**
 * `decodeReportDocument` that keeps the last document it inflated: a zlib call costs about
 * 0.1 ms in the engine process (a stream made per call), and a report screen's open reads the
 * same document twice (the report, then the draft made from it), as the index's view reads two
 * fields of one row one after the other.
 */
export function createDocumentReader(): (stored: unknown) => string {
  let last: { stored: Buffer; text: string } | null = null;
  return (stored) => {
    if (!(stored instanceof Uint8Array)) return decodeReportDocument(stored);
    if (last && Buffer.compare(last.stored, stored) === 0) return last.text;
    const text = decodeReportDocument(stored);
    last = { stored: Buffer.from(stored), text };
    return text;
  };
}

/** Whether `stored` holds exactly `json` (what a write is about to store again). */
export function sameDocument(stored: unknown, json: string, encoded: Buffer): boolean {
  if (typeof stored === 'string') return stored === json;
  return stored instanceof Uint8Array && Buffer.compare(stored, encoded) === 0;
}

/** The SQL function the search index's view and triggers read a document through. */
export const REPORT_DOCUMENT_SQL = 'report_document';

/**
 * Registers `report_document(stored)`: the JSON text of a stored document, for `json_extract`
 * (NULL when it does not decode, so the index drain skips its text instead of failing forever).
 */
export function registerReportDocumentFunction(sqlite: Database.Database): void {
  const read = createDocumentReader();
  sqlite.function(REPORT_DOCUMENT_SQL, { deterministic: true }, (stored: unknown) => {
    if (stored === null || typeof stored === 'string') return stored;
    try {
      return read(stored);
    } catch (error) {
      if (error instanceof UnreadableDocumentError) return null;
      throw error;
    }
  });
}

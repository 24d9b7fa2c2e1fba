import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readHttpEvidence, renderHttpEvidence } from '../../src/engine/evidence/http-import';
import { scanFile } from '../../src/engine/evidence/secret-scan/file-scan';
import { detectHttpEvidence, unreadEvidenceNote } from '../../src/shared/evidence/http-detect';
import { fakeJwt } from '../support/fake-secrets';

const REAL = join(__dirname, '../fixtures/real');
const real = (kind: string, name: string): string => readFileSync(join(REAL, kind, name), 'utf8');

/** A run of hex or base64 long enough to be a dumped body, not a token or a hash. */
const DUMP = /[0-9a-fA-F]{200,}|[A-Za-z0-9+/]{300,}={0,2}/;

function rendered(text: string): string {
  const read = readHttpEvidence(text);
  if (!read || !('exchanges' in read)) throw new Error(`not read: ${JSON.stringify(read)}`);
  const out = renderHttpEvidence(read);
  return `${out.markdown}\n${out.fullText}`;
}

describe('bodies kept compressed or binary by HTTP recording libraries', () => {
  it('every real HAR: no body is dumped as a hex or base64 run', () => {
    const files = readdirSync(join(REAL, 'har')).filter((f) => f.endsWith('.har'));
    const dumped: string[] = [];
    let read = 0;
    for (const f of files) {
      const text = real('har', f);
      if (!detectHttpEvidence(text)) continue;
      const r = readHttpEvidence(text);
      if (!r || !('exchanges' in r)) continue;
      read++;
      const out = rendered(text);
      if (DUMP.test(out)) dumped.push(f);
    }
    console.log(
      `HAR files with no dumped body: ${read - dumped.length}/${read} (${files.length} files)`,
    );
    expect(dumped).toEqual([]);
  });

  it('Polly.js: a gzip body kept as hex chunks (`_isBinary`) is shown decoded, with a note', () => {
    const text = real('har', 'pollyjs-getUser-gzip-hex.har');
    const read = readHttpEvidence(text);
    if (!read || !('exchanges' in read)) throw new Error('not read');
    const [e] = read.exchanges;
    const body = JSON.parse(e?.response?.body ?? '') as { login?: string };
    expect(body.login).toBe('Netflix');
    expect(e?.notes).toEqual([
      'The body was recorded gzip-compressed (as hex chunks); it is shown decoded.',
    ]);
  });

  it('Polly.js: a PNG kept as a bare hex run is labelled, not shown', () => {
    const out = rendered(real('har', 'pollyjs-binary-content-hex.har'));
    expect(out).toContain('[binary body: 373 bytes of image/png, not shown]');
    expect(out).not.toMatch(/89504e47/);
  });

  const entry = (content: Record<string, unknown>, encoding: string): string =>
    JSON.stringify({
      log: {
        version: '1.2',
        creator: { name: 'recorder', version: '1' },
        entries: [
          {
            request: { method: 'GET', url: 'https://api.example.com/a', headers: [] },
            response: {
              status: 200,
              statusText: 'OK',
              httpVersion: 'HTTP/1.1',
              headers: [
                { name: 'Content-Type', value: 'application/json' },
                { name: 'Content-Encoding', value: encoding },
              ],
              content: { mimeType: 'application/json', ...content },
            },
          },
        ],
      },
    });
  const json = '{"user":"ada","role":"admin"}';

  it('base64 chunks (Polly.js v6), br, deflate and gzip, hex flagged by "encoding": "hex"', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'br',
        { encoding: 'base64', text: JSON.stringify([brotliCompressSync(json).toString('base64')]) },
        'br',
      ],
      ['deflate', { encoding: 'base64', text: deflateSync(json).toString('base64') }, 'deflate'],
      ['gzip', { encoding: 'hex', text: gzipSync(json).toString('hex') }, 'gzip'],
      [
        'x-gzip',
        { _isBinary: true, text: JSON.stringify([gzipSync(json).toString('hex')]) },
        'x-gzip',
      ],
    ];
    for (const [name, content, coding] of cases) {
      const read = readHttpEvidence(entry(content, coding));
      if (!read || !('exchanges' in read)) throw new Error(name);
      expect([name, read.exchanges[0]?.response?.body]).toEqual([name, json]);
    }
  });

  it("a browser's HAR (body already decoded under Content-Encoding: gzip) stays as recorded", () => {
    const read = readHttpEvidence(entry({ text: json }, 'gzip'));
    if (!read || !('exchanges' in read)) throw new Error('not read');
    expect(read.exchanges[0]?.response?.body).toBe(json);
    expect(read.exchanges[0]?.notes).toBeUndefined();
  });

  it('a damaged compressed body is labelled binary, never dumped', () => {
    const broken = gzipSync(json).subarray(0, 12).toString('base64');
    const out = rendered(entry({ encoding: 'base64', text: broken }, 'gzip'));
    expect(out).toContain('gzip-compressed and not readable, not shown]');
  });

  it('Burp: a response Burp kept gzip-compressed is shown decoded', () => {
    const head = 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n';
    const response = Buffer.concat([Buffer.from(head), gzipSync('<p>hello</p>')]);
    const request = Buffer.from('GET / HTTP/1.1\r\nHost: a.example\r\n\r\n');
    const xml = `<?xml version="1.0"?>\n<items burpVersion="2024.1"><item><request base64="true"><![CDATA[${request.toString('base64')}]]></request><response base64="true"><![CDATA[${response.toString('base64')}]]></response></item></items>`;
    const read = readHttpEvidence(xml);
    if (!read || !('exchanges' in read)) throw new Error('not read');
    expect(read.exchanges[0]?.response?.body).toBe('<p>hello</p>');
  });
});

describe('the file scan reads compressed recorded bodies and writes them back the same way', () => {
  it('finds a credential inside a gzip hex body and redacts it in place', async () => {
    // A JSON Web Token made now (no committed file holds a token-shaped literal).
    const secret = fakeJwt();
    const body = JSON.stringify({ id_token: secret, note: 'x' });
    const har = JSON.parse(real('har', 'pollyjs-getUser-gzip-hex.har')) as {
      log: { entries: { response: { content: { text: string } } }[] };
    };
    const content = har.log.entries[0]?.response.content;
    if (!content) throw new Error('no content');
    content.text = JSON.stringify([gzipSync(body).toString('hex')]);
    const scan = await scanFile(Buffer.from(JSON.stringify(har, null, 2)));
    const found = scan.findings.filter((f) => f.where.includes('response body'));
    expect(found.length).toBeGreaterThan(0);
    const out = JSON.parse(
      (await scan.redact(new Set(found.map((f) => f.fingerprint)))).toString(),
    ) as typeof har;
    const hex = JSON.parse(out.log.entries[0]?.response.content.text ?? '[]') as string[];
    const decoded = gunzipSync(Buffer.from(hex.join(''), 'hex')).toString();
    expect(decoded).not.toContain(secret);
    expect(decoded).toContain('[REDACTED:');
  });
});

describe('Burp Scanner issues exports (burp.js test data): named and kept as a file', () => {
  const files = readdirSync(join(REAL, 'burp')).filter((f) => f.startsWith('burpjs-'));

  it('each is recognised, said to be an issues export, and kept whole as a file', () => {
    let named = 0;
    for (const f of files) {
      const text = real('burp', f);
      expect(detectHttpEvidence(text)).toBe('burp');
      const read = readHttpEvidence(text);
      expect(read).toEqual({
        format: 'burp',
        error:
          'it is a Burp Scanner issues export (1 issue: 1 Low; “Cookie without HttpOnly flag set”), not a “Save items” export of requests',
        keepAsFile: 'burp-issues.xml',
      });
      named++;
    }
    const dojo = readHttpEvidence(real('burp', 'defectdojo-one_finding_with_cwe.xml'));
    expect(dojo && 'keepAsFile' in dojo ? dojo.keepAsFile : null).toBe('burp-issues.xml');
    console.log(`Burp Scanner issues exports named and kept: ${named + 1}/${files.length + 1}`);
  });

  it('its session cookie is redacted in the base64 responses, as the file scan reads it', async () => {
    for (const f of files) {
      const bytes = Buffer.from(real('burp', f));
      const scan = await scanFile(bytes);
      const out = (await scan.redact(new Set(scan.findings.map((x) => x.fingerprint)))).toString();
      const decoded = out.replace(
        /<(request|response) base64="true"><!\[CDATA\[([^\]]*)\]\]>/g,
        (_m, _t, c: string) => Buffer.from(c, 'base64').toString('latin1'),
      );
      expect([f, decoded.includes('l0e3p4hh9m0dkfqru1lobnghp1')]).toEqual([f, false]);
    }
  });
});

describe('a value found once is redacted wherever the file repeats it', () => {
  it('a session cookie echoed by a phpinfo() page in a Burp response body', async () => {
    const cookie = 'PHPSESSID=gvc2fsssk6lcj2d02jalcnp3p1; security=low';
    const req = `GET /vulnerabilities/ HTTP/1.1\r\nHost: dvwa.example\r\nCookie: ${cookie}\r\n\r\n`;
    const res = `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<tr><td class="e">HTTP_COOKIE </td><td class="v">${cookie} </td></tr>`;
    const b64 = (t: string): string => Buffer.from(t).toString('base64');
    const xml = `<?xml version="1.0"?>\n<items burpVersion="2024.1"><item><request base64="true"><![CDATA[${b64(req)}]]></request><response base64="true"><![CDATA[${b64(res)}]]></response></item></items>`;
    const scan = await scanFile(Buffer.from(xml));
    const out = (await scan.redact(new Set(scan.findings.map((f) => f.fingerprint)))).toString();
    const decoded = out.replace(
      /<(request|response) base64="true"><!\[CDATA\[([^\]]*)\]\]>/g,
      (_m, _t, c: string) => Buffer.from(c, 'base64').toString('latin1'),
    );
    expect(decoded).not.toContain('gvc2fsssk6lcj2d02jalcnp3p1');
    expect(scan.findings.map((f) => `${f.where}: ${f.label}`)).toEqual([
      'item 1, request, line 3: Cookie header',
      'item 1, response, line 4: Cookie header (the value found in item 1, request, repeated)',
    ]);
  });
});

describe('every dropped evidence-named file the app does not read is named', () => {
  it('says what each is and that it is attached as a file', () => {
    expect(unreadEvidenceNote('a.har', '{"foo": 1}', false)).toBe(
      '"a.har" is JSON without a HAR log.entries list: it is attached as a file, not read as HTTP evidence.',
    );
    expect(unreadEvidenceNote('scan.xml', '<?xml version="1.0"?><report/>', false)).toBe(
      '"scan.xml" is XML that is not a Burp Suite export: it is attached as a file, not read as HTTP evidence.',
    );
    expect(unreadEvidenceNote('x.har', real('har', 'mitmproxy-chrome.har'), true)).toContain(
      'was dropped with other files',
    );
    expect(unreadEvidenceNote('x.har', real('har', 'mitmproxy-chrome.har'), false)).toBeNull();
    expect(unreadEvidenceNote('photo.png', 'x', false)).toBeNull();
  });
});

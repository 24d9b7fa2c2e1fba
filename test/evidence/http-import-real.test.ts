import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBurpXml } from '../../src/engine/evidence/http-import/burp';
import { curlGetdate } from '../../src/engine/evidence/http-import/curl-date';
import { readHttpEvidence, renderHttpEvidence } from '../../src/engine/evidence/http-import';
import type { HttpMessage } from '../../src/engine/evidence/http-import/model';
import {
  differenceKind,
  runCurlCase,
  type CurlCase,
  type DifferenceKind,
} from '../support/curl-tests';

const cases = JSON.parse(
  readFileSync(join(__dirname, '../fixtures/real/curl/tests-data.json'), 'utf8'),
) as CurlCase[];

describe('HTTP import against real inputs', () => {
  it("curl: curl's own test suite, each command against the request curl really sent", () => {
    let parsed = 0;
    let identical = 0;
    const different = new Map<DifferenceKind, number[]>();
    for (const c of cases) {
      const result = runCurlCase(c);
      if (result === 'unparsed') continue;
      parsed++;
      if (result === 'identical') identical++;
      else {
        const kind = differenceKind(c);
        different.set(kind, [...(different.get(kind) ?? []), c.test]);
      }
    }
    const kinds = [...different.entries()].sort(([a], [b]) => a.localeCompare(b));
    console.log(
      `curl tests/data: parsed ${parsed}/${cases.length}, identical to curl's request ${identical}/${cases.length}\n` +
        `  different (${cases.length - identical - (cases.length - parsed)}), by why:\n` +
        kinds
          .map(([kind, tests]) => `    ${kind}: ${tests.length} (#${tests.join(' #')})`)
          .join('\n'),
    );
    // Floors of what is measured today; the figures above are the result.
    expect(parsed).toBeGreaterThanOrEqual(534);
    expect(identical).toBeGreaterThanOrEqual(484);
    // Misread: 409 (a jar cookie for .co.uk: curl with libpsl drops it, we have no suffix list)
    // and 1801 (an HTTP2-Settings value of an older nghttp2 window size).
    expect(different.get('misread') ?? []).toEqual([1801, 409]);
  });
});

describe('curl -z dates as curl_getdate reads them', () => {
  it("curl's own date table (tests/libtest/lib517.c): every date, and every refusal", () => {
    const dates = JSON.parse(
      readFileSync(join(__dirname, '../fixtures/real/curl/getdate-lib517.json'), 'utf8'),
    ) as [string, number][];
    const wrong = dates.filter(([text, seconds]) => (curlGetdate(text) ?? -1) !== seconds);
    console.log(
      `curl lib517 dates: ${dates.length - wrong.length}/${dates.length} as curl reads them`,
    );
    expect(wrong).toEqual([]);
  });
});

const first = (text: string): HttpMessage | undefined => {
  const read = readHttpEvidence(text);
  return read && 'exchanges' in read ? read.exchanges[0]?.request : undefined;
};

describe('curl as curl reads it (cases from curl’s own tests)', () => {
  it('an option curl knows to take a value never becomes the host', () => {
    for (const option of [
      '--trace-ascii log2.txt',
      '--connect-to a.example:443:b.example:443',
      "--resolve 'x.example:443:127.0.0.1'",
      '--max-filesize 10',
    ]) {
      const req = first(`curl ${option} https://api.example.com/v1/me`);
      expect(req?.startLine, option).toBe('GET /v1/me HTTP/1.1');
      expect(req?.headers[0], option).toEqual(['Host', 'api.example.com']);
    }
    expect(first("curl --url-query 'foo=bar baz' https://x.example/a?b=1")?.startLine).toBe(
      'GET /a?b=1&foo=bar+baz HTTP/1.1',
    );
    expect(first("curl --request-target '*' -X OPTIONS https://x.example/")?.startLine).toBe(
      'OPTIONS * HTTP/1.1',
    );
  });

  it('method, path bytes, body bytes as sent', () => {
    expect(first('curl -X wHat https://x.example/')?.startLine).toBe('wHat / HTTP/1.1');
    const put = first('curl -T shell.php https://x.example/upload/');
    expect(put?.startLine).toBe('PUT /upload/shell.php HTTP/1.1');
    expect(put?.body).toBe('[contents of shell.php]');
    const empty = first('curl --data-binary "" https://x.example/api');
    expect(empty?.startLine).toBe('POST /api HTTP/1.1');
    expect(empty?.headers).toContainEqual(['Content-Length', '0']);
    const json = first(`curl --json '{"a":1}' --json '{"b":2}' https://x.example/j`);
    expect(json?.body).toBe('{"a":1}{"b":2}');
    expect(json?.headers).toContainEqual(['Content-Type', 'application/json']);
    expect(first('curl -d "a=1\\\n&b=2" https://x.example/f')?.body).toBe('a=1&b=2');
    expect(first("curl -H $'X-Tab: a\\tb' https://x.example/")?.headers).toContainEqual([
      'X-Tab',
      'a\tb',
    ]);
    // Path traversal proofs keep their bytes; curl itself squashes ../ without --path-as-is.
    expect(first("curl --path-as-is 'https://x.example/static/../../etc/passwd'")?.startLine).toBe(
      'GET /static/../../etc/passwd HTTP/1.1',
    );
    expect(first('curl https://x.example/%2e%2e/%2e%2e/etc/passwd')?.startLine).toBe(
      'GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1',
    );
    expect(first('curl https://x.example/static/../../etc/passwd')?.startLine).toBe(
      'GET /etc/passwd HTTP/1.1',
    );
    const order = first(
      "curl 'https://x.example/' -H 'x-B: 2' -H 'X-a: 1' -H 'accept: text/html' --compressed",
    );
    expect(order?.headers.map(([n]) => n)).toEqual([
      'Host',
      'Accept-Encoding',
      'x-B',
      'X-a',
      'accept',
    ]);
  });

  it("Windows cmd (Chrome's Copy as cURL (cmd)) and PowerShell copies", () => {
    const cmd = [
      'curl ^"https://shop.example.com/api/cart?item=7^" ^',
      '  -H ^"accept: application/json^" ^',
      '  -H ^"sec-ch-ua: ^\\^"Chromium^\\^";v=^\\^"128^\\^"^" ^',
      '  --data-raw ^"^{^\\^"qty^\\^":-1^}^" ^',
      '  --compressed',
    ].join('\n');
    const req = first(cmd);
    expect(req?.startLine).toBe('POST /api/cart?item=7 HTTP/1.1');
    expect(req?.headers).toContainEqual(['sec-ch-ua', '"Chromium";v="128"']);
    expect(req?.body).toBe('{"qty":-1}');
    const ps = [
      '$session = New-Object Microsoft.PowerShell.Commands.WebRequestSession',
      '$session.UserAgent = "Mozilla/5.0"',
      '$session.Cookies.Add((New-Object System.Net.Cookie("sid", "abc", "/", "shop.example.com")))',
      'Invoke-WebRequest -UseBasicParsing -Uri "https://shop.example.com/api/cart" `',
      '-Method "POST" `',
      '-WebSession $session `',
      '-Headers @{',
      '"authority"="shop.example.com"',
      '  "method"="POST"',
      '  "accept"="application/json"',
      '} `',
      '-ContentType "application/json" `',
      '-Body "{`"qty`":-1}"',
    ].join('\n');
    const read = readHttpEvidence(ps);
    expect(read && 'exchanges' in read ? read.format : read).toBe('powershell');
    const p = first(ps);
    expect(p?.startLine).toBe('POST /api/cart HTTP/1.1');
    expect(p?.headers).toEqual([
      ['Host', 'shop.example.com'],
      ['User-Agent', 'Mozilla/5.0'],
      ['accept', 'application/json'],
      ['Cookie', 'sid=abc'],
      ['Content-Type', 'application/json'],
    ]);
    expect(p?.body).toBe('{"qty":-1}');
  });

  it('raw requests: any method token, HTTP/2, absolute-form targets', () => {
    for (const line of [
      'PROPFIND /dav/ HTTP/1.1',
      'get /admin HTTP/1.1',
      'GET https://x.example/a?b=%2e%2e HTTP/1.1',
      'GET /stream HTTP/2',
      'CONNECT x.example:443 HTTP/1.1',
    ])
      expect(first(`${line}\nHost: x.example\n\n`)?.startLine).toBe(line);
  });
});

describe('nothing vanishes: each unreadable input says what failed and where', () => {
  const har = JSON.stringify(
    {
      log: {
        version: '1.2',
        creator: { name: 'Firefox', version: '128.0' },
        entries: [
          {
            request: {
              method: 'GET',
              url: 'https://x.example/',
              httpVersion: 'HTTP/2',
              headers: [],
            },
            response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/2', headers: [] },
          },
        ],
      },
    },
    null,
    2,
  );
  const burp =
    '<?xml version="1.0"?>\n<items burpVersion="2024.1">\n  <item>\n    <request base64="true"><![CDATA[R0VUIC8gSFRUUC8xLjENCg0K]]></request>\n  </item>\n</items>\n';
  const cases: [string, string, RegExp][] = [
    ['truncated HAR', har.slice(0, 120), /JSON ends early .* at line \d+, column \d+/],
    [
      'HAR with a trailing comma',
      har.replace(/\}\n {4}\]/, '},\n    ]'),
      /at line \d+, column \d+/,
    ],
    [
      'HAR with no entries',
      har.replace(/"entries": \[[\s\S]*\]\n {2}\}/, '"entries": []\n  }'),
      /no entries/,
    ],
    ['truncated Burp XML', burp.slice(0, 90), /XML is broken at line \d+, column \d+/],
    [
      'Burp XML without items',
      '<?xml version="1.0"?>\n<items burpVersion="2024.1">\n</items>\n',
      /no <item>/,
    ],
    ['curl without a URL', 'curl -H "Accept: */*" --compressed', /no URL/],
    [
      'curl with a quote never closed',
      "curl \"https://x.example/ -H 'a: b'",
      /" quote opened on line 1 is not closed/,
    ],
    [
      'curl with an unknown option',
      'curl --frobnicate https://x.example/',
      /does not know the option --frobnicate \(word 2\)/,
    ],
    ['curl with a value missing', 'curl https://x.example/ -H', /needs a value \(word 3\)/],
    ['PowerShell without -Uri', 'Invoke-WebRequest -Method "POST"', /no -Uri/],
  ];
  it('gives a message naming the place for each case', () => {
    let told = 0;
    for (const [name, text, message] of cases) {
      const read = readHttpEvidence(text);
      expect(read, name).not.toBeNull();
      expect(read && 'error' in read ? read.error : '(read)', name).toMatch(message);
      told++;
    }
    console.log(`malformed inputs with a message: ${told}/${cases.length}`);
  });
});

describe('HAR files recorded by browsers and proxies (mitmproxy test data)', () => {
  const dir = join(__dirname, '../fixtures/real/har');
  const read = (name: string) => readHttpEvidence(readFileSync(join(dir, name), 'utf8'));
  it('reads every recorded HAR as recorded; the broken one is not taken for a HAR', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.har'));
    let parsed = 0;
    for (const f of files) {
      const r = read(f);
      if (r && 'exchanges' in r) parsed++;
    }
    console.log(`HAR files: parsed ${parsed}/${files.length}`);
    expect(read('corrupted_har-brokenfile.har')).toBeNull(); // attached or pasted as it is
    expect(parsed).toBe(files.length - 1);

    const chrome = read('har_files-chrome.har');
    if (!chrome || !('exchanges' in chrome)) throw new Error('chrome.har');
    expect(chrome.exchanges[0]?.request.startLine).toBe('GET / http/2.0');
    expect(chrome.exchanges[0]?.request.headers[0]).toEqual(['Host', 'mitmproxy.org']);
    const png = chrome.exchanges.find((e) => e.response?.body.startsWith('[binary body'));
    expect(png?.response?.body).toBe('[binary body: 7,108 bytes of image/png, not shown]');

    const post = read('har_files-postdata.har');
    expect(post && 'exchanges' in post ? post.exchanges[0]?.request.body : '').toMatch(
      /^\{"metadata":\{"pageViewId":1689428126308/,
    );
    const bom = read('har_files-with-bom.har');
    expect(bom && 'exchanges' in bom ? bom.exchanges.length : 0).toBe(1);

    const ws = read('flows-websocket.har');
    if (!ws || !('exchanges' in ws)) throw new Error('websocket.har');
    const socket = ws.exchanges.find((e) => (e.webSocket ?? []).length > 0);
    expect(socket?.response?.startLine).toBe('HTTP/1.1 101 Switching Protocols');
    expect(renderHttpEvidence(ws).fullText).toMatch(
      /\[WebSocket: \d+ messages?, → sent, ← received\]/,
    );
  });
});

describe('Burp bodies as recorded', () => {
  const item = (request: Buffer, response: Buffer): string =>
    `<item><request base64="true"><![CDATA[${request.toString('base64')}]]></request>` +
    `<response base64="true"><![CDATA[${response.toString('base64')}]]></response></item>`;
  it('decodes ISO-8859-1 by its charset and labels a PNG with its type and size', () => {
    const latin = Buffer.concat([
      Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=ISO-8859-1\r\n\r\n'),
      Buffer.from('<p>Gr\xfc\xdfe aus K\xf6ln</p>', 'latin1'),
    ]);
    const png = Buffer.concat([
      Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]),
    ]);
    const req = Buffer.from('GET /a HTTP/2\r\nHost: x.example\r\n\r\n');
    const xml = `<?xml version="1.0"?>\n<items burpVersion="2024.1">${item(req, latin)}${item(req, png)}</items>`;
    const read = readHttpEvidence(xml);
    if (!read || !('exchanges' in read)) throw new Error(JSON.stringify(read));
    expect(read.exchanges[0]?.request.startLine).toBe('GET /a HTTP/2');
    expect(read.exchanges[0]?.response?.body).toBe('<p>Grüße aus Köln</p>');
    expect(read.exchanges[1]?.response?.body).toBe(
      '[binary body: 15 bytes of image/png, not shown]',
    );
  });
});

describe('Burp Suite exports from public parsers’ test data', () => {
  const dir = join(__dirname, '../fixtures/real/burp');
  /** What Burp wrote beside each message: method, path, status. The import must agree. */
  function recorded(xml: string): { method: string; path: string; status: string }[] {
    return [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map(([, item = '']) => {
      const field = (name: string): string =>
        new RegExp(`<${name}>(?:<!\\[CDATA\\[)?([\\s\\S]*?)(?:\\]\\]>)?</${name}>`).exec(
          item,
        )?.[1] ?? '';
      return { method: field('method'), path: field('path'), status: field('status') };
    });
  }

  it('reads every item of each “Save items” export as Burp recorded it', () => {
    // Scanner issues exports (burp.js's) are not item exports: the test above names them.
    const files = readdirSync(dir).filter(
      (f) =>
        /^(?!defectdojo)/.test(f) &&
        f.endsWith('.xml') &&
        !/<issues\b/.test(readFileSync(join(dir, f), 'utf8')),
    );
    expect(files.length).toBeGreaterThanOrEqual(2);
    const lines: string[] = [];
    for (const f of files) {
      const xml = readFileSync(join(dir, f), 'utf8');
      const want = recorded(xml);
      const got = parseBurpXml(xml);
      const agree = got.filter((e, i) => {
        const w = want[i];
        const [method, target] = e.request.startLine.split(' ');
        return (
          w !== undefined &&
          method === w.method &&
          target === w.path &&
          (w.status === '' || e.response?.startLine.split(' ')[1] === w.status)
        );
      });
      // A body that is not text is labelled, never dumped into the code block.
      const dumped = got.filter((e) =>
        [...(e.response?.body ?? '')].some((c) => c.charCodeAt(0) < 9 || c === '\ufffd'),
      );
      lines.push(
        `${f}: ${agree.length}/${want.length} items as recorded, ${dumped.length} bodies dumped`,
      );
      expect([f, agree.length, dumped.length]).toEqual([f, want.length, 0]);
    }
    console.log(`Burp exports:\n  ${lines.join('\n  ')}`);
  });
});

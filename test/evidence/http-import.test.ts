import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fence,
  parseHttpEvidence,
  renderHttpEvidence,
} from '../../src/engine/evidence/http-import/index';
import { parseCurlCommand } from '../../src/engine/evidence/http-import/curl';
import { detectHttpEvidence } from '../../src/shared/evidence/http-detect';
import { burpFixture, curlFixtures, fixtureSecrets, harFixture, rawFixture } from './fixtures/http';

const s = fixtureSecrets();

describe('HTTP evidence import', () => {
  it('reads a HAR: each entry with its headers, body and response; binary bodies named', () => {
    const imported = parseHttpEvidence(harFixture(s));
    expect(imported?.format).toBe('har');
    const [first, second] = imported?.exchanges ?? [];
    expect(first?.request.startLine).toBe('POST /api/cart?item=7 HTTP/2');
    expect(first?.request.headers[0]).toEqual(['Host', 'shop.example.com']);
    expect(first?.request.headers.map(([n]) => n)).not.toContain(':authority');
    expect(first?.request.body).toBe('{"qty":-1}');
    expect(first?.response?.startLine).toBe('HTTP/2 200 OK');
    expect(second?.response?.body).toBe('[binary body: 4 bytes of image/png, not shown]');
  });

  it('reads a Burp Suite XML export, base64 and plain items alike', () => {
    const imported = parseHttpEvidence(burpFixture(s));
    expect(imported?.format).toBe('burp');
    expect(imported?.exchanges).toHaveLength(2);
    const [first, second] = imported?.exchanges ?? [];
    expect(first?.request.startLine).toBe('GET /api/orders/1001 HTTP/1.1');
    expect(first?.request.headers).toContainEqual(['Cookie', s.cookie]);
    expect(first?.response?.body).toContain('someone-else@example.com');
    expect(second?.response?.startLine).toBe('HTTP/1.1 404 Not Found');
  });

  for (const { command, startLine } of curlFixtures(s)) {
    it(`reads the curl command ${command.slice(0, 40)}…`, () => {
      const imported = parseHttpEvidence(command);
      expect(imported?.format).toBe('curl');
      expect(imported?.exchanges[0]?.request.startLine).toBe(startLine);
    });
  }

  it('turns curl credentials into the headers curl sends', () => {
    const [copied, , , basic] = curlFixtures(s);
    const request = parseHttpEvidence(copied?.command ?? '')?.exchanges[0]?.request;
    expect(request?.headers).toContainEqual(['authorization', `Bearer ${s.jwt}`]);
    expect(request?.headers).toContainEqual(['Cookie', s.cookie]);
    expect(request?.body).toBe('{"qty":-1}');
    const auth = parseHttpEvidence(basic?.command ?? '')?.exchanges[0]?.request.headers;
    expect(auth).toContainEqual([
      'Authorization',
      `Basic ${Buffer.from('admin:hunter2x').toString('base64')}`,
    ]);
  });

  it('reads a raw request/response pair', () => {
    const imported = parseHttpEvidence(rawFixture(s));
    expect(imported?.format).toBe('raw');
    const [exchange] = imported?.exchanges ?? [];
    expect(exchange?.request.body).toBe('{"query":"{ user(id: 2) { email } }"}');
    expect(exchange?.response?.startLine).toBe('HTTP/1.1 200 OK');
  });

  it('renders fenced http blocks, cuts long bodies with a note, keeps the full text', () => {
    const imported = parseHttpEvidence(harFixture(s, 5000));
    if (!imported) throw new Error('no import');
    const rendered = renderHttpEvidence(imported);
    expect(rendered.markdown).toMatch(/^_From a HAR file\. Long bodies are cut\._/);
    expect(rendered.markdown).toContain('```http\nPOST /api/cart?item=7 HTTP/2\n');
    expect(rendered.markdown).toMatch(/\[… \d+ more characters of the body cut here\]/);
    expect(rendered.needsFile).toBe(true);
    expect(rendered.fullText).toContain('x'.repeat(5000));
    const short = renderHttpEvidence(parseHttpEvidence(rawFixture(s)) ?? imported);
    expect(short.needsFile).toBe(false);
  });

  it('leaves out exchanges beyond the limit and says so', () => {
    const imported = parseHttpEvidence(harFixture(s));
    if (!imported) throw new Error('no import');
    const rendered = renderHttpEvidence(imported, { bodyChars: 10_000, exchanges: 1 });
    expect(rendered.markdown).toContain('1 more request not shown here.');
    expect(rendered.needsFile).toBe(true);
  });

  it('fences text that holds backticks with a longer fence', () => {
    expect(fence('a ``` b')).toBe('````http\na ``` b\n````');
  });

  it('recognizes nothing else', () => {
    for (const text of ['', 'hello', '{"a":1}', '<xml/>', 'GET is a verb', 'curling']) {
      expect(detectHttpEvidence(text)).toBeNull();
      expect(parseHttpEvidence(text)).toBeNull();
    }
  });

  it('never throws on arbitrary input, with or without a known start', () => {
    const starts = [
      '',
      'curl ',
      '{"log":{"entries":',
      '<items burpVersion="1">',
      'GET / HTTP/1.1\n',
    ];
    fc.assert(
      fc.property(fc.constantFrom(...starts), fc.string({ maxLength: 300 }), (start, rest) => {
        const imported = parseHttpEvidence(start + rest);
        if (imported) renderHttpEvidence(imported);
      }),
      { numRuns: 500 },
    );
  });
});

/** The first request of a curl command as lines, with the files it reads when given. */
const notesOf = (command: string): string[] => parseCurlCommand(command)[0]?.notes ?? [];

function curlWire(command: string, files: Record<string, string> = {}): string[] {
  const [exchange] = parseCurlCommand(command, { readFile: (name) => files[name] ?? null });
  const request = exchange?.request;
  if (!request) throw new Error('no request');
  return [request.startLine, ...request.headers.map(([n, v]) => `${n}: ${v}`), '', request.body];
}

describe('curl: the request curl sends, byte for byte', () => {
  it('a user name without a password is sent with an empty one, in the URL and the proxy URL', () => {
    expect(curlWire('curl http://alice@x.example/')).toEqual([
      'GET / HTTP/1.1',
      'Host: x.example',
      `Authorization: Basic ${Buffer.from('alice:').toString('base64')}`,
      'Accept: */*',
      '',
      '',
    ]);
    expect(curlWire('curl -x http://f%61ke@127.0.0.1:8080 http://x.example/a')).toEqual([
      'GET http://x.example/a HTTP/1.1',
      'Host: x.example',
      `Proxy-Authorization: Basic ${Buffer.from('fake:').toString('base64')}`,
      'Accept: */*',
      'Proxy-Connection: Keep-Alive',
      '',
      '',
    ]);
    // An encoded colon belongs to the user name.
    expect(curlWire('curl http://a%3Ab:c@x.example/')[2]).toBe(
      `Authorization: Basic ${Buffer.from('a:b:c').toString('base64')}`,
    );
  });

  it('-z: a date as If-Modified-Since, `-` as If-Unmodified-Since; a file name is noted', () => {
    const modified = curlWire(
      'curl -z "dec 12 12:00:00 1999 GMT" -b a=1 -H "X: y" http://x.example/',
    );
    expect(modified.slice(1, 6)).toEqual([
      'Host: x.example',
      'Accept: */*',
      'Cookie: a=1',
      'If-Modified-Since: Sun, 12 Dec 1999 12:00:00 GMT',
      'X: y',
    ]);
    expect(curlWire("curl -z '-Sun, 06 Nov 1994 08:49:37 +0200' http://x.example/")[3]).toBe(
      'If-Unmodified-Since: Sun, 06 Nov 1994 06:49:37 GMT',
    );
    // A typed header of the same name is sent instead.
    expect(
      curlWire('curl -z 19991212 -H "If-Modified-Since: x" http://x.example/').filter((l) =>
        l.startsWith('If-Modified-Since'),
      ),
    ).toEqual(['If-Modified-Since: x']);
    const fromFile = parseCurlCommand('curl -z local.html http://x.example/')[0];
    expect(fromFile?.request.headers.map(([n]) => n)).toEqual(['Host', 'Accept']);
    expect(fromFile?.notes).toEqual([
      '-z local.html: curl sends If-Modified-Since with the modification time of that file, which is not part of the paste.',
    ]);
  });

  it('-b <cookie file>: the jar cookies curl picks for the URL, in its order; a missing file is noted', () => {
    const jar = [
      '# Netscape HTTP Cookie File',
      '.shop.example\tTRUE\t/\tFALSE\t0\tsid\tabc',
      'shop.example\tFALSE\t/api\tFALSE\t0\tcsrf\tt1',
      '#HttpOnly_.shop.example\tTRUE\t/api/v2\tTRUE\t0\tsecret\ts1',
      'other.example\tFALSE\t/\tFALSE\t0\tforeign\tno',
      'shop.example\tFALSE\t/\tFALSE\t1\texpired\tno',
      'Set-Cookie: lang=en; Path=/api',
    ].join('\n');
    const files = { 'jar.txt': jar };
    expect(curlWire('curl -b jar.txt -b "x=1" https://www.shop.example/api/v2/me', files)).toEqual([
      'GET /api/v2/me HTTP/1.1',
      'Host: www.shop.example',
      'Accept: */*',
      // Longest path first, then longest domain, then longest name; curl's own order.
      'Cookie: secret=s1; lang=en; sid=abc; x=1',
      '',
      '',
    ]);
    // Not secure over plain HTTP; csrf is for shop.example itself (no tail match).
    expect(curlWire('curl -b jar.txt http://shop.example/api/x', files)[3]).toBe(
      'Cookie: csrf=t1; lang=en; sid=abc',
    );
    // -j drops the session cookies, wherever it is typed.
    expect(curlWire('curl -b jar.txt -j http://shop.example/', files).slice(1, 3)).toEqual([
      'Host: shop.example',
      'Accept: */*',
    ]);
    const missing = parseCurlCommand('curl -b cookies.txt https://shop.example/')[0];
    expect(missing?.request.headers.map(([n]) => n)).toEqual(['Host', 'Accept']);
    expect(missing?.notes).toEqual([
      'The command reads cookies.txt: its contents are not part of the paste.',
    ]);
  });

  it('URL globbing as curl reads it: sets, ranges with steps, named globs; -T globs too', () => {
    const starts = (command: string): string[] =>
      parseCurlCommand(command).map((e) => e.request.startLine);
    expect(starts("curl 'http://x.example/{a,b}/[1-2]'")).toEqual([
      'GET /a/1 HTTP/1.1',
      'GET /a/2 HTTP/1.1',
      'GET /b/1 HTTP/1.1',
      'GET /b/2 HTTP/1.1',
    ]);
    expect(starts("curl 'http://x.example/[a-e:2][08-10:2]'")).toEqual(
      ['a08', 'a10', 'c08', 'c10', 'e08', 'e10'].map((p) => `GET /${p} HTTP/1.1`),
    );
    expect(starts("curl 'http://x.example/{<user>alice,bob}/[<n>7-8]' -o 'out-#<user>'")).toEqual([
      'GET /alice/7 HTTP/1.1',
      'GET /alice/8 HTTP/1.1',
      'GET /bob/7 HTTP/1.1',
      'GET /bob/8 HTTP/1.1',
    ]);
    // `[]`, IPv6 literals and escaped brackets are not globs.
    expect(starts("curl 'http://[::1]:8080/a[]=1&b=\\{x\\}'")).toEqual([
      'GET /a[]=1&b={x} HTTP/1.1',
    ]);
    // What curl would refuse to glob is read as typed (as -g sends it), with curl's reason.
    const refused = parseCurlCommand("curl 'http://x.example/?id[0]=1'");
    expect(refused.map((e) => e.request.startLine)).toEqual(['GET /?id[0]=1 HTTP/1.1']);
    expect(refused[0]?.notes).toEqual([
      'curl would refuse the URL "http://x.example/?id[0]=1" without -g: bad range at position 21 of its globbing ({…} and […] stand for several URLs); read as typed, as curl -g sends it.',
    ]);
    expect(starts("curl -g 'http://x.example/?id[0]=1'")).toEqual(['GET /?id[0]=1 HTTP/1.1']);
    // -T globs its file names; the name added to the URL is URL-encoded.
    const put = curlWire("curl -T '{my poc(1).html,two.txt}' http://x.example/up/", {
      'my poc(1).html': 'first',
    });
    expect(put[0]).toBe('PUT /up/my%20poc%281%29.html HTTP/1.1');
    expect(put.at(-1)).toBe('first');
  });

  it("--referer ';auto' sends no Referer on the first request; 'x;auto' sends x", () => {
    expect(curlWire("curl -L --referer ';auto' http://x.example/")).not.toContainEqual(
      expect.stringMatching(/^Referer/),
    );
    expect(curlWire("curl -e 'https://a.example/;auto' http://x.example/")).toContain(
      'Referer: https://a.example/',
    );
  });

  it('--etag-compare: the file as If-None-Match after the typed headers; missing is noted', () => {
    const wire = curlWire('curl --etag-compare etag.txt -H "X: 1" http://x.example/', {
      'etag.txt': '"21025-dc7"\n',
    });
    expect(wire.slice(2, 5)).toEqual(['Accept: */*', 'X: 1', 'If-None-Match: "21025-dc7"']);
    expect(curlWire('curl --etag-compare empty http://x.example/', { empty: '' })).toContain(
      'If-None-Match: ""',
    );
    expect(notesOf('curl --etag-compare etag.txt http://x.example/')).toEqual([
      'The command reads etag.txt: its contents are not part of the paste.',
    ]);
  });

  it('--netrc-file: the login and password curl finds for the host and URL user', () => {
    const netrc = [
      'machine other.example login eve password x',
      '# a comment',
      'machine api.example.com',
      '  login alice',
      '  password "pa ss\\tword"',
      'machine api.example.com login bob password hunter2',
      'default login anon password guest',
    ].join('\n');
    const files = { netrc };
    const auth = (command: string): string | undefined =>
      curlWire(command, files).find((l) => l.startsWith('Authorization'));
    const b64 = (text: string): string =>
      `Authorization: Basic ${Buffer.from(text).toString('base64')}`;
    expect(auth('curl --netrc-file netrc https://api.example.com/')).toBe(b64('alice:pa ss\tword'));
    expect(auth('curl --netrc-file netrc https://bob@api.example.com/')).toBe(b64('bob:hunter2'));
    expect(auth('curl --netrc-optional --netrc-file netrc https://x.example/')).toBe(
      b64('anon:guest'),
    );
    // -u wins; a URL with user and password is not completed unless --netrc insists.
    expect(auth('curl -u me:pw --netrc-file netrc https://api.example.com/')).toBe(b64('me:pw'));
    expect(auth('curl --netrc-file netrc https://bob:mine@api.example.com/')).toBe(b64('bob:mine'));
    expect(auth('curl --netrc --netrc-file netrc https://bob:mine@api.example.com/')).toBe(
      b64('bob:hunter2'),
    );
    expect(notesOf('curl --netrc https://api.example.com/')).toEqual([
      'The command reads ~/.netrc: its contents are not part of the paste.',
    ]);
  });

  it('-H @file reads a header a line; Connection goes last, joined with TE and h2c', () => {
    expect(
      curlWire('curl -H @heads.txt http://x.example/', {
        'heads.txt': 'X-One: 1\nno colon\n\nUser-Agent:\n',
      }),
    ).toEqual(['GET / HTTP/1.1', 'Host: x.example', 'Accept: */*', 'X-One: 1', '', '']);
    expect(
      curlWire(
        'curl --tr-encoding -H "Connection: close" -H "Connection: x" -d a=1 http://x.example/',
      ),
    ).toEqual([
      'POST / HTTP/1.1',
      'Host: x.example',
      'Accept: */*',
      'TE: gzip',
      'Content-Length: 3',
      'Content-Type: application/x-www-form-urlencoded',
      'Connection: close, TE',
      'Connection: x',
      '',
      'a=1',
    ]);
    expect(curlWire('curl --http2 http://x.example/')).toEqual([
      'GET / HTTP/1.1',
      'Host: x.example',
      'Accept: */*',
      'Upgrade: h2c',
      'HTTP2-Settings: AAMAAABkAAQAAQAAAAIAAAAA',
      'Connection: Upgrade, HTTP2-Settings',
      '',
      '',
    ]);
    expect(curlWire('curl --http2 https://x.example/')[0]).toBe('GET / HTTP/2');
  });

  it('a typed Transfer-Encoding: chunked sends the body in chunks; big bodies expect 100', () => {
    expect(
      curlWire(
        'curl -H "Transfer-Encoding: chunked" --data-binary "hello, world" http://x.example/',
      ),
    ).toEqual([
      'POST / HTTP/1.1',
      'Host: x.example',
      'Accept: */*',
      'Transfer-Encoding: chunked',
      'Content-Type: application/x-www-form-urlencoded',
      '',
      'c\r\nhello, world\r\n0\r\n\r\n',
    ]);
    const big = curlWire('curl -d @big http://x.example/', { big: 'x'.repeat(1024 * 1024 + 1) });
    expect(big.slice(3, 6)).toEqual([
      'Content-Length: 1048577',
      'Content-Type: application/x-www-form-urlencoded',
      'Expect: 100-continue',
    ]);
  });

  it('-C: a resumed upload sends the rest of the file with Content-Range; -C - on a download is noted', () => {
    const files = { 'f.txt': '0123456789' };
    expect(curlWire('curl -T f.txt -C 4 http://x.example/up', files)).toEqual([
      'PUT /up HTTP/1.1',
      'Host: x.example',
      'Content-Range: bytes 4-9/10',
      'Accept: */*',
      'Content-Length: 6',
      '',
      '456789',
    ]);
    expect(curlWire('curl -C 100 http://x.example/big.iso')[2]).toBe('Range: bytes=100-');
    const download = parseCurlCommand('curl -C - -o big.iso http://x.example/big.iso')[0];
    expect(download?.request.headers.map(([n]) => n)).toEqual(['Host', 'Accept']);
    expect(download?.notes?.[0]).toMatch(/^-C -: curl resumes from the size of the file/);
  });

  it('--url @file, ftp:// through an HTTP proxy, --ipfs-gateway; other schemes are noted', () => {
    const starts = (command: string, files: Record<string, string> = {}): string[] =>
      parseCurlCommand(command, { readFile: (n) => files[n] ?? null }).map(
        (e) => e.request.startLine,
      );
    expect(
      starts('curl --url @urls', { urls: 'http://x.example/[1-2]\n\nhttp://y.example/' }),
    ).toEqual(['GET /[1-2] HTTP/1.1', 'GET / HTTP/1.1']);
    expect(() => parseCurlCommand('curl --url @urls')).toThrow(
      /no URL \(The command reads urls: its contents are not part of the paste\.\)/,
    );
    expect(curlWire('curl -x http://proxy:3128 -u bob:pw ftp://files.example/a.txt')).toEqual([
      'GET ftp://bob:pw@files.example/a.txt HTTP/1.1',
      'Host: files.example:21',
      `Authorization: Basic ${Buffer.from('bob:pw').toString('base64')}`,
      'Accept: */*',
      'Proxy-Connection: Keep-Alive',
      '',
      '',
    ]);
    expect(starts('curl --ipfs-gateway http://gw.example/base/ "ipfs://bafy/a?b=1"')).toEqual([
      'GET /base/ipfs/bafy/a?b=1 HTTP/1.1',
    ]);
    const mixed = parseCurlCommand('curl http://x.example/ file:///etc/passwd ipfs://bafy');
    expect(mixed.map((e) => e.request.startLine)).toEqual(['GET / HTTP/1.1']);
    expect(mixed[0]?.notes).toEqual([
      'file:///etc/passwd is fetched by curl over file, not HTTP: not shown.',
      'ipfs://bafy: curl takes its IPFS gateway from $IPFS_GATEWAY or ~/.ipfs/gateway, which are not part of the paste.',
    ]);
    expect(() => parseCurlCommand('curl ftp://files.example/a.txt')).toThrow(
      /is not an HTTP URL \(curl would use ftp\)/,
    );
  });

  it('--variable and --expand-*: {{name}} with its functions, across --next; env is noted', () => {
    const [first, second] = parseCurlCommand(
      [
        'curl --variable host=x.example --variable "tok[0-3]@secret"',
        "--expand-url 'https://{{host}}/q?t={{tok:url}}&raw={{tok}}'",
        '--expand-data \'{"b":"{{tok:b64}}","j":"{{quote:json}}"}\' --variable \'quote=a"b\'',
        "--next -g --expand-url 'https://{{host}}/{{missing}}\\{{x}}'",
      ].join(' '),
      { readFile: (n) => (n === 'secret' ? 'a b&c-rest' : null) },
    );
    expect(first?.request.startLine).toBe('POST /q?t=a%20b%26&raw=a b& HTTP/1.1');
    // Variables are set in the order typed: quote is not defined yet when --expand-data runs.
    expect(first?.request.body).toBe(`{"b":"${Buffer.from('a b&').toString('base64')}","j":""}`);
    expect(second?.request.startLine).toBe('GET /{{x}} HTTP/1.1');
    const env = parseCurlCommand(
      "curl --variable '%HOME=/root' --expand-url 'http://x.example{{HOME}}'",
    )[0];
    expect(env?.request.startLine).toBe('GET /root HTTP/1.1');
    expect(env?.notes?.[0]).toMatch(/curl takes HOME from the environment, .*its default is used/);
    // Without --expand- the braces are sent as typed (with -g).
    expect(parseCurlCommand("curl -g 'http://x.example/{{host}}'")[0]?.request.startLine).toBe(
      'GET /{{host}} HTTP/1.1',
    );
  });

  it('what the server or the clock decides is left out and said: challenges, CONNECT, SigV4', () => {
    const digest = parseCurlCommand('curl -u a:b --digest -d x=1 https://x.example/')[0];
    expect(digest?.request.headers.map(([n]) => n)).not.toContain('Authorization');
    expect(digest?.notes).toEqual([
      "--digest: the Authorization header depends on the server's challenge (curl's first request sends no body); it is left out.",
    ]);
    const proxied = parseCurlCommand(
      'curl -U p:q --proxy-ntlm -x http://proxy:3128 http://x.example/',
    )[0];
    expect(proxied?.request.headers.map(([n]) => n)).toEqual([
      'Host',
      'Accept',
      'Proxy-Connection',
    ]);
    expect(proxied?.notes?.[0]).toMatch(/^--proxy-ntlm: the Proxy-Authorization header depends/);
    expect(notesOf('curl -x http://proxy:3128 https://x.example/')).toEqual([
      'curl first sends CONNECT x.example:443 HTTP/1.1 to the proxy http://proxy:3128; shown: the request it then sends inside the tunnel.',
    ]);
    const signed = parseCurlCommand(
      'curl -u AKID:secret --aws-sigv4 aws:amz:us-east-1:s3 https://b.s3.amazonaws.com/k',
    )[0];
    expect(signed?.request.headers.map(([n]) => n)).toEqual(['Host', 'Accept']);
    expect(signed?.notes?.[0]).toMatch(/^--aws-sigv4 aws:amz:us-east-1:s3: curl signs the request/);
  });

  it('-H "Name;" only when ; ends it; --json headers after the typed ones; -u without password; --noproxy; IDN', () => {
    expect(curlWire('curl -H "X-Empty;" -H "X-Not; " -H "X-No;pe" http://x.example/')).toEqual([
      'GET / HTTP/1.1',
      'Host: x.example',
      'Accept: */*',
      'X-Empty: ',
      '',
      '',
    ]);
    expect(curlWire(`curl --json '{}' -H 'X-A: 1' http://x.example/`).slice(2, 6)).toEqual([
      'X-A: 1',
      'Content-Type: application/json',
      'Accept: application/json',
      'Content-Length: 2',
    ]);
    const prompt = parseCurlCommand('curl -u alice https://x.example/')[0];
    expect(prompt?.request.headers).toContainEqual([
      'Authorization',
      `Basic ${Buffer.from('alice:').toString('base64')}`,
    ]);
    expect(prompt?.notes).toEqual([
      '-u alice: curl asks for the password when it runs; shown with an empty one.',
    ]);
    expect(curlWire('curl -x http://p:1 --noproxy .example.com http://api.example.com/a')[0]).toBe(
      'GET /a HTTP/1.1',
    );
    expect(curlWire('curl http://bücher.example/')[1]).toBe('Host: xn--bcher-kva.example');
  });

  it('-F: the multipart body curl sends, parts typed by extension, its Content-Length', () => {
    const wire = curlWire(
      `curl -F name=daniel -F 'shell=@x/poc.php;type=image/png' -F 'doc=@a.pdf' -F 'note=<n.txt' -F 'raw=a;filename=b.txt' --form-string 'lit=@not-a-file' http://x.example/up`,
      { 'x/poc.php': '<?php ?>', 'a.pdf': '%PDF', 'n.txt': 'text' },
    );
    const b = `--${'-'.repeat(24)}CurlRandomBoundaryHere`;
    const body = [
      b,
      'Content-Disposition: form-data; name="name"',
      '',
      'daniel',
      b,
      'Content-Disposition: form-data; name="shell"; filename="poc.php"',
      'Content-Type: image/png',
      '',
      '<?php ?>',
      b,
      'Content-Disposition: form-data; name="doc"; filename="a.pdf"',
      'Content-Type: application/pdf',
      '',
      '%PDF',
      b,
      'Content-Disposition: form-data; name="note"',
      '',
      'text',
      b,
      'Content-Disposition: form-data; name="raw"; filename="b.txt"',
      'Content-Type: text/plain',
      '',
      'a',
      b,
      'Content-Disposition: form-data; name="lit"',
      '',
      '@not-a-file',
      `${b}--`,
      '',
    ].join('\r\n');
    expect(wire).toEqual([
      'POST /up HTTP/1.1',
      'Host: x.example',
      'Accept: */*',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `Content-Type: multipart/form-data; boundary=${b.slice(2)}`,
      '',
      body,
    ]);
  });

  it('jar cookies follow a typed Host; control bytes refuse a cookie; -F types keep parameters', () => {
    const jar = {
      jar: 'Set-Cookie: sid=1; domain=app.example\nSet-Cookie: bad=\x0b-junk\nSet-Cookie: ok=yes\t\n',
    };
    expect(curlWire('curl -b jar -H "Host: app.example" http://10.0.0.5/', jar)).toContain(
      'Cookie: sid=1; ok=yes',
    );
    const wire = curlWire(
      `curl -F 'html= <b>x</b>;type=text/html;charset=utf-8' -H 'Content-Type: multipart/mixed' http://x.example/`,
    );
    expect(wire.slice(3, 5)).toEqual([
      'Content-Length: 198',
      `Content-Type: multipart/mixed; boundary=${'-'.repeat(24)}CurlRandomBoundaryHere`,
    ]);
    expect(wire.at(-1)).toContain(
      'name="html"\r\nContent-Type: text/html;charset=utf-8\r\n\r\n<b>x</b>\r\n',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { readHttpEvidence } from '../../src/engine/evidence/http-import';
import type { HttpExchange } from '../../src/engine/evidence/http-import/model';
import { detectHttpEvidence } from '../../src/shared/evidence/http-detect';

function exchanges(text: string): HttpExchange[] {
  const read = readHttpEvidence(text);
  if (!read || !('exchanges' in read)) throw new Error(`not read: ${JSON.stringify(read)}`);
  return read.exchanges;
}
const lines = (text: string): string[] => exchanges(text).map((e) => e.request.startLine);
const notes = (text: string): string[] => exchanges(text).flatMap((e) => e.notes ?? []);

describe('a pasted script: every curl command is a request, every other line is named', () => {
  const script = [
    '#!/bin/bash',
    '# log in, then read the profile',
    'set -e',
    "curl -s https://api.example.com/login -d 'user=a&pass=b'",
    "curl https://api.example.com/me -H 'X-Token: 1'",
    '',
    'echo done',
    'curl --sil https://api.example.com/three',
    'curl https://api.example.com/four | jq .',
  ].join('\n');

  it('is recognised as curl although it starts with a shebang and a comment', () => {
    expect(detectHttpEvidence(script)).toBe('curl');
    expect(detectHttpEvidence('# a note\n\ncurl https://a.example/')).toBe('curl');
    expect(detectHttpEvidence("echo 'x' | curl -d @- https://a.example/")).toBe('curl');
    // Prose that mentions curl is not a script.
    expect(detectHttpEvidence('We used\ncurl https://a.example/ to test.')).toBeNull();
    expect(detectHttpEvidence('# Title\nSome text\ncurl https://a.example/')).toBeNull();
  });

  it('gives the four requests in order and names the two lines left out', () => {
    expect(lines(script)).toEqual([
      'POST /login HTTP/1.1',
      'GET /me HTTP/1.1',
      'GET /three HTTP/1.1',
      'GET /four HTTP/1.1',
    ]);
    expect(notes(script)).toEqual([
      'Line 3: `set -e` is not a curl command: left out.',
      'Line 7: `echo done` is not a curl command: left out.',
      'Line 9: `jq .` is not a curl command: left out.',
    ]);
  });

  it('names the command a refusal comes from', () => {
    const read = readHttpEvidence(
      'curl https://a.example/one\ncurl --frobnicate https://a.example/',
    );
    expect(read && 'error' in read ? read.error : '').toBe(
      'curl command 2: curl does not know the option --frobnicate (word 2)',
    );
  });

  it("`echo … | curl -d @-`: echo's output is the body, and the note says where it came from", () => {
    const [e] = exchanges(`echo '{"a":1}' | curl --data @- https://a.example/x`);
    expect(e?.request.body).toBe('{"a":1}');
    expect(e?.notes).toEqual([
      `Line 1: curl's standard input is the output of \`echo '{"a":1}'\`.`,
    ]);
    // --data-binary keeps echo's line break, as curl sends it.
    const [bin] = exchanges(`echo hi | curl --data-binary @- https://a.example/x`);
    expect(bin?.request.body).toBe('hi\n');
    const [other] = exchanges(`cat body.json | curl --data @- https://a.example/x`);
    expect(other?.request.body).toBe('[contents of standard input]');
    expect(other?.notes?.join(' ')).toContain('the output of `cat body.json`, which is not part');
  });

  it('a here-document is the standard input; redirections do not become words', () => {
    const text =
      'curl -X POST https://a.example/h -d @- <<EOF\nhello\nEOF\ncurl https://a.example/after';
    const all = exchanges(text);
    expect(all.map((e) => e.request.startLine)).toEqual([
      'POST /h HTTP/1.1',
      'GET /after HTTP/1.1',
    ]);
    expect(all[0]?.request.body).toBe('hello');
    const [r] = exchanges('curl https://a.example/r -d @- < body.json > out.txt 2>&1');
    expect(r?.request.startLine).toBe('POST /r HTTP/1.1');
    expect(r?.notes?.join(' ')).toContain('`< body.json`');
  });

  it('`$ ` prompts on each line are not part of the command', () => {
    expect(lines('$ curl https://a.example/1\n$ curl https://a.example/2')).toEqual([
      'GET /1 HTTP/1.1',
      'GET /2 HTTP/1.1',
    ]);
  });
});

describe('PowerShell: a backtick at the end of a line continues it', () => {
  it('reads curl.exe split over lines with backticks, PowerShell quoting included', () => {
    const text = [
      'curl.exe -X POST `',
      '  -H "Content-Type: application/json" `',
      '  -H "X-Note: it``s" `',
      "  -d '{\"a\":''b''}' `",
      '  https://a.example/ps',
    ].join('\r\n');
    const [e] = exchanges(text);
    expect(e?.request.startLine).toBe('POST /ps HTTP/1.1');
    expect(e?.request.headers.map(([n]) => n)).not.toContain('`');
    expect(e?.request.headers).toContainEqual(['X-Note', 'it`s']);
    expect(e?.request.body).toBe(`{"a":'b'}`);
  });
});

describe('long options as curl 7.x reads them: a unique prefix is the option', () => {
  it('accepts unambiguous prefixes; after --no- only the whole name, as curl', () => {
    const [e] = exchanges('curl --sil --inse --head https://a.example/');
    expect(e?.request.startLine).toBe('HEAD / HTTP/1.1');
    expect(readHttpEvidence('curl --compr https://a.example/')).toMatchObject({
      error: expect.stringContaining('is ambiguous') as unknown,
    });
    const [d] = exchanges('curl --data-b @- --no-compressed https://a.example/');
    expect(d?.request.startLine).toBe('POST / HTTP/1.1');
    expect(readHttpEvidence('curl --no-buf https://a.example/')).toMatchObject({
      error: 'curl does not know the option --no-buf (word 2)',
    });
  });

  it("refuses an ambiguous prefix with curl's reason and the options it may be", () => {
    const read = readHttpEvidence('curl --da x https://a.example/');
    expect(read && 'error' in read ? read.error : '').toBe(
      'curl option --da is ambiguous (word 2): it is the start of --data, --data-ascii, --data-binary, --data-raw, --data-urlencode',
    );
  });
});

/**
 * curl's own test cases (tests/data/test*): the command, the files it reads and the request curl
 * recorded sending, and how a parsed request is compared with it. Shared by the fixture test
 * (test/evidence/http-import-real.test.ts) and the measure against a whole curl checkout
 * (scripts/external-corpora.ts).
 */
import { parseCurlCommand } from '../../src/core/evidence/http-import/curl';
import type { HttpMessage } from '../../src/core/evidence/http-import/model';

export interface CurlCase {
  test: number;
  command: string;
  files?: Record<string, string>;
  protocol: string;
}

/** curl's test variables, as its test runner substitutes them. */
export function substitute(text: string, test: number): string {
  return text
    .replace(/%HOSTIP/g, '127.0.0.1')
    .replace(/%HTTPPORT/g, '8990')
    .replace(/%TESTNUMBER/g, String(test))
    .replace(/%AMP/g, '&')
    .replace(/%SP/g, ' ')
    .replace(/%TAB/g, '\t')
    .replace(/%CR/g, '\r')
    .replace(/%LOGDIR/g, 'log')
    .replace(/%LT/g, '<')
    .replace(/%GT/g, '>')
    .replace(/%VERSION/g, 'VERSION')
    .replace(/%H2CVER/g, 'h2c')
    .replace(/%b64\[(.*?)\]b64%/g, (_, x: string) => percentBytes(x).toString('base64'))
    .replace(/%hex\[(.*?)\]hex%/g, (_, x: string) => percentBytes(x).toString('latin1'))
    .replace(/%repeat\[(\d+) x (.*?)\]%/g, (_, n: string, x: string) =>
      percentBytes(x).toString('latin1').repeat(Number(n)),
    );
}

/** The bytes of a test's `%b64[…]`, `%hex[…]` or `%repeat[…]` text: `%NN` is the byte NN. */
function percentBytes(text: string): Buffer {
  const parts = text.split(/(%[0-9A-Fa-f]{2})/);
  return Buffer.concat(
    parts.map((p) =>
      /^%[0-9A-Fa-f]{2}$/.test(p) ? Buffer.from([parseInt(p.slice(1), 16)]) : Buffer.from(p),
    ),
  );
}

function wire(message: HttpMessage): string {
  const head = message.headers.map(([n, v]) => (v === '' ? `${n}:` : `${n}: ${v}`));
  return [message.startLine, ...head].join('\n') + '\n\n' + message.body.replace(/\r\n/g, '\n');
}

/**
 * The first request curl sent, as its test recorded it, against ours. curl's own
 * `User-Agent: curl/<version>` is left out of both (the version is not in a command).
 */
export function sameAsCurl(c: CurlCase, ours: HttpMessage): boolean {
  const expected = substitute(c.protocol, c.test)
    .replace(/\r\n/g, '\n')
    .split('\n')
    .filter((l) => l !== 'User-Agent: curl/VERSION')
    .join('\n');
  const mine = wire(ours);
  if (!expected.startsWith(mine)) return false;
  const rest = expected.slice(mine.length);
  // What follows our request is nothing, or curl's next request (another URL, a redirect),
  // maybe after the test server's mark of a closed connection.
  return ours.body !== '' || /^(?:\[DISCONNECT\]\n)*(?:$|[A-Z]+ \S+ HTTP\/)/.test(rest);
}

/** One case: the command parsed with the files it reads, its first request compared with curl's. */
export function runCurlCase(c: CurlCase): 'unparsed' | 'identical' | 'different' {
  const files = Object.fromEntries(
    Object.entries(c.files ?? {}).map(([k, v]) => [substitute(k, c.test), substitute(v, c.test)]),
  );
  let first: HttpMessage | undefined;
  try {
    first = parseCurlCommand(`curl ${substitute(c.command, c.test)}`, {
      readFile: (name) => files[name] ?? null,
    })[0]?.request;
  } catch {
    return 'unparsed';
  }
  return first && sameAsCurl(c, first) ? 'identical' : 'different';
}

/**
 * curl's own test cases (tests/data/test*): the command, the files it reads and the request curl
 * recorded sending, and how a parsed request is compared with it. Shared by the fixture test
 * (test/evidence/http-import-real.test.ts) and the measure against a whole curl checkout
 * (scripts/external-corpora.ts).
 */
import { parseCurlCommand } from '../../src/engine/evidence/http-import/curl';
import type { HttpExchange, HttpMessage } from '../../src/engine/evidence/http-import/model';

export interface CurlCase {
  test: number;
  command: string;
  files?: Record<string, string>;
  protocol: string;
  /** Not curl's own command line: a libtest `<tool>`, or a command fed by standard input. */
  notTheTool?: string;
  /** curl's `<strip>` patterns: lines both sides leave out of the comparison (random parts). */
  strip?: string[];
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
  const patterns = (c.strip ?? []).flatMap((p) => {
    try {
      return [new RegExp(p)];
    } catch {
      return [];
    }
  });
  const kept = (text: string): string =>
    text
      .split('\n')
      .filter((line) => !patterns.some((p) => p.test(line)))
      .join('\n');
  const expected = kept(
    substitute(c.protocol, c.test)
      .replace(/\r\n/g, '\n')
      .split('\n')
      .filter((l) => l !== 'User-Agent: curl/VERSION')
      .join('\n'),
  );
  const mine = kept(wire(ours));
  if (!expected.startsWith(mine)) return false;
  const rest = expected.slice(mine.length);
  // What follows our request is nothing, or curl's next request (another URL, a redirect),
  // maybe after the test server's mark of a closed connection.
  return ours.body !== '' || /^(?:\[DISCONNECT\]\n)*(?:$|[A-Z]+ \S+ HTTP\/)/.test(rest);
}

function parseCase(c: CurlCase): HttpExchange | undefined {
  const files = Object.fromEntries(
    Object.entries(c.files ?? {}).map(([k, v]) => [substitute(k, c.test), substitute(v, c.test)]),
  );
  return parseCurlCommand(`curl ${substitute(c.command, c.test)}`, {
    readFile: (name) => files[name] ?? null,
  })[0];
}

/** One case: the command parsed with the files it reads, its first request compared with curl's. */
export function runCurlCase(c: CurlCase): 'unparsed' | 'identical' | 'different' {
  let first: HttpMessage | undefined;
  try {
    first = parseCase(c)?.request;
  } catch {
    return 'unparsed';
  }
  return first && sameAsCurl(c, first) ? 'identical' : 'different';
}

/**
 * Why a case's first request differs from curl's: what a command cannot tell — the server's
 * answer (an auth challenge, a proxy tunnel's CONNECT, 100-continue), the clock, a local file
 * or size the case does not give (the import notes each) — or `misread`: ours to fix.
 */
export type DifferenceKind =
  | 'server: auth challenge'
  | 'server: proxy CONNECT first'
  | 'server: 100-continue'
  | 'clock: --aws-sigv4 signature'
  | 'local: a file or size not in the command'
  | 'not curl: a libtest tool or standard input'
  | 'misread';

export function differenceKind(c: CurlCase): DifferenceKind {
  if (c.notTheTool) return 'not curl: a libtest tool or standard input';
  const command = substitute(c.command, c.test);
  const notes = (() => {
    try {
      return parseCase(c)?.notes ?? [];
    } catch {
      return [];
    }
  })();
  if (/--(?:proxy-)?(?:digest|ntlm|negotiate|anyauth)\b/.test(command))
    return 'server: auth challenge';
  if (notes.some((n) => n.startsWith('curl first sends CONNECT')))
    return 'server: proxy CONNECT first';
  if (/Expect: 100-continue/.test(c.protocol)) return 'server: 100-continue';
  if (/--aws-sigv4\b/.test(command)) return 'clock: --aws-sigv4 signature';
  if (notes.some((n) => /not part of the paste/.test(n)))
    return 'local: a file or size not in the command';
  return 'misread';
}

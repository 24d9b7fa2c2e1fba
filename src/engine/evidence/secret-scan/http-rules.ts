/** Credentials that HTTP carries: JWTs, credential headers (raw HTTP and HAR's JSON) and curl options. */
import type { SecretLintRuleContext } from '@secretlint/types';
import { isPlaceholder } from './placeholders';
import { report, rule } from './rule-kit';

/** `header.payload.signature`, where the header decodes to a JSON object naming an algorithm. */
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;

function isJwtHeader(part: string): boolean {
  try {
    const header: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof header === 'object' && header !== null && 'alg' in header;
  } catch {
    return false;
  }
}

export const jwtRule = rule('bounty-desk/jwt', (content, context) => {
  for (const m of content.matchAll(JWT)) {
    const [header = ''] = m[0].split('.');
    if (isJwtHeader(header)) report(context, 'JWT', m.index, m.index + m[0].length, m[0]);
  }
});

const COOKIE_NAMES = ['cookie', 'set-cookie'];
/** Headers whose names say "credential" but whose values are not one. */
const NOT_CREDENTIAL_HEADERS = new Set([
  'sec-websocket-key',
  'sec-websocket-accept',
  'www-authenticate',
  'proxy-authenticate',
  'authentication-results',
  'keep-alive',
  'idempotency-key',
  'x-content-type-options',
]);
/** A header named like a credential that never is one (a websocket nonce, a challenge). */
export function isNotCredentialHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return NOT_CREDENTIAL_HEADERS.has(lower) || lower.startsWith('access-control-');
}

/**
 * A header that carries a credential: the standard ones, and any whose name says token, key,
 * secret, auth, session, password or signature (`X-Goog-Api-Key`, `PRIVATE-TOKEN`,
 * `X-Amz-Security-Token`…), not a fixed list.
 */
export function isCredentialHeader(name: string): boolean {
  const lower = name.toLowerCase();
  if (isNotCredentialHeader(lower)) return false;
  if (lower.startsWith(':') || lower.includes('authority')) return false; // HTTP/2 `:authority`
  if (['authorization', 'proxy-authorization', ...COOKIE_NAMES].includes(lower)) return true;
  return /token|secret|api-?key|apikey|(?:^|-)auth(?:$|-|orization|entication)|session|passw|credential|signature|csrf|xsrf|(?:^|-)key$/.test(
    lower,
  );
}

/** In free text a header is `Name-With-Dashes:` or a standard one, not any `Word:` in a line. */
function looksLikeHeaderName(name: string): boolean {
  return name.includes('-') || ['authorization', ...COOKIE_NAMES].includes(name.toLowerCase());
}

/**
 * `Name: value` where a header stands: at a line's start (after a list marker or quote), after
 * curl's `-H '`, `-H $'`, `-H ^"`, or after an escaped line break inside a JSON string. A header
 * name inside a sentence ("copy the `Authorization:` header") is not a header.
 */
const HEADER_LINE =
  /(?:^|\r?\n|\\r\\n|\\n|(?:-H|--header)\s+(?:\$'|\^"|['"]))[ \t]*(?:(?:[-*>]|\d+\.)[ \t]+)?`?([A-Za-z][\w-]*)[ \t]*:[ \t]*([^\r\n'"`^\\]*[^\s'"`^\\])/g;
/** Analytics and preference cookies: readable ids, not sessions. */
export const NOT_SESSION_COOKIE =
  /^(?:_ga|_gid|_gat|_gcl|__utm|_fbp|_hj|OGPC|CONSENT|SOCS|lang|locale|theme|timezone)/i;

/** `Cookie: _ga=GA1.1.63…; _gid=…`: nothing but analytics is nothing to hide. */
function onlyReadableCookies(value: string): boolean {
  const names = value.split(/;\s*/).map((p) => p.slice(0, p.indexOf('=')).trim());
  return names.length > 0 && names.every((n) => n !== '' && NOT_SESSION_COOKIE.test(n));
}

/** HAR's headers: `{"name": "Cookie", "value": "…"}` (either key order). */
const HAR_HEADER =
  /"name"\s*:\s*"([\w-]+)"\s*,\s*"value"\s*:\s*"((?:[^"\\]|\\.)+)"|"value"\s*:\s*"((?:[^"\\]|\\.)+)"\s*,\s*"name"\s*:\s*"([\w-]+)"/g;
/**
 * The scheme word stays readable: `Bearer [REDACTED:…]` still tells a triager what was sent. A
 * scheme alone (`Authorization: Bearer ` once the token is deleted) holds nothing (walk 19).
 */
const AUTH_SCHEME = /^(?:Bearer|Basic|Digest|Token|Negotiate|NTLM|AWS4-HMAC-SHA256|Hawk)(?:\s+|$)/i;

function reportHeader(
  context: SecretLintRuleContext,
  name: string,
  value: string,
  valueStart: number,
): void {
  if (!isCredentialHeader(name)) return;
  const lower = name.toLowerCase();
  const cookie = COOKIE_NAMES.includes(lower);
  if (cookie && onlyReadableCookies(value)) return;
  const scheme = cookie ? null : AUTH_SCHEME.exec(value);
  const skip = scheme ? scheme[0].length : 0;
  if (value.length - skip < 3) return; // `Authorization: ` with nothing worth hiding
  const start = valueStart + skip;
  report(
    context,
    cookie ? 'COOKIE' : 'AUTH_HEADER',
    start,
    valueStart + value.length,
    value.slice(skip),
    name,
  );
}

export const headerRule = rule('bounty-desk/http-credential-header', (content, context) => {
  for (const m of content.matchAll(HEADER_LINE)) {
    const [whole, name = '', value = ''] = m;
    if (!looksLikeHeaderName(name)) continue;
    reportHeader(context, name, value, m.index + whole.length - value.length);
  }
  for (const m of content.matchAll(HAR_HEADER)) {
    const name = m[1] ?? m[4] ?? '';
    const value = m[2] ?? m[3] ?? '';
    const valueStart = m.index + m[0].indexOf(`"${value}"`) + 1;
    reportHeader(context, name, value, valueStart);
  }
});

/**
 * curl's credential options: `-u user:password`, `--oauth2-bearer …`, and cookies given with
 * `-b`/`--cookie` in every quoting a tool writes: `'…'`, `"…"`, Burp's `$'…'`, Chrome's
 * "Copy as cURL (cmd)" `^"…^"`, or bare.
 */
const CURL_OPTION =
  /(?<=\s|^)(-u|--user|-b|--cookie|--oauth2-bearer|--proxy-user|-U)(?:\s+|=)(?:\$'((?:[^'\\]|\\.)*)'|\^"((?:[^"^]|\^.)*)\^"|"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s'"^]+))/g;

export const curlRule = rule('bounty-desk/curl-credential', (content, context) => {
  for (const m of content.matchAll(CURL_OPTION)) {
    const [whole, option = ''] = m;
    const value = m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? '';
    // `-b cookies.txt` names a file, not a cookie.
    if ((option === '-b' || option === '--cookie') && !value.includes('=')) continue;
    // `-u user` alone makes curl ask for the password; `-u user:secret` shows a placeholder one.
    if (/^(-u|--user|--proxy-user|-U)$/.test(option)) {
      const colon = value.indexOf(':');
      if (colon === -1 || isPlaceholder(value.slice(colon + 1))) continue;
    }
    if (value.length < 3) continue;
    const quoteEnd = m[6] !== undefined ? 0 : m[3] !== undefined ? 2 : 1;
    const start = m.index + whole.length - quoteEnd - value.length;
    report(context, 'CURL_CREDENTIAL', start, start + value.length, value, option);
  }
});

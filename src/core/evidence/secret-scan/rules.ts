/**
 * Secretlint rules for what evidence of web bugs carries and secretlint's recommended preset does
 * not look for: JWTs, credential headers (in raw HTTP, curl commands and HAR's JSON), secrets in
 * URL query strings, and keys of this very service. They run in the same secretlint engine as
 * the preset, so every finding has one shape; the preset stays the main engine for vendor keys.
 */
import type { SecretLintRuleContext, SecretLintRuleCreator } from '@secretlint/types';

interface Props {
  NAME: string;
  VALUE: string;
}

/** `authorization` → `Authorization`, `set-cookie` → `Set-Cookie`: as a person reads them. */
function headerName(name = ''): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

/** Secretlint hands each message's props back as the result's `data` (the value, to locate it). */
const messages = {
  JWT: { en: () => 'JSON Web Token' },
  AUTH_HEADER: { en: (p?: Props) => `${headerName(p?.NAME)} header` },
  COOKIE: { en: (p?: Props) => `${headerName(p?.NAME)} header` },
  CURL_CREDENTIAL: { en: (p?: Props) => `Credential in curl option ${p?.NAME ?? ''}` },
  URL_PARAM: { en: (p?: Props) => `Secret in URL parameter “${p?.NAME ?? ''}”` },
  OWN_KEY: { en: () => 'Your API key for this service' },
  SERVICE_KEY: { en: () => 'An API key for this service' },
};

type MessageId = keyof typeof messages;

function report(
  context: SecretLintRuleContext,
  id: MessageId,
  start: number,
  end: number,
  value: string,
  name = '',
): void {
  const t = context.createTranslator(messages);
  context.report({ message: t(id, { NAME: name, VALUE: value }), range: [start, end] });
}

function rule(
  id: string,
  scan: (content: string, context: SecretLintRuleContext) => void,
): SecretLintRuleCreator {
  return {
    messages,
    meta: {
      id,
      recommended: true,
      type: 'scanner',
      supportedContentTypes: ['text'],
      docs: { url: 'https://github.com/bounty-desk/bounty-desk/blob/main/docs/security.md' },
    },
    create: (context) => ({ file: (source) => scan(source.content, context) }),
  };
}

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

const AUTH_NAMES = [
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-auth-token',
  'x-access-token',
  'x-csrf-token',
  'x-xsrf-token',
];
const COOKIE_NAMES = ['cookie', 'set-cookie'];
const HEADER_NAMES = [...AUTH_NAMES, ...COOKIE_NAMES].join('|');
/** `Name: value` as in raw HTTP or curl's -H; the value stops at a quote or the line's end. */
const HEADER_LINE = new RegExp(
  `(?<![\\w-])(${HEADER_NAMES})[ \\t]*:[ \\t]*([^\\r\\n'"]*[^\\s'"])`,
  'gi',
);
/** HAR's headers: `{"name": "Cookie", "value": "…"}` (either key order). */
const HAR_HEADER = new RegExp(
  `"name"\\s*:\\s*"(${HEADER_NAMES})"\\s*,\\s*"value"\\s*:\\s*"((?:[^"\\\\]|\\\\.)+)"` +
    `|"value"\\s*:\\s*"((?:[^"\\\\]|\\\\.)+)"\\s*,\\s*"name"\\s*:\\s*"(${HEADER_NAMES})"`,
  'gi',
);
/** The scheme word stays readable: `Bearer [REDACTED:…]` still tells a triager what was sent. */
const AUTH_SCHEME = /^(?:Bearer|Basic|Digest|Token|Negotiate|NTLM|AWS4-HMAC-SHA256|Hawk)\s+/i;

function reportHeader(
  context: SecretLintRuleContext,
  name: string,
  value: string,
  valueStart: number,
): void {
  const lower = name.toLowerCase();
  const cookie = COOKIE_NAMES.includes(lower);
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
    reportHeader(context, name, value, m.index + whole.length - value.length);
  }
  for (const m of content.matchAll(HAR_HEADER)) {
    const name = m[1] ?? m[4] ?? '';
    const value = m[2] ?? m[3] ?? '';
    const valueStart = m.index + m[0].indexOf(`"${value}"`) + 1;
    reportHeader(context, name, value, valueStart);
  }
});

/** curl's credential options: `-u user:password`, `-b 'session=…'`, `--oauth2-bearer …`. */
const CURL_OPTION =
  /(?<=\s|^)(-u|--user|-b|--cookie|--oauth2-bearer|--proxy-user|-U)(?:\s+|=)(['"]?)([^\s'"]+(?:\s(?!-)[^\s'"]+)*)\2/g;

export const curlRule = rule('bounty-desk/curl-credential', (content, context) => {
  for (const m of content.matchAll(CURL_OPTION)) {
    const [whole, option = '', quote = '', value = ''] = m;
    // `-b cookies.txt` names a file, not a cookie.
    if ((option === '-b' || option === '--cookie') && !value.includes('=')) continue;
    const start = m.index + whole.length - value.length - quote.length;
    report(context, 'CURL_CREDENTIAL', start, start + value.length, value, option);
  }
});

const URL_SECRET_PARAMS =
  'password|passwd|pwd|pass|token|access_token|id_token|refresh_token|auth|api_key|apikey|key|secret|client_secret|session|sessionid|sid|signature|sig';
const URL_PARAM = new RegExp(`[?&#](${URL_SECRET_PARAMS})=([^&#\\s"'<>]{3,})`, 'gi');

export const urlParamRule = rule('bounty-desk/url-secret-param', (content, context) => {
  for (const m of content.matchAll(URL_PARAM)) {
    const [whole, name = '', value = ''] = m;
    const start = m.index + whole.length - value.length;
    report(context, 'URL_PARAM', start, start + value.length, value, name);
  }
});

export interface ServiceKeyOptions {
  /** The signed-in researcher's own key(s): found anywhere, even inside other text. */
  ownKeys?: string[];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The researcher's own key, and any key of the same shape and prefix (another key of theirs, or
 * one a program leaked): `<KEY_PREFIX>_` followed by 43 characters (part 5 of the API document).
 */
export function serviceKeyRule(options: ServiceKeyOptions): SecretLintRuleCreator {
  const own = (options.ownKeys ?? []).filter((k) => k.length >= 8);
  const prefixes = [...new Set(own.map((k) => k.slice(0, k.indexOf('_') + 1)).filter(Boolean))];
  const shape = prefixes.length
    ? new RegExp(
        `(?<![A-Za-z0-9])(?:${prefixes.map(escapeRegExp).join('|')})[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])`,
        'g',
      )
    : null;
  return rule('bounty-desk/service-api-key', (content, context) => {
    const seen = new Set<number>();
    for (const key of own) {
      for (let i = content.indexOf(key); i !== -1; i = content.indexOf(key, i + key.length)) {
        seen.add(i);
        report(context, 'OWN_KEY', i, i + key.length, key);
      }
    }
    if (!shape) return;
    for (const m of content.matchAll(shape)) {
      if (!seen.has(m.index)) report(context, 'SERVICE_KEY', m.index, m.index + m[0].length, m[0]);
    }
  });
}

/**
 * Secretlint rules for what evidence of web bugs carries and secretlint's recommended preset does
 * not look for: JWTs, credential headers (in raw HTTP, curl commands and HAR's JSON), secrets in
 * URL query strings, and keys of this very service. They run in the same secretlint engine as
 * the preset, so every finding has one shape; the preset stays the main engine for vendor keys.
 */
import type { SecretLintRuleContext, SecretLintRuleCreator } from '@secretlint/types';
import { genericValueAllowed, gitleaksScan } from './gitleaks';
import { kindOfRule, noseyParkerScan } from './noseyparker';
import { isPlaceholder } from './placeholders';
import { proseSecretScan } from './prose-secrets';

interface Props {
  NAME: string;
  VALUE: string;
}

/** `authorization` → `Authorization`, `set-cookie` → `Set-Cookie`: as a person reads them. */
function headerName(name = ''): string {
  return name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}

/** `slack-app-token` → `Slack app token`: a rule's id as a person reads it. */
export function humanize(id: string): string {
  const words = id.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Secretlint hands each message's props back as the result's `data` (the value, to locate it). */
const messages = {
  JWT: { en: () => 'JSON Web Token' },
  AUTH_HEADER: { en: (p?: Props) => `${headerName(p?.NAME)} header` },
  COOKIE: { en: (p?: Props) => `${headerName(p?.NAME)} header` },
  CURL_CREDENTIAL: { en: (p?: Props) => `Credential in curl option ${p?.NAME ?? ''}` },
  URL_PARAM: { en: (p?: Props) => `Secret in field “${p?.NAME ?? ''}”` },
  URL_PASSWORD: { en: () => 'Password in a URL' },
  GITLEAKS: { en: (p?: Props) => humanize(p?.NAME ?? '') },
  OWN_KEY: { en: () => 'Your API key for this service' },
  SERVICE_KEY: { en: () => 'An API key for this service' },
  AWS_SECRET: { en: () => 'AWS secret access key' },
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
/** The scheme word stays readable: `Bearer [REDACTED:…]` still tells a triager what was sent. */
const AUTH_SCHEME = /^(?:Bearer|Basic|Digest|Token|Negotiate|NTLM|AWS4-HMAC-SHA256|Hawk)\s+/i;

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

/**
 * Names of form fields, query parameters, JSON keys and XML elements that hold a credential,
 * at any depth (`user[password]`, `auth.refresh_token`, `new_password`).
 */
const SECRET_NAME =
  /^(?:password|passwd|pwd|pass|passphrase|secret|token|key|auth|sig|signature|session|sessionid|session_id|sid|private_key|credentials?)$|(?:token|secret|password|passwd|api_?key|private_?key)$/i;

/** The last segment of `user[password]`, `user%5Bpassword%5D`, `auth.token`. */
function fieldName(raw: string): string {
  let name = raw;
  try {
    name = decodeURIComponent(raw);
  } catch {
    // a stray % stays as it is
  }
  const parts = name.split(/[[\].]+/).filter(Boolean);
  return parts[parts.length - 1] ?? name;
}

export function isSecretField(raw: string): boolean {
  return SECRET_NAME.test(fieldName(raw));
}

/** `code` is an OAuth authorization code only where the OAuth flow shows around it. */
const OAUTH_CONTEXT = /state=|redirect_uri|authorization_code|callback|oauth|authorize/i;

const FORM_FIELD = /(?<=^|[?&;:#\s"'])([\w.%[\]-]{1,60})=([^&#\s"'<>;]{3,})/gm;
const JSON_FIELD = /(\\?)"([\w.-]{1,60})\1"\s*:\s*\1"((?:[^"\\]|\\(?!")[^"]?)+)\1"/g;
const XML_FIELD = /<([\w:-]{1,40})>([^<>\s]{3,200})<\/\1>/g;

function lineOf(content: string, at: number): string {
  const from = content.lastIndexOf('\n', at) + 1;
  const to = content.indexOf('\n', at);
  return content.slice(from, to === -1 ? content.length : to);
}

/** Digits only and short: a timestamp or a counter (`sid=1700000000`), not a session. */
const SHORT_NUMBER = /^\d{1,15}$/;
const PASSWORD_NAME = /pass|pwd/i;

/**
 * Letters only, long, and in random case (`FuvLOluRwfWmaXmFdXEMMapjvZllMoSR`): a token without
 * digits, which gitleaks' allowlist would take for an identifier. A camelCase name changes case
 * only around a word's first letter and seldom has two capitals in a row; random letters change
 * case every other pair and have capitals side by side again and again.
 */
export function randomLetters(value: string): boolean {
  if (!/^[A-Za-z]{24,}$/.test(value)) return false;
  const upper = (i: number): boolean => /[A-Z]/.test(value[i] ?? '');
  let switches = 0;
  let capitalPairs = 0;
  for (let i = 1; i < value.length; i++) {
    if (upper(i) !== upper(i - 1)) switches++;
    if (upper(i) && upper(i - 1)) capitalPairs++;
  }
  return capitalPairs >= 2 && switches / (value.length - 1) >= 0.3;
}

export const fieldRule = rule('bounty-desk/secret-field', (content, context) => {
  const found = (name: string, raw: string, start: number): void => {
    // A PEM block ends at its last line, not at the escaped line break after it.
    const value = raw.includes('-----BEGIN') ? raw.replace(/(?:\\n|\s)+$/, '') : raw;
    const field = fieldName(name);
    if (field.toLowerCase() === 'code') {
      if (!OAUTH_CONTEXT.test(lineOf(content, start))) return;
    } else if (!isSecretField(name)) return;
    if (
      !PASSWORD_NAME.test(field) &&
      (SHORT_NUMBER.test(value) || (genericValueAllowed(value) && !randomLetters(value)))
    )
      return;
    report(context, 'URL_PARAM', start, start + value.length, value, field);
  };
  for (const m of content.matchAll(FORM_FIELD)) {
    const [whole, name = '', value = ''] = m;
    found(name, value, m.index + whole.length - value.length);
  }
  for (const m of content.matchAll(JSON_FIELD)) {
    const [whole, , name = '', value = ''] = m;
    const close = m[1] ? 2 : 1;
    found(name, value, m.index + whole.length - close - value.length);
  }
  for (const m of content.matchAll(XML_FIELD)) {
    const [whole, name = '', value = ''] = m;
    found(name, value, m.index + whole.length - name.length - 3 - value.length);
  }
});

/**
 * A password in a URL of any scheme (`redis://`, `amqp://`, `https://`), with any characters
 * (`!$@%`) and any host (`@localhost`): the password runs to the last `@` before the host.
 */
const URL_CREDENTIAL =
  /\b[a-z][a-z0-9+.-]{1,20}:\/\/([^\s:@/'"<>`]*):([^\s/'"<>`]+)@([^\s@/'"<>`?#]+)/gi;

/**
 * secretlint's database-connection-string rule's example credentials: a password that repeats
 * the user name (`postgres:postgres@`) or is exactly one of these words.
 */
const EXAMPLE_PASSWORDS = new Set([
  'password',
  'username',
  'secret',
  'mypassword',
  'myusername',
  'root',
  'admin',
  'user',
  'pass',
]);

export const urlCredentialRule = rule('bounty-desk/url-credential', (content, context) => {
  for (const m of content.matchAll(URL_CREDENTIAL)) {
    const [whole, user = '', password = '', host = ''] = m;
    if (password.length < 4 || password === user) continue;
    if (EXAMPLE_PASSWORDS.has(password.toLowerCase())) continue;
    const start = m.index + whole.length - host.length - 1 - password.length;
    report(context, 'URL_PASSWORD', start, start + password.length, password, user);
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

/**
 * Token shapes gitleaks finds only next to a vendor's name, which evidence often lacks: a Discord
 * bot token (`<base64 user id>.<time>.<hmac>`) and a Telegram bot token (`<bot id>:AA…`).
 */
const VENDOR_SHAPES: { kind: string; shape: RegExp }[] = [
  {
    kind: 'discord-bot-token',
    shape:
      /(?<![\w.-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![\w.-])/g,
  },
  { kind: 'telegram-bot-token', shape: /(?<![\w:])\d{8,10}:AA[A-Za-z0-9_-]{33}(?![\w-])/g },
  // Webhook URLs that are themselves the secret: whoever has one posts as the integration.
  // (Nosey Parker's Teams rule knows only the retired outlook.office.com form.)
  {
    kind: 'microsoft-teams-webhook',
    // Also the `@` of a link written URL-encoded (`%40`, `%2540`), as Markdown links keep it.
    shape:
      /https:\/\/(?:outlook\.office(?:365)?\.com|[\w-]+\.webhook\.office\.com)\/webhook(?:b2)?\/[\w-]+(?:@|%40|%2540)[\w-]+\/\w+\/\w+\/[\w-]+(?:\/[\w-]+)?/g,
  },
  {
    kind: 'discord-webhook',
    shape: /https:\/\/(?:\w+\.)?discord(?:app)?\.com\/api\/webhooks\/\d{17,20}\/[\w-]{60,80}/g,
  },
  // A PuTTY key file (.ppk): the private lines after its header (no rule set at hand has it).
  {
    kind: 'putty-private-key',
    shape:
      /PuTTY-User-Key-File-\d:[^\n]*\r?\n(?:[\w-]+:[^\n]*\r?\n(?:[A-Za-z0-9+/=]+\r?\n)*?)*?Private-Lines:\s*\d+\r?\n(?:[A-Za-z0-9+/=]+(?:\r?\n|$))+(?:Private-(?:MAC|Hash):\s*[0-9a-f]+)?/g,
  },
  { kind: 'zapier-webhook', shape: /https:\/\/hooks\.zapier\.com\/hooks\/catch\/[\w/]+/g },
  { kind: 'tines-webhook', shape: /https:\/\/[\w-]+\.tines\.com\/webhook\/\w+\/\w+/g },
];

export const vendorShapeRule = rule('bounty-desk/vendor-shape', (content, context) => {
  for (const { kind, shape } of VENDOR_SHAPES) {
    for (const m of content.matchAll(shape)) {
      report(context, 'GITLEAKS', m.index, m.index + m[0].length, m[0], kind);
    }
  }
});

/**
 * An AWS secret access key: 40 characters of `[A-Za-z0-9/+=]` after an AWS secret key's name
 * (`aws_secret_access_key = …`, `"SecretAccessKey": "…"`), as secretlint's AWS rule reads it. That
 * rule ends its match with `\b`, so a key whose last character is `+`, `/` or `=` followed by
 * a space or a line's end is missed there (and found only by gitleaks' generic rule); here the
 * value ends where its alphabet does, whatever its last character.
 */
const AWS_SECRET =
  /["']?(?:AWS|aws|Aws)?_?(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)_?(?:KEY|key|Key)["']?\s*(?::|=>|=)\s*["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/g;

export const awsSecretRule = rule('bounty-desk/aws-secret-key', (content, context) => {
  for (const m of content.matchAll(AWS_SECRET)) {
    const value = m[1] ?? '';
    // AWS's documented example key, as secretlint leaves it.
    if (value.endsWith('EXAMPLEKEY')) continue;
    const start = m.index + m[0].length - value.length;
    report(context, 'AWS_SECRET', start, start + value.length, value);
  }
});

/** gitleaks' rule set, in the same engine: one shape for every finding. */
/** `Sec-WebSocket-Key: aOpK58…==` at a line's start: a nonce that gitleaks' generic rule takes. */
function inNonCredentialHeader(content: string, at: number): boolean {
  const line = content.slice(content.lastIndexOf('\n', at) + 1, at);
  const name = /^\s*([\w-]+)\s*:/.exec(line)?.[1];
  return name !== undefined && isNotCredentialHeader(name);
}

/** A credential quoted in a sentence (prose-secrets.ts): the word that names it is its kind. */
export const proseSecretRule = rule('bounty-desk/prose-secret', (content, context) => {
  for (const hit of proseSecretScan(content)) {
    const kind = /pass|pwd/.test(hit.word) ? 'password' : 'secret-in-text';
    report(context, 'GITLEAKS', hit.start, hit.end, content.slice(hit.start, hit.end), kind);
  }
});

/** Nosey Parker's rules (noseyparker.ts), reported as gitleaks' are: the kind names the rule. */
export const noseyParkerRule = rule('bounty-desk/noseyparker', (content, context) => {
  for (const hit of noseyParkerScan(content)) {
    if (inNonCredentialHeader(content, hit.start)) continue;
    const value = content.slice(hit.start, hit.end);
    report(context, 'GITLEAKS', hit.start, hit.end, value, kindOfRule(hit.rule));
  }
});

export const gitleaksRule = rule('bounty-desk/gitleaks', (content, context) => {
  for (const hit of gitleaksScan(content)) {
    if (inNonCredentialHeader(content, hit.start)) continue;
    const value = content.slice(hit.start, hit.end);
    report(context, 'GITLEAKS', hit.start, hit.end, value, hit.rule.id);
  }
});

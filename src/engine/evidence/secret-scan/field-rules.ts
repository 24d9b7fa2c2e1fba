/** Secrets by the name they are given: form fields, query parameters, JSON keys, XML elements, URL passwords. */
import { genericValueAllowed } from './gitleaks';
import { report, rule } from './rule-kit';

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

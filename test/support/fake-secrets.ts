/**
 * Fake credentials in the shapes real ones have, made at test time from the run's seeded random
 * characters (test/support/random.ts): no
 * committed file holds anything a secret scanner (ours or a code host's) would take for a live
 * key. Each kind maps to the `[REDACTED:<kind>]` the app writes for it.
 */
import type { KeyExportOptions } from 'node:crypto';
import { encryptedPkcs8, fakeEcKey, fakeEd25519Key, fakeRsaKey } from './fake-keys';
import { randomInt } from './random';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const ALNUM = `${UPPER}${UPPER.toLowerCase()}${DIGITS}`;

export function randomFrom(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
/** Prefixes are joined at run time so the source holds no token-shaped literal. */
const p = (...parts: string[]): string => parts.join('');

export function fakeJwt(): string {
  return [
    b64url({ alg: 'HS256', typ: 'JWT' }),
    b64url({ sub: randomFrom(DIGITS, 8), name: 'Test User', iat: 1_700_000_000 }),
    randomFrom(`${ALNUM}-_`, 43),
  ].join('.');
}

/** A throwaway key pair made now: the PEM of its private half. */
export function fakePrivateKey(): string {
  return fakeEcKey().export({ type: 'pkcs8', format: 'pem' }).toString().trim();
}

/** The researcher's own key for this service (the sandbox's prefix). */
export function fakeServiceKey(prefix = 'sbx'): string {
  return `${prefix}_${randomFrom(`${ALNUM}-_`, 43)}`;
}

export interface FakeSecret {
  /** The kind the scan reports (and writes in `[REDACTED:<kind>]`). */
  kind: string;
  /** A line of evidence holding the secret. */
  line: string;
  /** The part of the line that must disappear on redaction. */
  secret: string;
  /** What it is, when the kind alone does not say (a test name). */
  name?: string;
}

/** One line per supported kind, as it would appear in pasted evidence. */
export function fakeSecrets(ownKey = fakeServiceKey()): FakeSecret[] {
  const jwt = fakeJwt();
  const awsId = p('AK', 'IA') + randomFrom(UPPER + DIGITS, 16);
  const awsSecret = randomFrom(`${ALNUM}/+`, 40);
  const github = p('gh', 'p_') + randomFrom(ALNUM, 36);
  const slack = `${p('xo', 'xb-')}${randomFrom(DIGITS, 11)}-${randomFrom(DIGITS, 12)}-${randomFrom(ALNUM, 24)}`;
  const stripe = p('sk_', 'live_') + randomFrom(ALNUM, 24);
  const npm = p('np', 'm_') + randomFrom(ALNUM, 36);
  const gitlab = p('gl', 'pat-') + randomFrom(ALNUM, 20);
  const urlPassword = randomFrom(ALNUM, 14);
  const queryToken = randomFrom(ALNUM, 32);
  const cookie = `session=${randomFrom(ALNUM, 32)}`;
  const bearer = randomFrom(ALNUM, 40);
  const basic = Buffer.from(`admin:${randomFrom(ALNUM, 12)}`).toString('base64');
  const privateKey = fakePrivateKey();
  const dbPassword = randomFrom(ALNUM, 16);
  // A Google Cloud service account key file, as `gcloud iam service-accounts keys create` writes it.
  const gcpKey = fakePrivateKey();
  const gcpServiceAccount = JSON.stringify({
    type: 'service_account',
    project_id: 'demo-project',
    private_key_id: randomFrom('abcdef0123456789', 40),
    private_key: `${gcpKey}\n`,
    client_email: 'scanner@demo-project.iam.gserviceaccount.com',
  });
  const gcpPrivateKey = JSON.stringify(gcpKey).slice(1, -1);
  return [
    { kind: 'aws-access-key', line: `aws_access_key_id = ${awsId}`, secret: awsId },
    {
      kind: 'aws-secret-key',
      line: `aws_secret_access_key = ${awsSecret}`,
      secret: awsSecret,
    },
    { kind: 'github-token', line: `GITHUB_TOKEN=${github}`, secret: github },
    { kind: 'slack-token', line: `slack: ${slack}`, secret: slack },
    { kind: 'stripe-token', line: `stripe key ${stripe}`, secret: stripe },
    { kind: 'npm-token', line: `//registry/:_authToken=${npm}`, secret: npm },
    { kind: 'gitlab-token', line: `token ${gitlab}`, secret: gitlab },
    { kind: 'jwt', line: `id_token is ${jwt} here`, secret: jwt },
    { kind: 'authorization-header', line: `Authorization: Bearer ${bearer}`, secret: bearer },
    { kind: 'authorization-header', line: `Authorization: Basic ${basic}`, secret: basic },
    { kind: 'cookie', line: `Cookie: ${cookie}`, secret: cookie },
    {
      kind: 'password-in-url',
      line: `see https://admin:${urlPassword}@staging.example.com/login`,
      secret: urlPassword,
    },
    {
      kind: 'token-in-url',
      line: `GET https://api.example.com/v1/me?access_token=${queryToken}`,
      secret: queryToken,
    },
    { kind: 'private-key', line: privateKey, secret: privateKey },
    { kind: 'api-key', line: `my key: ${ownKey}`, secret: ownKey },
    {
      kind: 'database-url',
      line: `DATABASE_URL=postgres://app:${dbPassword}@db.internal:5432/shop`,
      secret: `postgres://app:${dbPassword}@db.internal:5432/shop`,
    },
    // The private key inside a Google Cloud service account file, found as one.
    {
      kind: 'private-key',
      line: gcpServiceAccount,
      secret: gcpPrivateKey,
      name: 'GCP service account key',
    },
  ];
}

/** A throwaway private key of each kind researchers meet, as PEM (made now). */
export function fakePrivateKeys(): { name: string; pem: string }[] {
  const ec = fakeEcKey();
  const rsa = fakeRsaKey();
  const ed = fakeEd25519Key();
  const pem = (key: typeof ec, options: KeyExportOptions<'pem'>): string =>
    String(key.export(options)).trim();
  return [
    { name: 'EC (SEC1)', pem: pem(ec, { type: 'sec1', format: 'pem' }) },
    { name: 'EC (PKCS#8)', pem: pem(ec, { type: 'pkcs8', format: 'pem' }) },
    { name: 'RSA (PKCS#1)', pem: pem(rsa, { type: 'pkcs1', format: 'pem' }) },
    { name: 'RSA (PKCS#8)', pem: pem(rsa, { type: 'pkcs8', format: 'pem' }) },
    { name: 'Ed25519 (PKCS#8)', pem: pem(ed, { type: 'pkcs8', format: 'pem' }) },
    {
      name: 'encrypted PKCS#8',
      pem: encryptedPkcs8(rsa, randomFrom(ALNUM, 12)),
    },
  ];
}

const HEX = '0123456789abcdef';
const WORD = `${ALNUM}_-`;

/**
 * The credential kinds researchers paste most, in their vendors' documented shapes (made now, never committed):
 * for the vendors whose real samples in test/fixtures/real/gitleaks are too few.
 */
export function vendorShapes(): FakeSecret[] {
  const sentryClaims = b64url({
    iat: 1_700_000_000,
    url: 'https://sentry.io',
    region_url: 'https://us.sentry.io',
    org: 'acme',
  }).replace(/=+$/, '');
  const shapes: [string, string, string][] = [
    ['gcp-api-key', p('AI', 'za') + randomFrom(WORD, 35), 'key={}'],
    [
      'slack-app-token',
      `${p('xa', 'pp-')}1-A${randomFrom(UPPER + DIGITS, 10)}-${randomFrom(DIGITS, 13)}-${randomFrom(HEX, 64)}`,
      'SLACK_APP_TOKEN={}',
    ],
    [
      'sendgrid-api-token',
      `${p('S', 'G.')}${randomFrom(ALNUM, 10)}-${randomFrom(ALNUM, 5)}-${randomFrom(ALNUM, 5)}.${randomFrom(ALNUM, 20)}-${randomFrom(ALNUM, 22)}`,
      'sendgrid: {}',
    ],
    [
      'discord-bot-token',
      `M${randomFrom(ALNUM, 25)}.${randomFrom(WORD, 6)}.${randomFrom(WORD, 38)}`,
      'bot.login("{}")',
    ],
    ['telegram-bot-token', `${randomFrom(DIGITS, 10)}:AA${randomFrom(WORD, 33)}`, 'bot {}'],
    [
      'mailchimp-api-key',
      `${randomFrom(HEX, 32)}-us${randomFrom(DIGITS, 2)}`,
      'mailchimp_key = {}',
    ],
    ['facebook-page-access-token', p('EA', 'AC') + randomFrom(ALNUM, 120), 'fb token {}'],
    [
      'atlassian-api-token',
      // Atlassian's shape (Nosey Parker's rule): a fixed prefix, the body, `=` and an 8-digit
      // uppercase checksum; 192 characters as gitleaks counts them. A `=` drawn inside the body
      // (seed 48) made a token no scanner reads as one.
      `${p('ATATT3', 'xFfGF0')}${randomFrom(`${ALNUM}_-`, 171)}=${randomFrom(HEX.toUpperCase(), 8)}`,
      'jira: {}',
    ],
    [
      'sentry-org-token',
      `${p('sntr', 'ys_')}${sentryClaims}_${randomFrom(ALNUM, 43)}`,
      'SENTRY_AUTH_TOKEN={}',
    ],
    ['square-access-token', p('EA', 'AA') + randomFrom(WORD, 60), 'square {}'],
    ['pypi-upload-token', p('pypi-', 'AgEIcHlwaS5vcmc') + randomFrom(HEX, 64), 'password = {}'],
    [
      'azure-ad-client-secret',
      `${randomFrom(ALNUM, 3)}8Q~${randomFrom(`${ALNUM}_~.`, 34)}`,
      'client_secret={}',
    ],
    ['okta-access-token', `00${randomFrom(ALNUM, 40)}`, 'okta_token = {}'],
    ['npm-authtoken', randomFrom(ALNUM, 36), '//registry.npmjs.org/:_authToken={}'],
  ];
  return shapes.map(([kind, secret, line]) => ({ kind, secret, line: line.replace('{}', secret) }));
}

/** Passwords in URLs with the characters and hosts real ones have. */
export function urlPasswords(): FakeSecret[] {
  const pw = (): string =>
    `${randomFrom(ALNUM, 6)}!$${randomFrom(ALNUM, 4)}%21@${randomFrom(ALNUM, 3)}`;
  return [
    ['redis://:{}@localhost:6379/0'],
    ['amqp://guest:{}@rabbit.internal:5672/vhost'],
    ['https://admin:{}@localhost/admin'],
    ['mongodb+srv://app:{}@cluster0.example.net/db'],
  ].map(([template = '']) => {
    const secret = pw();
    return { kind: 'password-in-url', secret, line: template.replace('{}', secret) };
  });
}

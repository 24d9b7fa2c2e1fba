/**
 * The credential scan: secretlint's recommended preset (vendor keys, private keys, passwords in
 * URLs, connection strings) plus the rules in `rules.ts` (JWTs, credential headers, curl
 * credentials, secrets in query strings, this service's keys), run by `@secretlint/core`.
 *
 * A finding is a place in the text, a kind and a fingerprint. The fingerprint (a sha256 of the
 * value) lets the researcher's "keep it" be remembered without storing the secret anywhere new;
 * the value itself never leaves this module except through the caller's own text.
 */
import { createHash } from 'node:crypto';
import type { lintSource } from '@secretlint/core';
import type { creator } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig, SecretLintCoreResultMessage } from '@secretlint/types';
import { globallyAllowed, wholeMatch } from './gitleaks';
import { redactionMark, redactionMarks } from '@shared/evidence/redaction-mark';
import { isPlaceholder } from './placeholders';
import {
  curlRule,
  describeFinding,
  fieldRule,
  gitleaksRule,
  headerRule,
  humanize,
  jwtRule,
  noseyParkerRule,
  proseSecretRule,
  serviceKeyRule,
  urlCredentialRule,
  vendorShapeRule,
  awsSecretRule,
} from './rules';

export interface SecretFinding {
  /** Short kind, used in `[REDACTED:<kind>]`: `jwt`, `aws-access-key`, `cookie`… */
  kind: string;
  /** What it is, for a person: "JSON Web Token", "Cookie header: Cookie"… */
  label: string;
  ruleId: string;
  /** Offsets in the scanned text (UTF-16 code units, end exclusive). */
  start: number;
  end: number;
  /** 1-based line and column of `start`. */
  line: number;
  column: number;
  /** sha256 of the value (hex, 32 characters): the same secret has the same fingerprint. */
  fingerprint: string;
  /** The first characters of the value and its length, safe to show: `eyJh… (212 characters)`. */
  preview: string;
}

export interface ScanOptions {
  /** The signed-in researcher's API key(s) for this service: always found. */
  ownKeys?: string[];
  /** A file name or extension (`.har`) helps some rules; default `.txt`. */
  ext?: string;
  /**
   * Options of the preset's rules, in a `.secretlintrc.json`'s shape (`{ id, options }`). Their
   * `allows` patterns (`/regex/flags` or a literal) drop that value whichever rule set finds it.
   */
  rules?: { id: string; options?: Record<string, unknown> }[];
}

/**
 * An option means the same whichever rule set finds the value: with secretlint's AWS rule told
 * not to report access key IDs (`enableIDScanRule: false`), an ID gitleaks finds (`AKIA…`, by its
 * `aws-access-token` rule or its generic one) is not reported either.
 */
function idScanOff(options: ScanOptions): boolean {
  return (options.rules ?? []).some(
    (r) => r.id === '@secretlint/secretlint-rule-aws' && r.options?.enableIDScanRule === false,
  );
}

/** secretlint's `allows` entries: `/gsk_aBc…/` is a regular expression, anything else a literal. */
function allowPatterns(options: ScanOptions): ((value: string) => boolean)[] {
  return (options.rules ?? []).flatMap((r) => {
    const allows = r.options?.allows;
    return (Array.isArray(allows) ? allows : []).map((a) => {
      const text = String(a);
      const re = /^\/(.+)\/([a-z]*)$/.exec(text);
      if (!re) return (value: string) => value.includes(text);
      const pattern = new RegExp(re[1] ?? '', re[2]);
      return (value: string) => pattern.test(value);
    });
  });
}

const PRESET_ID = '@secretlint/secretlint-rule-preset-recommend';

interface Secretlint {
  lintSource: typeof lintSource;
  recommended: typeof creator;
}
let secretlint: Promise<Secretlint> | undefined;

/**
 * secretlint and its preset load on the first scan, not with the engine: they are a good part of
 * the engine's start, and a command that reads (`bountydesk status`) never scans.
 */
function loadSecretlint(): Promise<Secretlint> {
  secretlint ??= Promise.all([
    import('@secretlint/core'),
    import('@secretlint/secretlint-rule-preset-recommend'),
  ]).then(([core, preset]) => ({ lintSource: core.lintSource, recommended: preset.creator }));
  // A failed load is tried again by the next scan.
  secretlint.catch(() => (secretlint = undefined));
  return secretlint;
}

function config(
  options: ScanOptions,
  recommended: Secretlint['recommended'],
): SecretLintCoreConfig {
  return {
    rules: [
      {
        id: PRESET_ID,
        rule: recommended,
        // An AWS access key id alone is a credential half; in shared evidence it still should go.
        rules: [
          { id: '@secretlint/secretlint-rule-aws', options: { enableIDScanRule: true } },
          ...(options.rules ?? []),
        ].filter((r, i, all) => all.findLastIndex((o) => o.id === r.id) === i),
      },
      { id: jwtRule.meta.id, rule: jwtRule },
      { id: headerRule.meta.id, rule: headerRule },
      { id: curlRule.meta.id, rule: curlRule },
      { id: fieldRule.meta.id, rule: fieldRule },
      { id: urlCredentialRule.meta.id, rule: urlCredentialRule },
      { id: vendorShapeRule.meta.id, rule: vendorShapeRule },
      { id: awsSecretRule.meta.id, rule: awsSecretRule },
      {
        id: 'bounty-desk/service-api-key',
        rule: serviceKeyRule({ ownKeys: options.ownKeys ?? [] }),
      },
      // Last: on a tie the preset's and our kinds name the finding, gitleaks' and then Nosey
      // Parker's fill the gaps.
      { id: gitleaksRule.meta.id, rule: gitleaksRule },
      { id: noseyParkerRule.meta.id, rule: noseyParkerRule },
      // A value a sentence names but no rule set knows by shape: the least specific, last.
      { id: proseSecretRule.meta.id, rule: proseSecretRule },
    ],
  };
}

const KIND_BY_MESSAGE: Record<string, string> = {
  AWSAccessKeyID: 'aws-access-key',
  AWSSecretAccessKey: 'aws-secret-key',
  AWS_SECRET: 'aws-secret-key',
  AWSAccountID: 'aws-account-id',
  BasicAuth: 'password-in-url',
  URL_PASSWORD: 'password-in-url',
  PrivateKey: 'private-key',
  JWT: 'jwt',
  AUTH_HEADER: 'authorization-header',
  COOKIE: 'cookie',
  OWN_KEY: 'api-key',
  SERVICE_KEY: 'api-key',
  MySQLConnection: 'database-url',
  PostgreSQLConnection: 'database-url',
  MongoDBConnection: 'database-url',
};

const PASSWORD_PARAM = /pass|pwd/i;

function kindOf(message: SecretLintCoreResultMessage): string {
  const byMessage = KIND_BY_MESSAGE[message.messageId];
  if (byMessage) return byMessage;
  const name = String((message.data as { NAME?: unknown } | undefined)?.NAME ?? '');
  if (message.messageId === 'GITLEAKS') return name;
  if (message.messageId === 'URL_PARAM') {
    if (name.toLowerCase() === 'code') return 'oauth-code';
    return PASSWORD_PARAM.test(name) ? 'password-in-url' : 'token-in-url';
  }
  if (message.messageId === 'CURL_CREDENTIAL') {
    if (/^(-b|--cookie)$/.test(name)) return 'cookie';
    if (name === '--oauth2-bearer') return 'token';
    return 'password';
  }
  // `@secretlint/secretlint-rule-github` → `github-token`
  const vendor = message.ruleId.replace(/^.*secretlint-rule-/, '').replace(/^bounty-desk\//, '');
  return /key|token|secret|password/.test(vendor) ? vendor : `${vendor}-token`;
}

/** Rules that name a place (a header, a parameter) rather than a kind of credential. */
const GENERIC_RULES = new Set([
  'bounty-desk/http-credential-header',
  'bounty-desk/curl-credential',
  'bounty-desk/secret-field',
]);
const GENERIC_KINDS = new Set([
  'generic-api-key',
  'curl-auth-header',
  'curl-auth-user',
  'secret-in-text',
]);

function generic(f: Raw): boolean {
  return GENERIC_RULES.has(f.ruleId) || GENERIC_KINDS.has(f.kind);
}

/**
 * What a finding is, for a person, from its kind alone: secretlint's own messages quote the
 * value ("found AWS Secret Access Key: Zq8v…"), and a label is shown, logged and screenshotted.
 */
const LABELS: Record<string, string> = {
  'aws-access-key': 'AWS access key ID',
  'aws-secret-key': 'AWS secret access key',
  'aws-account-id': 'AWS account ID',
  'password-in-url': 'Password',
  'private-key': 'Private key',
  'database-url': 'Password in a database URL',
  'token-in-url': 'Token',
  'oauth-code': 'OAuth authorization code',
};

function labelOf(message: SecretLintCoreResultMessage, kind: string): string {
  if (message.ruleId.startsWith('bounty-desk/') && message.messageId !== 'GITLEAKS') {
    // Our own messages name a header or a field, never a value.
    return describeFinding(message.messageId, message.data) ?? humanize(kind);
  }
  return LABELS[kind] ?? humanize(kind);
}

interface Raw {
  kind: string;
  label: string;
  ruleId: string;
  start: number;
  end: number;
}

/**
 * Some preset rules report the range of the whole match, not of the value (the AWS secret rule,
 * basic auth's whole URL): the value the rule names in its data, found nearest the range, is
 * what gets redacted. A password in a URL keeps the URL readable and hides only the password.
 */
function exactRange(content: string, message: SecretLintCoreResultMessage): [number, number] {
  let [start, end] = message.range;
  // Our own rules report the value's exact range.
  if (message.ruleId.startsWith('bounty-desk/')) return [start, end];
  const data = (message.data ?? {}) as Record<string, unknown>;
  const value = Object.values(data).find(
    (v): v is string => typeof v === 'string' && v.length >= 4 && content.includes(v),
  );
  if (value && content.slice(start, end) !== value) {
    let best = -1;
    for (let i = content.indexOf(value); i !== -1; i = content.indexOf(value, i + 1)) {
      if (best === -1 || Math.abs(i - start) < Math.abs(best - start)) best = i;
    }
    if (best !== -1) [start, end] = [best, best + value.length];
  }
  if (message.messageId === 'BasicAuth') {
    const text = content.slice(start, end);
    const userinfo = /\/\/[^/\s:@]*:([^/\s@]+)@/.exec(text);
    if (userinfo?.[1]) {
      const at = start + userinfo.index + userinfo[0].length - 1 - userinfo[1].length;
      return [at, at + userinfo[1].length];
    }
  }
  return [start, end];
}

/** Overlapping findings become one: the widest span, with the most specific kind on a tie. */
function merge(found: Raw[]): Raw[] {
  const sorted = [...found].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Raw[] = [];
  for (const f of sorted) {
    const last = out[out.length - 1];
    if (!last || f.start >= last.end) {
      out.push({ ...f });
      continue;
    }
    const lastWidth = last.end - last.start;
    const width = f.end - f.start;
    const moreSpecific = generic(last) && !generic(f);
    if (width > lastWidth || (width === lastWidth && moreSpecific)) {
      Object.assign(last, { kind: f.kind, label: f.label, ruleId: f.ruleId });
    }
    last.end = Math.max(last.end, f.end);
  }
  return out;
}

/** `Cookie: [REDACTED:cookie]` is the redaction itself, not a new finding. */
function alreadyRedacted(value: string): boolean {
  return value.replace(redactionMarks(), '').replace(/[^A-Za-z0-9]/g, '').length < 3;
}

export function fingerprintOf(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 32);
}

export function previewOf(value: string): string {
  const head = value.slice(0, Math.min(4, Math.floor(value.length / 3)));
  return `${head}… (${value.length} characters)`;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function position(starts: number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
}

/** Scans one text. Never throws on odd input: a rule that fails is a bug, not a finding. */
export async function scanText(text: string, options: ScanOptions = {}): Promise<SecretFinding[]> {
  if (text.trim() === '') return [];
  const ext = options.ext ?? '.txt';
  const { lintSource, recommended } = await loadSecretlint();
  const result = await lintSource({
    source: { content: text, filePath: `evidence${ext}`, ext, contentType: 'text' },
    options: { config: config(options, recommended), noPhysicFilePath: true, maskSecrets: false },
  });
  const raw: Raw[] = result.messages.map((m) => {
    const [start, end] = exactRange(text, m);
    const kind = kindOf(m);
    return { kind, label: labelOf(m, kind), ruleId: m.ruleId, start, end };
  });
  const starts = lineStarts(text);
  const inside = raw.filter((r) => r.end > r.start && r.start >= 0 && r.end <= text.length);
  const allows = allowPatterns(options);
  const noIds = idScanOff(options);
  const real = inside.filter((r) => {
    const value = text.slice(r.start, r.end);
    if (allows.some((allowedValue) => allowedValue(value))) return false;
    if (noIds && wholeMatch('aws-access-token', value)) return false;
    return !alreadyRedacted(value) && !isPlaceholder(value) && !globallyAllowed(value);
  });
  return merge(real).map((r) => {
    const value = text.slice(r.start, r.end);
    return {
      ...r,
      ...position(starts, r.start),
      fingerprint: fingerprintOf(value),
      preview: previewOf(value),
    };
  });
}

/** Replaces each finding's span with `[REDACTED:<kind>]` (findings of this very text). */
export function redact(
  text: string,
  findings: readonly Pick<SecretFinding, 'start' | 'end' | 'kind'>[],
): string {
  const sorted = [...findings].sort((a, b) => b.start - a.start);
  let out = text;
  let floor = Infinity;
  for (const f of sorted) {
    if (f.end > floor) continue; // overlapping leftovers: the later span already covers it
    out = out.slice(0, f.start) + redactionMark(f.kind) + out.slice(f.end);
    floor = f.start;
  }
  return out;
}

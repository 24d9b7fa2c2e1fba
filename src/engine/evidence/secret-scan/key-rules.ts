/** Keys by their shape: this service's keys, vendor tokens, AWS secrets, and the gitleaks, Nosey Parker and prose scanners. */
import type { SecretLintRuleCreator } from '@secretlint/types';
import escapeRegExp from 'escape-string-regexp';
import { gitleaksScan } from './gitleaks';
import { isNotCredentialHeader } from './http-rules';
import { kindOfRule, noseyParkerScan } from './noseyparker';
import { proseSecretScan } from './prose-secrets';
import { report, rule } from './rule-kit';

export interface ServiceKeyOptions {
  /** The signed-in researcher's own key(s): found anywhere, even inside other text. */
  ownKeys?: string[];
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

/** gitleaks' rule set, in the same engine: one shape for every finding. */
export const gitleaksRule = rule('bounty-desk/gitleaks', (content, context) => {
  for (const hit of gitleaksScan(content)) {
    if (inNonCredentialHeader(content, hit.start)) continue;
    const value = content.slice(hit.start, hit.end);
    report(context, 'GITLEAKS', hit.start, hit.end, value, hit.rule.id);
  }
});

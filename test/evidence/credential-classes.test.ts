import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redact, scanText } from '../../src/engine/evidence/secret-scan/scan';
import { randomFrom } from '../support/fake-secrets';
import { count, printCounts, REAL } from '../support/real-corpus';

/**
 * The kinds a second sample missed, each from Nosey Parker's published examples (SOURCES.md) or,
 * where no published one is at hand, made now from parts (fake-secrets.ts' way): prefix-only
 * vendor tokens, webhook URLs, a PuTTY key, a password in `key - 'value'` prose; and a
 * documentation placeholder that is none.
 */
const examples = (
  JSON.parse(readFileSync(join(REAL, 'noseyparker', 'examples.json'), 'utf8')) as {
    examples: { rule: string; text: string; secret: boolean }[];
  }
).examples;

function valuesOf(rule: string, shape: RegExp): string[] {
  return examples
    .filter((e) => e.rule === rule && e.secret)
    .flatMap((e) => [...e.text.matchAll(shape)].map((m) => m[0]));
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function puttyKey(): string {
  return [
    `${'PuTTY-User-'}Key-File-3: ssh-ed25519`,
    'Encryption: none',
    'Comment: eddsa-key-20240101',
    'Public-Lines: 2',
    randomFrom(B64, 64),
    randomFrom(B64, 12),
    'Private-Lines: 1',
    randomFrom(B64, 44),
    `Private-MAC: ${randomFrom('0123456789abcdef', 64)}`,
  ].join('\n');
}

describe('the credential kinds a second sample missed', () => {
  it('finds each kind bare, in inline code in a sentence and in a JS object', async () => {
    const classes: [string, string[]][] = [
      ['sourcegraph sgp_', valuesOf('np.sourcegraph.1', /sgp_[\w]+/g)],
      [
        'tavily tvly-',
        valuesOf('np.tavily.1', /tvly-[A-Za-z0-9]{32}/g).filter((v) => !/x{8}/.test(v)),
      ],
      ['telegram bot token', valuesOf('np.telegram.1', /\d{8,10}:AA[\w-]{33}/g)],
      ['google oauth ya29.', valuesOf('np.google.4', /ya29\.[\w-]{20,}/g)],
      ['slack webhook', valuesOf('np.slack.3', /https:\/\/hooks\.slack\.com\/services\/[\w/]+/g)],
      [
        'teams webhook',
        valuesOf('np.msteams.1', /https:\/\/outlook\.office\.com\/webhook\/[\w@%/-]+/g),
      ],
    ];
    const byClass = new Map<string, [number, number]>();
    const misses: string[] = [];
    for (const [name, values] of classes) {
      expect(values.length, name).toBeGreaterThan(0);
      for (const value of values) {
        for (const text of [
          value,
          `The token \`${value}\` is live.`,
          `const config = { auth: { token: '${value}' } };`,
        ]) {
          const gone = !redact(text, await scanText(text)).includes(value);
          count(byClass, name, gone);
          if (!gone) misses.push(`${name}: ${text.slice(0, 60)}`);
        }
      }
    }
    const ppk = puttyKey();
    const privateLine = ppk.split('\n')[7] ?? '';
    const ppkGone = !redact(ppk, await scanText(ppk)).includes(privateLine);
    count(byClass, 'putty .ppk', ppkGone);
    const prose = "The database password - 'Xk9vLq2mPz' was reused on the admin panel.";
    count(
      byClass,
      "password in `key - 'value'` prose",
      !redact(prose, await scanText(prose)).includes('Xk9vLq2mPz'),
    );
    printCounts('kinds the second sample missed', byClass);
    expect(misses).toEqual([]);
    expect(ppkGone).toBe(true);
  });

  it('takes a JWT cut with an ellipsis for the documentation placeholder it is', async () => {
    const texts = [
      'Send it as `Authorization: Bearer eyJhbGciOiJIUzI1NiIs...` on every call.',
      'Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...',
      'The token looks like eyJhbGciOiJIUzI1NiIs… and expires in an hour.',
    ];
    for (const text of texts) expect(await scanText(text), text).toEqual([]);
  });
});

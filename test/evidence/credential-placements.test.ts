import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { noseyParkerRuleCount } from '../../src/engine/evidence/secret-scan/noseyparker';
import { redact, scanText } from '../../src/engine/evidence/secret-scan/scan';
import { count, printCounts, REAL } from '../support/real-corpus';

/**
 * Other scanners' published examples (SOURCES.md): trufflehog's detector tests (`validPattern`
 * values, stored in two parts and joined here) and Nosey Parker's rule examples. Each value is
 * placed where a report or a piece of evidence holds it; a placement is measured against the
 * config-file placement of the same values (a key is found in a sentence as often as in a file).
 */
interface Value {
  detector: string;
  value: string;
}

/**
 * trufflehog's tests also hold the companions a detector reads beside a key (a host, a bare
 * URL, an e-mail address): not credentials, counted apart.
 */
function companion(value: string): boolean {
  return (
    /^[a-z]+s?:\/\/[^@/\s]+\/?$/i.test(value) ||
    /^[\w-]+(?:\.[\w-]+)*\.(?:com|net|io|org|co|ai|app|dev)$/i.test(value) ||
    /^[^@\s]+@[\w-]+(?:\.[\w-]+)+$/.test(value)
  );
}

const allTruffle = (
  JSON.parse(readFileSync(join(REAL, 'trufflehog', 'valid-patterns.json'), 'utf8')) as {
    values: { detector: string; parts: [string, string] }[];
  }
).values.map((v) => ({ detector: v.detector, value: v.parts.join('') }));
const truffle = allTruffle.filter((v) => !companion(v.value));

const PLACEMENTS: [string, (v: Value) => string][] = [
  ['config file', (v) => `${v.detector.toUpperCase()}_API_KEY=${v.value}`],
  [
    'inline code in a sentence',
    (v) => `While testing ${v.detector} I found its API key \`${v.value}\` in the JS bundle.`,
  ],
  ['prose', (v) => `While testing ${v.detector} I found its API key ${v.value} in the JS bundle.`],
  ['JSON', (v) => JSON.stringify({ [v.detector]: { apiKey: v.value } })],
  [
    'HTTP header',
    (v) => `GET /v1/me HTTP/1.1\nHost: api.example.com\nAuthorization: Bearer ${v.value}`,
  ],
];

/** Whether the value is gone from the text once what the scan found is redacted. */
async function redacted(text: string, value: string): Promise<boolean> {
  const out = redact(text, await scanText(text));
  const escaped = JSON.stringify(value).slice(1, -1);
  return !out.includes(value) && !out.includes(escaped);
}

describe('credentials from other scanners’ examples, in every placement', () => {
  it('finds a key in a sentence (inline code, prose), in JSON and in a header as often as in a config file', async () => {
    expect(noseyParkerRuleCount.compiled).toBe(noseyParkerRuleCount.total);
    const byPlace = new Map<string, [number, number]>();
    const relative = new Map<string, [number, number]>();
    const misses = new Map<string, string[]>();
    for (const v of truffle) {
      const found: Record<string, boolean> = {};
      for (const [place, make] of PLACEMENTS) {
        found[place] = await redacted(make(v), v.value);
        count(byPlace, place, found[place]);
        if (!found[place]) misses.set(place, [...(misses.get(place) ?? []), v.detector]);
      }
      // Of the values a config file gives away, how many each other placement gives away too.
      if (found['config file'])
        for (const [place] of PLACEMENTS.slice(1)) count(relative, place, found[place] === true);
    }
    console.log(
      `${allTruffle.length - truffle.length} companion values (hosts, bare URLs, e-mail) left out`,
    );
    printCounts(`trufflehog detector examples (${truffle.length} values), by placement`, byPlace);
    printCounts('of those found in a config file, found in the placement too', relative);
    for (const [place, list] of misses)
      console.log(`missed in ${place} (${list.length}): ${list.slice(0, 40).join(' ')}`);
    for (const [place, [f, t]] of relative) expect(f / t, place).toBeGreaterThanOrEqual(0.95);
  }, 300_000);

  it('finds the rule examples of Nosey Parker in a sentence as in the file they came from', async () => {
    const examples = (
      JSON.parse(readFileSync(join(REAL, 'noseyparker', 'examples.json'), 'utf8')) as {
        examples: { rule: string; text: string; secret: boolean }[];
      }
    ).examples;
    const byPlace = new Map<string, [number, number]>();
    const misses: string[] = [];
    for (const e of examples.filter((x) => x.secret)) {
      const asWritten = await scanText(e.text);
      count(byPlace, 'as written', asWritten.length > 0);
      for (const f of asWritten) {
        const value = e.text.slice(f.start, f.end);
        if (value.includes('\n')) continue;
        // A report names what it quotes ("the leaked password `…`"), here by the kind found.
        const sentence = `The leaked ${f.label.toLowerCase()} \`${value}\` was still valid.`;
        const ok = await redacted(sentence, value);
        count(byPlace, 'inline code in a sentence', ok);
        if (!ok) misses.push(`${e.rule}: ${f.kind}`);
      }
    }
    printCounts('Nosey Parker examples', byPlace);
    if (misses.length) console.log(`missed inline: ${misses.join(', ')}`);
    // As often as trufflehog's keys (95%). Left: values known only by where they stand
    // (`-Password x` of PsExec, a netrc `password`) and short words quoted alone.
    const [f = 0, t = 1] = byPlace.get('inline code in a sentence') ?? [];
    expect(f / t).toBeGreaterThanOrEqual(0.95);
  }, 300_000);
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchAsset, parseScope, type ScopeRules } from '../../src/shared/scope/scope';
import { count, printCounts } from '../support/real-corpus';

/**
 * The exclusion side of real program policies (bounty-targets-data: Bugcrowd, Intigriti,
 * YesWeHack, Federacy; SOURCES.md): every program with an out-of-scope list, read whole with its
 * in-scope list. The worst answer the hint can give is "in scope" for an excluded asset.
 */
interface Program {
  platform: string;
  program: string;
  scope: string[];
  exclusions: { line: string; type: string | null; probes?: string[] }[];
}

const DIR = join(__dirname, '../fixtures/real/scope');
const programs = JSON.parse(readFileSync(join(DIR, 'exclusions.json'), 'utf8')) as Program[];

function rulesOf(p: Program): ScopeRules {
  const list = (lines: string[]): string => lines.map((l) => `- ${l}`).join('\n');
  return parseScope(list(p.scope), list(p.exclusions.map((e) => e.line)));
}

/** The shape of an exclusion line, for the per-class counts the issue reports. */
function shapeOf(line: string): string {
  if (/apple\.com|^\s*(?:id)?\d{8,11}\s*$|play\.google/i.test(line)) return 'app store';
  if (/github|gitlab/i.test(line)) return 'code host';
  if (/s3[.:]|amazonaws/i.test(line)) return 'bucket';
  if (/\.\*(?:\/|$)|\.\*\./.test(line)) return 'TLD wildcard';
  if (/[\p{L}\p{N}]\*|\*[\p{L}\p{N}]/u.test(line)) return 'wildcard inside a label';
  if (/[^\p{ASCII}]/u.test(line)) return 'IDN';
  if (/\d+\.\d+\.\d+\.\d+/.test(line)) return 'IP address or range';
  if (/^(?:https?:\/\/)?[^/\s]+\/\S/.test(line)) return 'path';
  if (/^(?:https?:\/\/)?\*\./.test(line)) return 'wildcard';
  return 'host';
}

/**
 * Probes answered otherwise on purpose: the row, what the app says and why.
 * `_mta-sts.cyber.info` is a DNS TXT record name (RFC 8461), no web host a researcher types.
 */
const DECIDED: Record<string, string> = {
  '_mta-sts.cyber.info':
    'a DNS TXT record name (MTA-STS), not a host name: the app reads no target in it',
  'https://_mta-sts.cyber.info':
    'a DNS TXT record name (MTA-STS), not a host name: the app reads no target in it',
};

describe('scope guard on real exclusion lists (probes written per line shape)', () => {
  it('never answers "in scope" for an asset an exclusion names; each is excluded or unsure', () => {
    const byShape = new Map<string, [number, number]>();
    const answers = new Map<string, [number, number]>();
    const inScope: string[] = [];
    const other: string[] = [];
    let probes = 0;
    for (const p of programs) {
      const rules = rulesOf(p);
      for (const e of p.exclusions) {
        for (const asset of e.probes ?? []) {
          probes++;
          const got = matchAsset(rules, asset).status;
          const ok = got === 'excluded' || got === 'unsure';
          count(byShape, shapeOf(e.line), ok);
          count(answers, got, true);
          const say = `${p.platform} "${p.program}" exclusion "${e.line}": ${asset} → ${got}`;
          if (got === 'in-scope') inScope.push(say);
          else if (!ok && !DECIDED[asset]) other.push(say);
        }
      }
    }
    const lines = programs.reduce((n, p) => n + p.exclusions.length, 0);
    console.log(`${programs.length} programs, ${lines} exclusion lines, ${probes} probes`);
    printCounts('excluded or unsure, by shape of the exclusion', byShape);
    printCounts('answers', answers);
    if (inScope.length) console.log(`answered in scope:\n${inScope.join('\n')}`);
    if (other.length) console.log(`neither excluded nor unsure:\n${other.join('\n')}`);
    for (const [asset, why] of Object.entries(DECIDED)) console.log(`decision: ${asset}: ${why}`);
    expect(probes).toBeGreaterThanOrEqual(2000);
    expect(inScope).toEqual([]);
    expect(other).toEqual([]);
  });
});

interface HandLabel {
  row: number;
  program: Program;
  asset: string;
  expected: string;
  why: string;
}

const ANSWERS: Record<string, string> = {
  in: 'in-scope',
  out: 'out-of-scope',
  excluded: 'excluded',
  unsure: 'unsure',
};

const labels: HandLabel[] = readFileSync(join(DIR, 'exclusion-hand-labels.tsv'), 'utf8')
  .split('\n')
  .map((text, i) => ({ text, row: i + 1 }))
  .filter(({ text }) => text.trim() !== '' && !text.startsWith('#'))
  .map(({ text, row }) => {
    const [index = '', asset = '', answer = '', why = ''] = text.split('\t');
    const program = programs[Number(index)];
    const expected = ANSWERS[answer];
    if (!program || !expected || !asset) throw new Error(`exclusion-hand-labels.tsv row ${row}`);
    return { row, program, asset, expected, why };
  });

describe('scope guard against hand labels of whole real policies', () => {
  it('agrees with a careful reader on every hand-labelled asset, by answer', () => {
    const byAnswer = new Map<string, [number, number]>();
    const wrong: string[] = [];
    for (const l of labels) {
      const got = matchAsset(rulesOf(l.program), l.asset);
      count(byAnswer, l.expected, got.status === l.expected);
      if (got.status !== l.expected)
        wrong.push(
          `row ${l.row} ${l.program.program}: ${l.asset} → ${got.status}${'line' in got ? ` ("${got.line}")` : ''}, reader ${l.expected}${l.why ? ` (${l.why})` : ''}`,
        );
    }
    printCounts(
      `hand labels (${labels.length} over ${new Set(labels.map((l) => l.program)).size} programs)`,
      byAnswer,
    );
    if (wrong.length) console.log(wrong.join('\n'));
    expect(labels.length).toBeGreaterThanOrEqual(100);
    expect(wrong).toEqual([]);
  });
});

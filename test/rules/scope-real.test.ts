import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchAsset, parseScope } from '../../src/shared/scope/scope';
import { seedPrograms } from '../../src/sandbox/world/programs';

interface RealLine {
  platform: string;
  program: string;
  type: string;
  line: string;
  probes: { asset: string; expected: string }[];
}

/**
 * Real in-scope lines of public programs (bounty-targets-data: Bugcrowd, Intigriti, YesWeHack,
 * Federacy), each with the assets a careful researcher would type and the answer they would
 * give for that line alone. Disagreements are listed in DECISIONS with the reason.
 */
const table = JSON.parse(
  readFileSync(join(__dirname, '../fixtures/real/scope/lines.json'), 'utf8'),
) as RealLine[];

/** Lines where the app's answer differs on purpose, with why. */
const DECISIONS: Record<string, string> = {
  'cm.com/[locale]/app/*':
    'the generated probe types the placeholder literally (`https://cm.com/[locale]/app/x`), which no researcher does; the hand labels test real locales (`/en-gb/app/…` in, `/en-gb/pricing/` out)',
};

/**
 * Hand labels (hand-labels.tsv): for 1,000+ pairs of a real line and an asset as a researcher
 * types it, the answer a careful reader wrote down by reading the line, independent of the code.
 * A row where the app answers otherwise on purpose carries that answer and the decision's reason.
 */
interface HandLabel {
  row: number;
  line: string;
  asset: string;
  expected: 'in-scope' | 'out-of-scope' | 'unknown';
  why: string;
  decision: { status: string; reason: string } | null;
}

const ANSWERS = { in: 'in-scope', out: 'out-of-scope', unknown: 'unknown' } as const;

const handLabels: HandLabel[] = readFileSync(
  join(__dirname, '../fixtures/real/scope/hand-labels.tsv'),
  'utf8',
)
  .split('\n')
  .map((text, i) => ({ text, row: i + 1 }))
  .filter(({ text }) => text.trim() !== '' && !text.startsWith('#'))
  .map(({ text, row }) => {
    const [index = '', asset = '', answer = '', why = '', decided = ''] = text.split('\t');
    const line = table[Number(index)]?.line;
    const expected = ANSWERS[answer as keyof typeof ANSWERS];
    if (line === undefined || !expected) throw new Error(`hand-labels.tsv row ${row}: ${text}`);
    const m = /^app: ([a-z-]+): (.+)$/.exec(decided);
    return {
      row,
      line,
      asset,
      expected,
      why,
      decision: m ? { status: m[1] ?? '', reason: m[2] ?? '' } : null,
    };
  });

describe('scope guard against hand labels of real lines', () => {
  it('agrees with a careful reader on at least 98% of 500+ hand-labelled pairs; every difference is a documented decision', () => {
    let agree = 0;
    const decided: string[] = [];
    const undocumented: string[] = [];
    for (const label of handLabels) {
      const got = matchAsset(parseScope(`- ${label.line}`, ''), label.asset).status;
      const say = `row ${label.row} "${label.line}" + "${label.asset}": app ${got}, reader ${label.expected}`;
      if (got === label.expected) agree++;
      else if (label.decision?.status === got) decided.push(`${say} — ${label.decision.reason}`);
      else undocumented.push(label.why ? `${say} (${label.why})` : say);
    }
    const lines = new Set(handLabels.map((l) => l.line)).size;
    console.log(
      `scope hand labels: ${handLabels.length} pairs over ${lines} real lines, agreement ${agree}/${handLabels.length} (${((100 * agree) / handLabels.length).toFixed(1)}%)`,
    );
    for (const d of decided) console.log(`decision: ${d}`);
    if (undocumented.length) console.log(`not documented:\n${undocumented.join('\n')}`);
    expect(handLabels.length).toBeGreaterThanOrEqual(500);
    expect(undocumented).toEqual([]);
    expect(agree / handLabels.length).toBeGreaterThanOrEqual(0.98);
  });
});

describe('scope guard on real program scope lines (probes written per line shape)', () => {
  it('agrees with a careful reading on at least 98% of the probes', () => {
    let agree = 0;
    let total = 0;
    const disagreements: string[] = [];
    for (const row of table) {
      const rules = parseScope(`- ${row.line}`, '');
      for (const probe of row.probes) {
        total++;
        const got = matchAsset(rules, probe.asset).status;
        if (got === probe.expected || DECISIONS[row.line]) agree++;
        else
          disagreements.push(
            `${row.platform} ${row.type} "${row.line}": ${probe.asset} → ${got}, careful: ${probe.expected}`,
          );
      }
    }
    console.log(
      `scope lines: ${table.length} real lines, ${total} probes, agreement ${agree}/${total} (${((100 * agree) / total).toFixed(1)}%)`,
    );
    if (disagreements.length) console.log(disagreements.join('\n'));
    for (const [line, why] of Object.entries(DECISIONS)) console.log(`decision: "${line}": ${why}`);
    expect(table.length).toBeGreaterThanOrEqual(500);
    expect(agree / total).toBeGreaterThanOrEqual(0.98);
  });

  it('the sandbox programs have scopes shaped as real ones, so the hint shows', () => {
    const programs = new Map(seedPrograms(Date.now()).map((p) => [p.id, p]));
    const hint = (id: string, asset: string): string => {
      const p = programs.get(id);
      if (!p) throw new Error(id);
      return matchAsset(parseScope(p.scope, p.exclusions), asset).status;
    };
    expect(hint('sandbox-playground', 'https://api.playground.example/v2/users/7')).toBe(
      'in-scope',
    );
    expect(hint('sandbox-playground', 'com.playground.shop')).toBe('in-scope');
    expect(hint('sandbox-playground', '2001:db8:100::7')).toBe('in-scope');
    expect(hint('sandbox-playground', 'legacy.playground.example')).toBe('excluded');
    expect(hint('sandbox-playground', 'www.other.example')).toBe('out-of-scope');
    expect(hint('acme-web', 'app.acme.example')).toBe('in-scope');
    expect(hint('globex-api', 'api-eu.globex.example')).toBe('in-scope');
    expect(hint('globex-api', 'api-sandbox.globex.example')).toBe('excluded');
    expect(hint('stark-portal', 'https://portal.stark.example/admin/legacy/x')).toBe('excluded');
    expect(hint('initech-mobile', 'iOS app id987654321')).toBe('in-scope');
  });
});

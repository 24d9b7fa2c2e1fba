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
    'a path with a placeholder segment is read as the host: the hint quotes the line, so the researcher sees the path rule',
};

describe('scope guard on real program scope lines', () => {
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

/**
 * The real-world samples under test/fixtures/real (see its SOURCES.md): secret scanners' own test
 * fixtures, HAR files and Burp exports. Read here once for every test that measures against them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// `import.meta.url`, not `__dirname`: the benches load test/support as ES modules (tsx).
export const REAL = fileURLToPath(new URL('../fixtures/real', import.meta.url));

export interface ScannerCase {
  /** `secretlint/aws`, `gitleaks/okta`: where the sample comes from. */
  source: string;
  name: string;
  text: string;
  /** true: the scanner's authors call it a secret; false: they call it not one. */
  secret: boolean;
  /** The rule options the scanner's own test ran this fixture with (its `.secretlintrc.json`). */
  rules?: { id: string; options?: Record<string, unknown> }[];
}

const CONFIG = '.secretlintrc.json';

/** secretlint's `ng.*` (secrets) and `ok.*` (not secrets) rule fixtures. */
export function secretlintCases(): ScannerCase[] {
  const root = join(REAL, 'secretlint');
  return readdirSync(root).flatMap((rule) =>
    readdirSync(join(root, rule))
      .filter((name) => /^(ng|ok)\./.test(name) && !name.endsWith(CONFIG))
      .map((name) => {
        const config = join(root, rule, name + CONFIG);
        return {
          source: `secretlint/${rule}`,
          name,
          text: readFileSync(join(root, rule, name), 'utf8'),
          secret: name.startsWith('ng.'),
          ...(existsSync(config)
            ? {
                rules: (JSON.parse(readFileSync(config, 'utf8')) as Pick<ScannerCase, 'rules'>)
                  .rules,
              }
            : {}),
        };
      }),
  );
}

/** The literal true positives of gitleaks' rule tests. */
export function gitleaksCases(): ScannerCase[] {
  const rows = JSON.parse(readFileSync(join(REAL, 'gitleaks', 'true-positives.json'), 'utf8')) as {
    file: string;
    sample: string;
  }[];
  return rows.map((r, i) => ({
    source: `gitleaks/${r.file}`,
    name: `#${i + 1}`,
    text: r.sample,
    secret: true,
  }));
}

export function realFile(...path: string[]): Buffer {
  return readFileSync(join(REAL, ...path));
}

/** Prints a table of found/total per group, the form every corpus test reports in. */
export function printCounts(title: string, counts: Map<string, [number, number]>): void {
  const rows = [...counts].sort(([a], [b]) => a.localeCompare(b));
  const found = rows.reduce((n, [, [f]]) => n + f, 0);
  const total = rows.reduce((n, [, [, t]]) => n + t, 0);
  console.log(
    `${title}: ${found}/${total}\n${rows.map(([k, [f, t]]) => `  ${k}: ${f}/${t}`).join('\n')}`,
  );
}

export function count(counts: Map<string, [number, number]>, key: string, hit: boolean): void {
  const c = counts.get(key) ?? [0, 0];
  counts.set(key, [c[0] + (hit ? 1 : 0), c[1] + 1]);
}

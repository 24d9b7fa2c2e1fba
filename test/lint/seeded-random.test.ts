import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { seededTestFiles } from '../support/seeded-tests';

// Every random value of a test or bench comes from the run's printed seed (test/support/random.ts),
// so a failure replays: `npm run lint` refuses the OS's random sources there. The linter runs
// with the project's own config on probe texts placed where tests and benches live.
const ROOT = join(__dirname, '../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

async function ruleIds(file: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: join(ROOT, file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

const unseeded = [
  "import { randomBytes } from 'node:crypto';\nexport const b = randomBytes(8);\n",
  "import { randomUUID } from 'crypto';\nexport const id = randomUUID();\n",
  "import { randomInt } from 'node:crypto';\nexport const n = randomInt(6);\n",
  'export const x = Math.random();\n',
  'export const id = crypto.randomUUID();\n',
];

describe('random values in tests and benches', () => {
  it.each(['test/engine/zz-probe.test.ts', 'bench/zz-probe.ts'])(
    'come from the seed in %s: the OS random sources are refused',
    async (file) => {
      for (const text of unseeded) {
        const ids = await ruleIds(file, text);
        expect(
          ids.some((id) => id.startsWith('no-restricted-')),
          text,
        ).toBe(true);
      }
    },
  );

  it('may use the seeded helpers and node:crypto hashing', async () => {
    const ids = await ruleIds(
      'test/engine/zz-probe.test.ts',
      "import { createHash } from 'node:crypto';\nimport { randomBytes } from '../support/random';\n" +
        "export const h = createHash('sha256').update(randomBytes(8)).digest('hex');\n",
    );
    expect(ids).toEqual([]);
  });

  it('leave the app itself free to use the OS random source', async () => {
    const ids = await ruleIds(
      'src/engine/zz-probe.ts',
      "import { randomUUID } from 'node:crypto';\nexport const id = randomUUID();\n",
    );
    expect(ids.filter((id) => id.startsWith('no-restricted-'))).toEqual([]);
  });
});

describe('the seed sweep (scripts/seed-sweep.sh)', () => {
  it('runs every test whose inputs follow the seed, found through imports', () => {
    const files = seededTestFiles();
    console.log(`seeded test files: ${files.length}`);
    // fast-check directly; support/random directly; through a helper (sandbox/helpers, store fixtures).
    expect(files).toContain('test/rules/never-throw.property.test.ts');
    expect(files).toContain('test/evidence/secret-scan.test.ts');
    expect(files).toContain('test/conformance/04-reports.test.ts');
    expect(files).toContain('test/store/search.test.ts');
    // This file draws nothing at random.
    expect(files).not.toContain('test/lint/layers.test.ts');
  });
});

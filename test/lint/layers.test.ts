import { join, posix } from 'node:path';
import { ESLint } from 'eslint';
import { filesUnder } from '../support/source-files';
import { beforeAll, describe, expect, it } from 'vitest';
import { LAYERS, layerOf, mayImport } from '../../eslint/layers.js';

// The folders of src/ and their direction, as `npm run lint` enforces them: for every folder,
// an import of a folder above it (one that imports it) fails with the layer rule's message, and
// an import of each folder it may use passes. The linter runs with the project's own config.
const ROOT = join(__dirname, '../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The layer-rule messages `npm run lint` gives a file of `folder` holding `importLine`. */
async function directionErrors(folder: string, target: string): Promise<string[]> {
  const file = `${folder}/zz-layer-probe.ts`;
  let spec = posix.relative(folder, target);
  if (!spec.startsWith('.')) spec = `./${spec}`;
  const [result] = await eslint.lintText(`import { probe } from '${spec}';\nexport { probe };\n`, {
    filePath: join(ROOT, file),
  });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'layers/direction')
    .map((m) => m.message);
}

/** The folders that import `layer` directly: an import of theirs from `layer` points upward. */
function above(folder: string): string[] {
  return LAYERS.filter(
    (l) => l.folder !== folder && l.may.some((m) => folder === m || folder.startsWith(`${m}/`)),
  ).map((l) => l.folder);
}

describe('the layers of src/', () => {
  it('hold every file of src/ in a folder the table names', () => {
    const files = filesUnder('src', /\.(ts|tsx|js|mjs|css|html)$/);
    const outside = files.filter((f) => layerOf(f) === undefined);
    expect(files.length).toBeGreaterThan(300);
    expect(outside).toEqual([]);
  });

  it.each(LAYERS.map((layer) => [layer.folder, layer] as const))(
    '%s: an import of a folder above it fails npm run lint',
    async (folder, layer) => {
      // The top folders have nothing above them: an import sideways stands in for it.
      const targets = above(folder);
      const probes = (targets.length > 0 ? targets : LAYERS.map((l) => l.folder))
        .filter((t) => !mayImport(layer, `${t}/probe.ts`))
        .slice(0, 4);
      expect(probes.length).toBeGreaterThan(0);
      for (const target of probes) {
        const errors = await directionErrors(folder, `${target}/probe`);
        expect(errors, `${folder} → ${target}`).toEqual([
          `${folder} (${layer.says}) may not import ${target}/probe: nothing points upward or sideways (eslint/layers.js).`,
        ]);
      }
      // What it may use passes.
      for (const allowed of layer.may) {
        expect(await directionErrors(folder, `${allowed}/probe`), `${folder} → ${allowed}`).toEqual(
          [],
        );
      }
    },
  );

  it('hold an aliased import (tsconfig.base.json paths) to the same rule', async () => {
    const [result] = await eslint.lintText(
      "import { probe } from '@engine/commands/session';\nexport { probe };\n",
      { filePath: join(ROOT, 'src/shared/rules/zz-layer-probe.ts') },
    );
    expect((result?.messages ?? []).map((m) => m.message)).toEqual([
      'src/shared (the shared definitions) may not import src/engine/commands/session: nothing points upward or sideways (eslint/layers.js).',
    ]);
    const [allowed] = await eslint.lintText(
      "import { probe } from '@shared/rules/cvss';\nexport { probe };\n",
      { filePath: join(ROOT, 'src/engine/domain/zz-layer-probe.ts') },
    );
    expect(allowed?.messages.filter((m) => m.ruleId === 'layers/direction')).toEqual([]);
  });
});

/**
 * `npm run bench` loads each suite under tsx as an ES module, which vitest never does: a module
 * a bench imports that leans on CommonJS (`__dirname`, `require`) typechecks and passes every
 * test, then stops the bench at its first line. Every suite is loaded here as the bench loads it,
 * and every file of the project a bench imports is read for CommonJS globals.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SUITES } from '../../bench/suites';
import { filesUnder } from '../support/source-files';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.base.json'), (path) =>
    ts.sys.readFile(path),
  );
  return ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options;
}

/** The project's own files `entries` load, themselves included (packages are left out). */
function importClosure(entries: readonly string[]): string[] {
  const options = compilerOptions();
  const seen = new Set<string>();
  const queue = [...entries];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const ref of importedFiles) {
      const target = ts.resolveModuleName(ref.fileName, file, options, ts.sys).resolvedModule;
      const path = target?.resolvedFileName;
      if (!path || target.isExternalLibraryImport || path.includes('/node_modules/')) continue;
      if (/\.(ts|tsx|mts|js|mjs)$/u.test(path) && !path.endsWith('.d.ts')) queue.push(path);
    }
  }
  return [...seen].sort();
}

/** The CommonJS globals `source` uses, `name:line` each (a `require` it declares itself is fine). */
function commonJsGlobals(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const declared = new Set<string>();
  const used: { name: string; node: ts.Node }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) declared.add(node.name.text);
    if (ts.isIdentifier(node) && ['__dirname', '__filename', 'require'].includes(node.text)) {
      const parent = node.parent;
      const property = ts.isPropertyAccessExpression(parent) && parent.name === node;
      const key = ts.isPropertyAssignment(parent) && parent.name === node;
      const declaration = ts.isVariableDeclaration(parent) && parent.name === node;
      if (!property && !key && !declaration) used.push({ name: node.text, node });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return used
    .filter((u) => !declared.has(u.name))
    .map(({ name, node }) => {
      const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
      return `${name}:${line}`;
    });
}

describe('the benches as npm run bench loads them', () => {
  it('no file a bench imports uses a CommonJS global', () => {
    const entries = filesUnder('bench', /\.ts$/u).map((f) => join(ROOT, f));
    const closure = importClosure(entries);
    const outside = closure.filter((f) => !f.startsWith(join(ROOT, 'bench')));
    console.log(
      `bench imports: ${closure.length} files of the project (${outside.length} outside bench/)`,
    );
    // The closure reaches test/support, where the corpus loaders are.
    expect(outside.some((f) => f.includes('/test/support/'))).toBe(true);
    const found = closure.flatMap((f) =>
      commonJsGlobals(f, readFileSync(f, 'utf8')).map((hit) => `${relative(ROOT, f)} ${hit}`),
    );
    expect(found).toEqual([]);
  });

  it('the check finds __dirname, __filename and a bare require, not a declared one', () => {
    expect(
      commonJsGlobals(
        'x.ts',
        [
          "const dir = join(__dirname, 'x');",
          'const self = __filename;',
          "const lib = require('lib');",
          'const o = { __dirname: 1 }; o.__dirname;',
        ].join('\n'),
      ),
    ).toEqual(['__dirname:1', '__filename:2', 'require:3']);
    expect(
      commonJsGlobals(
        'y.ts',
        "const require = createRequire(import.meta.url);\nconst lib = require('lib');",
      ),
    ).toEqual([]);
  });

  it('every suite loads as an ES module under tsx (nothing runs: each runs only as a script)', () => {
    const urls = SUITES.map((name) => pathToFileURL(join(ROOT, 'bench', `${name}.ts`)).href);
    const script = `for (const url of ${JSON.stringify(urls)}) await import(url);\nconsole.log('loaded', ${urls.length});`;
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', script],
      { cwd: ROOT, encoding: 'utf8', timeout: 90_000 },
    );
    console.log(`bench suites loaded under tsx: ${SUITES.join(', ')}`);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(`loaded ${SUITES.length}`);
  }, 120_000);
});

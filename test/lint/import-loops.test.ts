import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { filesUnder } from '../support/source-files';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Each file's imports (type-only ones too: a loop of types is still a loop of files) in `files`. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.base.json'), (path) =>
    ts.sys.readFile(path),
  );
  const options = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options;
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((ref) => ts.resolveModuleName(ref.fileName, file, options, ts.sys).resolvedModule)
      .map((resolved) => resolved?.resolvedFileName)
      .filter((target): target is string => target !== undefined && known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected groups of more than one file (Tarjan): each is an import loop. */
function loops(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) visit(next);
      if (onStack.has(next)) low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      group.push(relative(ROOT, member));
      if (member === file) break;
    }
    if (group.length > 1) found.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('the import graph of src/', () => {
  const files = filesUnder('src', /(?<!\.d)\.tsx?$/).map((f) => join(ROOT, f));
  const graph = importGraph(files);

  it('has no loop of files', () => {
    const edges = [...graph.values()].reduce((n, targets) => n + targets.length, 0);
    console.log(`import graph: ${graph.size} files, ${edges} imports between them`);
    expect(loops(graph)).toEqual([]);
  });

  it('the check sees a loop (two files that import each other)', () => {
    const a = join(ROOT, 'src/a.ts');
    const b = join(ROOT, 'src/b.ts');
    expect(
      loops(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([['src/a.ts', 'src/b.ts']]);
  });
});

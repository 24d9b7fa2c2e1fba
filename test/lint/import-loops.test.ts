import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../support/import-graph';
import { filesUnder } from '../support/source-files';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

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
  const graph = new Map([...importGraph(files)].map(([file, { files: to }]) => [file, to]));

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

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';

// No two files of src/ import each other, directly or round a longer loop: a loop means neither
// can be read, tested or moved without the other. Type-only imports count: they tie the files
// the same way for a reader.
const ROOT = join(__dirname, '../..');
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
const CANDIDATES = ['', '.ts', '.tsx', '.js', '.mjs', '/index.ts', '/index.tsx'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The files of src/ that `file` imports. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const base = posix.join(dirname(file), match[1] ?? match[2] ?? '');
    const target = CANDIDATES.map((c) => base + c).find(
      (p) => existsSync(join(ROOT, p)) && !p.endsWith('/'),
    );
    if (target && /\.(ts|tsx|js|mjs)$/.test(target)) found.push(target);
  }
  return found;
}

/** Tarjan's strongly connected components: each loop of files as one group. */
function loops(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const at = (map: Map<string, number>, v: string): number => map.get(v) ?? Infinity;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(at(low, v), at(low, w)));
      } else if (onStack.has(w)) low.set(v, Math.min(at(low, v), at(index, w)));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return groups;
}

describe('the files of src/', () => {
  it('import each other in no loop', () => {
    const files = sourceFiles('src');
    const graph = new Map(files.map((f) => [f, importsOf(f)]));
    const edges = [...graph.values()].reduce((n, targets) => n + targets.length, 0);
    console.log(`import graph: ${files.length} files, ${edges} imports between them`);
    expect(edges).toBeGreaterThan(files.length);
    expect(loops(graph)).toEqual([]);
  });

  it('a loop is found when there is one (the check itself)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(loops(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});

import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importGraph } from './import-graph';
import { filesUnder } from './source-files';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where a test's random values come from: the run's seed through these, and nothing else. */
const SEEDED_MODULE = join(ROOT, 'test/support/random.ts');
const SEEDED_PACKAGE = 'fast-check';

/**
 * The test files whose inputs follow the run's seed: those that reach test/support/random.ts or
 * fast-check through their imports (helpers included). `scripts/seed-sweep.sh` runs them per seed;
 * found from the imports so a new random test joins the sweep without being listed.
 */
export function seededTestFiles(): string[] {
  const files = filesUnder('test', /(?<!\.d)\.tsx?$/).map((f) => join(ROOT, f));
  const graph = importGraph(files);
  const seeded = new Map<string, boolean>();
  const reaches = (file: string, path: Set<string>): boolean => {
    const known = seeded.get(file);
    if (known !== undefined) return known;
    if (file === SEEDED_MODULE) return true;
    const node = graph.get(file);
    if (node === undefined || path.has(file)) return false;
    path.add(file);
    const found =
      node.specifiers.includes(SEEDED_PACKAGE) || node.files.some((to) => reaches(to, path));
    path.delete(file);
    seeded.set(file, found);
    return found;
  };
  return files
    .filter((file) => file.endsWith('.test.ts') && reaches(file, new Set()))
    .map((file) => relative(ROOT, file))
    .sort();
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(seededTestFiles().join('\n'));
}

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// `import.meta.url`, not `__dirname`: the benches load test/support as ES modules (tsx).
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every file under `dir` (relative to the repository) whose name matches, as `dir/…/name`. */
export function filesUnder(dir: string, name: RegExp): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(path, name);
    return name.test(entry.name) ? [path] : [];
  });
}

// @ts-check
/**
 * The import aliases of src/ (`@shared/…`, `@engine/…`), defined once as tsconfig.base.json's
 * `paths` and read from there by every tool that resolves imports: the bundles
 * (electron.vite.config.ts), the tests (vitest.config.ts, the editor harness) and the layer rule.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** `{ '@shared': '<root>/src/shared', … }`: each alias and the folder it stands for. */
export function pathAliases() {
  /** @type {{ compilerOptions: { paths: Record<string, string[]> } }} */
  const config = JSON.parse(readFileSync(resolve(ROOT, 'tsconfig.base.json'), 'utf8'));
  /** @type {Record<string, string>} */
  const aliases = {};
  for (const [pattern, [target]] of Object.entries(config.compilerOptions.paths)) {
    if (!pattern.endsWith('/*') || !target?.endsWith('/*')) continue;
    aliases[pattern.slice(0, -2)] = resolve(ROOT, target.slice(0, -2));
  }
  return aliases;
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One file's imports: what it names (packages included) and which of the known files they are. */
export interface FileImports {
  specifiers: string[];
  files: string[];
}

/**
 * Each file's imports (type-only ones too), resolved the way TypeScript resolves them (aliases
 * of tsconfig.base.json included); `files` keeps only targets among `files` given.
 */
export function importGraph(files: readonly string[]): Map<string, FileImports> {
  const known = new Set(files);
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.base.json'), (path) =>
    ts.sys.readFile(path),
  );
  const options = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options;
  const graph = new Map<string, FileImports>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const specifiers = importedFiles.map((ref) => ref.fileName);
    const targets = specifiers
      .map((name) => ts.resolveModuleName(name, file, options, ts.sys).resolvedModule)
      .map((resolved) => resolved?.resolvedFileName)
      .filter((target): target is string => target !== undefined && known.has(target));
    graph.set(file, { specifiers: [...new Set(specifiers)], files: [...new Set(targets)] });
  }
  return graph;
}

/**
 * `npm run generate:api`: reads `src/shared/api/openapi.yaml` (the source of the API contract) and
 * writes the generated `openapi.json` and `schema.d.ts` next to it.
 *
 * `npm run generate:api -- --check` writes nothing and exits 1 when either generated file is stale.
 * `--dir <folder>` works on another folder holding an `openapi.yaml` (used by the tests).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import type { OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { parse } from 'yaml';

const here = path.dirname(fileURLToPath(import.meta.url));

export const API_DIR = path.resolve(here, '../src/shared/api');

export interface ApiPaths {
  yaml: string;
  json: string;
  dts: string;
}

/** Where the source and the generated files live in a folder. */
export function apiPaths(dir: string = API_DIR): ApiPaths {
  return {
    yaml: path.join(dir, 'openapi.yaml'),
    json: path.join(dir, 'openapi.json'),
    dts: path.join(dir, 'schema.d.ts'),
  };
}

export const { yaml: YAML_PATH, json: JSON_PATH, dts: DTS_PATH } = apiPaths();

export interface GeneratedApi {
  /** The document as 2-space JSON with a trailing newline. */
  json: string;
  /** The TypeScript types (`paths`, `components`, `operations`). */
  dts: string;
}

/** Parses the YAML source of the contract (duplicate keys are an error). */
export function parseApiYaml(yamlText: string): OpenAPI3 {
  const doc: unknown = parse(yamlText, { uniqueKeys: true, merge: false });
  if (typeof doc !== 'object' || doc === null || !('openapi' in doc)) {
    throw new Error('openapi.yaml does not hold an OpenAPI document');
  }
  return doc as OpenAPI3;
}

/**
 * Generates both files in memory from the YAML text (by default the file on disk). Pure apart from
 * reading the YAML, so tests can compare the result with the committed files.
 */
export async function generateApi(yamlText?: string): Promise<GeneratedApi> {
  const source = yamlText ?? (await readFile(YAML_PATH, 'utf8'));
  const doc = parseApiYaml(source);
  const json = `${JSON.stringify(doc, null, 2)}\n`;

  const ast = await openapiTS(structuredClone(doc), {
    silent: true,
    // Properties with a default stay optional in input types (the server fills the default).
    defaultNonNullable: false,
    // Raw file bodies: a Buffer/Uint8Array under Node, a Blob in a browser.
    transform(schemaObject) {
      if ('format' in schemaObject && schemaObject.format === 'binary') {
        return ts.factory.createUnionTypeNode([
          ts.factory.createTypeReferenceNode('Blob'),
          ts.factory.createTypeReferenceNode('Uint8Array'),
        ]);
      }
      return undefined;
    },
  });
  const dts = `${COMMENT_HEADER}${astToString(ast)}`;
  return { json, dts };
}

async function readOrEmpty(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return '';
  }
}

/** Paths of the generated files whose content differs from `generated`. */
export async function staleFiles(
  generated: GeneratedApi,
  paths: ApiPaths = apiPaths(),
): Promise<string[]> {
  const stale: string[] = [];
  if ((await readOrEmpty(paths.json)) !== generated.json) stale.push(paths.json);
  if ((await readOrEmpty(paths.dts)) !== generated.dts) stale.push(paths.dts);
  return stale;
}

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const processIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** The command line: returns the exit code. */
export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  const check = argv.includes('--check');
  const dirIndex = argv.indexOf('--dir');
  const dirArg = dirIndex >= 0 ? argv[dirIndex + 1] : undefined;
  if (dirIndex >= 0 && dirArg === undefined) {
    io.err('generate:api: --dir needs a folder');
    return 2;
  }
  const paths = apiPaths(dirArg === undefined ? API_DIR : path.resolve(dirArg));
  const rel = (file: string) => path.relative(process.cwd(), file);
  const generated = await generateApi(await readFile(paths.yaml, 'utf8'));
  if (check) {
    const stale = await staleFiles(generated, paths);
    if (stale.length > 0) {
      io.err(`generate:api --check: stale generated file(s): ${stale.map(rel).join(', ')}`);
      io.err(`${rel(paths.yaml)} changed without regenerating; run \`npm run generate:api\`.`);
      return 1;
    }
    io.out('generate:api --check: generated files are up to date');
    return 0;
  }
  await writeFile(paths.json, generated.json);
  await writeFile(paths.dts, generated.dts);
  io.out(`generate:api: wrote ${rel(paths.json)} and ${rel(paths.dts)}`);
  return 0;
}

const invokedDirectly =
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  runCli(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `generate:api failed: ${error instanceof Error ? error.stack : String(error)}\n`,
      );
      process.exitCode = 1;
    },
  );
}

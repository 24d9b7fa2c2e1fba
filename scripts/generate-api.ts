/**
 * `npm run generate:api`: reads `src/shared/api/openapi.yaml` (the source of the API contract) and
 * writes the generated `openapi.json` and `schema.d.ts` next to it.
 *
 * `npm run generate:api -- --check` writes nothing and exits 1 when either generated file is stale.
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
export const YAML_PATH = path.join(API_DIR, 'openapi.yaml');
export const JSON_PATH = path.join(API_DIR, 'openapi.json');
export const DTS_PATH = path.join(API_DIR, 'schema.d.ts');

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

/** Names of the generated files whose content differs from `generated`. */
export async function staleFiles(generated: GeneratedApi): Promise<string[]> {
  const stale: string[] = [];
  if ((await readOrEmpty(JSON_PATH)) !== generated.json) stale.push(JSON_PATH);
  if ((await readOrEmpty(DTS_PATH)) !== generated.dts) stale.push(DTS_PATH);
  return stale;
}

async function main(argv: string[]): Promise<number> {
  const check = argv.includes('--check');
  const generated = await generateApi();
  if (check) {
    const stale = await staleFiles(generated);
    if (stale.length > 0) {
      const names = stale.map((f) => path.relative(process.cwd(), f)).join(', ');
      process.stderr.write(
        `generate:api --check: stale generated file(s): ${names}\n` +
          `openapi.yaml changed without regenerating; run \`npm run generate:api\`.\n`,
      );
      return 1;
    }
    process.stdout.write('generate:api --check: generated files are up to date\n');
    return 0;
  }
  await writeFile(JSON_PATH, generated.json);
  await writeFile(DTS_PATH, generated.dts);
  process.stdout.write(
    `generate:api: wrote ${path.relative(process.cwd(), JSON_PATH)} and ${path.relative(process.cwd(), DTS_PATH)}\n`,
  );
  return 0;
}

const invokedDirectly =
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
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

/**
 * Checks response bodies against the published OpenAPI 3.1 contract
 * (`src/shared/api/openapi.json`), so conformance tests never hand-write shape checks.
 *
 * `expectResponseMatches(method, pathTemplate, status, body, headers?)` finds the operation, the
 * response documented for the status (exact code, then `4XX`-style range, then `default`), and
 * validates the body against that response's media-type schema with ajv (JSON Schema 2020-12).
 * It throws a readable error when the status is not documented for the operation, when the body
 * does not match, or when a required response header is missing. The `x-error-codes` lists are
 * not enforced: part 7 of the API document leaves open which other codes a route may return.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type JsonObject = Record<string, unknown>;

export const CONTRACT_FILE = fileURLToPath(
  new URL('../../src/shared/api/openapi.json', import.meta.url),
);

/** The id under which the whole contract is registered with ajv; refs resolve against it. */
const CONTRACT_ID = 'https://contract.local/openapi.json';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

export class ContractMismatchError extends Error {
  override name = 'ContractMismatchError';
}

interface Compiled {
  doc: JsonObject;
  ajv: Ajv2020;
  templates: { template: string; regex: RegExp; params: number }[];
  validators: Map<string, ValidateFunction>;
}

let compiled: Compiled | undefined;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function load(): Compiled {
  if (compiled) return compiled;
  const doc = JSON.parse(readFileSync(CONTRACT_FILE, 'utf8')) as JsonObject;
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateSchema: false,
    logger: false,
  });
  addFormats(ajv);
  // OpenAPI formats that JSON Schema does not define.
  ajv.addFormat('binary', true);
  ajv.addSchema(doc, CONTRACT_ID);
  const paths = isObject(doc.paths) ? doc.paths : {};
  const templates = Object.keys(paths).map((template) => {
    const pattern = template
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    return {
      template,
      regex: new RegExp(`^${pattern}$`),
      params: (template.match(/\{/g) ?? []).length,
    };
  });
  // A literal segment beats a parameter: try templates with fewer parameters first.
  templates.sort((a, b) => a.params - b.params);
  compiled = { doc, ajv, templates, validators: new Map() };
  return compiled;
}

/** The contract as a plain object (parsed once). */
export function contract(): JsonObject {
  return load().doc;
}

/** Follows a local `$ref` (`#/...`) inside the contract; returns the value and its JSON pointer. */
function resolveLocal(value: unknown, pointer: string): { value: unknown; pointer: string } {
  let current = value;
  let currentPointer = pointer;
  for (let hops = 0; hops < 10 && isObject(current) && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new ContractMismatchError(`unsupported $ref ${ref}`);
    currentPointer = ref.slice(1);
    current = currentPointer
      .split('/')
      .slice(1)
      .map(unescapePointer)
      .reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), load().doc);
  }
  return { value: current, pointer: currentPointer };
}

/** The path template of the contract that a concrete path (without query) matches, if any. */
export function matchPathTemplate(path: string): string | undefined {
  const bare = path.split('?')[0] ?? path;
  return load().templates.find((t) => t.regex.test(bare))?.template;
}

/** Statuses documented for an operation, as written in the contract (`200`, `4XX`, `default`). */
export function documentedStatuses(method: string, pathTemplate: string): string[] {
  const { operation } = findOperation(method, pathTemplate);
  return Object.keys(isObject(operation.responses) ? operation.responses : {});
}

function findOperation(
  method: string,
  pathTemplate: string,
): { operation: JsonObject; pointer: string } {
  const doc = load().doc;
  const paths = isObject(doc.paths) ? doc.paths : {};
  const lower = method.toLowerCase();
  if (!(METHODS as readonly string[]).includes(lower)) {
    throw new ContractMismatchError(`unknown HTTP method ${method}`);
  }
  const item = paths[pathTemplate];
  if (!isObject(item)) {
    throw new ContractMismatchError(
      `path ${pathTemplate} is not in the contract (known: ${Object.keys(paths).join(', ')})`,
    );
  }
  const operation = item[lower];
  if (!isObject(operation)) {
    throw new ContractMismatchError(
      `${method.toUpperCase()} ${pathTemplate} is not in the contract`,
    );
  }
  return { operation, pointer: `/paths/${escapePointer(pathTemplate)}/${lower}` };
}

function findResponse(
  method: string,
  pathTemplate: string,
  status: number,
): { response: JsonObject; pointer: string } {
  const { operation, pointer } = findOperation(method, pathTemplate);
  const responses = isObject(operation.responses) ? operation.responses : {};
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
  if (key === undefined) {
    throw new ContractMismatchError(
      `${method.toUpperCase()} ${pathTemplate}: status ${status} is not documented ` +
        `(documented: ${Object.keys(responses).join(', ')})`,
    );
  }
  const resolved = resolveLocal(responses[key], `${pointer}/responses/${escapePointer(key)}`);
  if (!isObject(resolved.value)) {
    throw new ContractMismatchError(`${method} ${pathTemplate} ${key}: response is not an object`);
  }
  return { response: resolved.value, pointer: resolved.pointer };
}

function validatorFor(pointer: string): ValidateFunction {
  const { ajv, validators } = load();
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${CONTRACT_ID}#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

function formatErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) => `  - ${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
    .join('\n');
}

function preview(body: unknown): string {
  if (body instanceof Uint8Array) return `<${body.byteLength} bytes>`;
  const text = JSON.stringify(body);
  if (text === undefined) return String(body);
  return text.length > 1500 ? `${text.slice(0, 1500)}…` : text;
}

function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || /\+json$/.test(mediaType) || mediaType === '*/*';
}

function isEmptyBody(body: unknown): boolean {
  return (
    body === undefined ||
    body === null ||
    body === '' ||
    (body instanceof Uint8Array && body.byteLength === 0)
  );
}

function headerValue(
  headers: Headers | Record<string, string> | undefined,
  name: string,
): string | null | undefined {
  if (headers === undefined) return undefined;
  if (headers instanceof Headers) return headers.get(name);
  const hit = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  return hit === undefined ? null : (headers[hit] ?? null);
}

/**
 * Throws unless `body` (parsed JSON, or raw bytes for a binary response) is what the contract
 * documents for `method pathTemplate` answering `status`. With `headers`, also checks required
 * response headers and the schema of the documented headers that are present.
 */
export function expectResponseMatches(
  method: string,
  pathTemplate: string,
  status: number,
  body: unknown,
  headers?: Headers | Record<string, string>,
): void {
  const where = `${method.toUpperCase()} ${pathTemplate} → ${status}`;
  const { response, pointer } = findResponse(method, pathTemplate, status);
  const problems: string[] = [];

  const content = isObject(response.content) ? response.content : undefined;
  const mediaTypes = content ? Object.keys(content) : [];
  const jsonType = mediaTypes.find(isJsonMediaType);
  if (mediaTypes.length === 0) {
    if (!isEmptyBody(body)) problems.push(`  - a body is not documented, got ${preview(body)}`);
  } else if (jsonType !== undefined) {
    if (body instanceof Uint8Array) {
      problems.push(`  - expected a JSON body (${jsonType}), got ${preview(body)}`);
    } else {
      const validate = validatorFor(`${pointer}/content/${escapePointer(jsonType)}/schema`);
      if (!validate(body)) problems.push(formatErrors(validate.errors));
    }
  } else if (!(body instanceof Uint8Array)) {
    problems.push(`  - expected raw bytes (${mediaTypes.join(', ')}), got ${preview(body)}`);
  }

  if (headers !== undefined && isObject(response.headers)) {
    for (const [name, raw] of Object.entries(response.headers)) {
      const resolved = resolveLocal(raw, `${pointer}/headers/${escapePointer(name)}`);
      const spec = isObject(resolved.value) ? resolved.value : {};
      const value = headerValue(headers, name);
      if (value === null || value === undefined) {
        if (spec.required === true) problems.push(`  - required header ${name} is missing`);
        continue;
      }
      if (isObject(spec.schema)) {
        const validate = validatorFor(`${resolved.pointer}/schema`);
        const schemaType = spec.schema.type;
        const candidate =
          schemaType === 'integer' || schemaType === 'number' ? Number(value) : value;
        if (!validate(candidate)) {
          problems.push(`  - header ${name}: ${value}\n${formatErrors(validate.errors)}`);
        }
      }
    }
  }

  if (problems.length > 0) {
    throw new ContractMismatchError(
      `${where} does not match the contract:\n${problems.join('\n')}\nbody: ${preview(body)}`,
    );
  }
}

/** Throws unless `value` matches `#/components/schemas/<name>` of the contract. */
export function expectSchemaMatches(name: string, value: unknown): void {
  const schemas = load().doc.components;
  if (!isObject(schemas) || !isObject(schemas.schemas) || !(name in schemas.schemas)) {
    throw new ContractMismatchError(`schema ${name} is not in the contract`);
  }
  const validate = validatorFor(`/components/schemas/${escapePointer(name)}`);
  if (!validate(value)) {
    throw new ContractMismatchError(
      `value does not match schema ${name}:\n${formatErrors(validate.errors)}\nvalue: ${preview(value)}`,
    );
  }
}

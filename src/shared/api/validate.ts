/**
 * JSON Schema validation against the contract's `components.schemas` (draft 2020-12, the dialect
 * of OpenAPI 3.1), for the sandbox's request checks and for tests of responses. Kept out of
 * `index.ts` so that importing the types does not pull Ajv into a bundle.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import openapiDocument from './openapi.json';
import type { components } from './schema';

export type SchemaName = keyof components['schemas'];

/** The `$id` under which the document's schemas are registered. */
export const CONTRACT_SCHEMA_ID = 'urn:researcher-api:openapi';

/** The `$ref` of a component schema inside a validator made by {@link createContractAjv}. */
export function schemaRef(name: SchemaName): string {
  return `${CONTRACT_SCHEMA_ID}#/components/schemas/${name}`;
}

/**
 * An Ajv instance (draft 2020-12 with ajv-formats) that knows every component schema; reach one
 * with `ajv.getSchema(schemaRef('ReportInput'))` or `$ref: schemaRef(...)` in your own schema.
 */
export function createContractAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, ...options });
  addFormats(ajv);
  // OpenAPI's raw-bytes marker: bodies with it are never JSON, so there is nothing to check.
  ajv.addFormat('binary', true);
  // The document's top-level keys other than the schemas are not JSON Schema keywords.
  ajv.addKeyword({ keyword: 'components' });
  ajv.addSchema({
    $id: CONTRACT_SCHEMA_ID,
    components: { schemas: openapiDocument.components.schemas },
  });
  return ajv;
}

let shared: Ajv2020 | undefined;
const validators = new Map<SchemaName, ValidateFunction>();

/** A compiled validator of one component schema (cached, no defaults applied, all errors). */
export function schemaValidator(name: SchemaName): ValidateFunction {
  let validate = validators.get(name);
  if (validate === undefined) {
    shared ??= createContractAjv();
    validate = shared.getSchema(schemaRef(name));
    if (validate === undefined) throw new Error(`no schema named ${name} in the contract`);
    validators.set(name, validate);
  }
  return validate;
}

export interface SchemaCheck {
  ok: boolean;
  errors: ErrorObject[];
  /** One line per problem, each starting with the JSON pointer of the field (`/title: ...`). */
  messages: string[];
}

/** Checks a value against a component schema. */
export function checkSchema(name: SchemaName, value: unknown): SchemaCheck {
  const validate = schemaValidator(name);
  const ok = validate(value);
  const errors = ok ? [] : [...(validate.errors ?? [])];
  return { ok, errors, messages: errors.map(describeSchemaError) };
}

/** `"/title: must NOT have more than 180 characters"`; names an unexpected field by its pointer. */
export function describeSchemaError(error: ErrorObject): string {
  let pointer = error.instancePath;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    pointer = `${pointer}/${params.additionalProperty}`;
    return `${pointer}: unexpected field`;
  }
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    pointer = `${pointer}/${params.missingProperty}`;
    return `${pointer}: required`;
  }
  return `${pointer === '' ? '/' : pointer}: ${error.message ?? error.keyword}`;
}

/**
 * Request-body validation against the contract's component schemas (ajv, JSON Schema 2020-12 as
 * OpenAPI 3.1 uses). A failure becomes `422 validation_error` whose detail names the field.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createContractAjv, schemaRef } from '@shared/api/validate';
import type { SchemaName } from '@shared/api/validate';
import { type ApiError, validationError } from './errors';

// One error is enough for the detail; defaults of the contract (cvss_vector '', scope write, ...)
// are filled in while validating.
const ajv = createContractAjv({ allErrors: false, useDefaults: true });

const compiled = new Map<SchemaName, ValidateFunction>();

function validatorOf(schemaName: SchemaName): ValidateFunction {
  let fn = compiled.get(schemaName);
  if (!fn) {
    fn = ajv.getSchema(schemaRef(schemaName));
    if (!fn) throw new Error(`no schema ${schemaName} in the contract`);
    compiled.set(schemaName, fn);
  }
  return fn;
}

/** "title: must be at most 180 characters" from one ajv error. */
export function describeError(error: ErrorObject): { field: string; message: string } {
  const path = error.instancePath.split('/').filter(Boolean).join('.');
  const p = error.params as Record<string, unknown>;
  const join = (name: unknown): string => (path ? `${path}.${String(name)}` : String(name));
  switch (error.keyword) {
    case 'required':
      return { field: join(p.missingProperty), message: 'is required' };
    case 'additionalProperties':
      return { field: join(p.additionalProperty), message: 'is not an accepted field' };
    case 'maxLength':
      return { field: path, message: `must be at most ${String(p.limit)} characters` };
    case 'minLength':
      return { field: path, message: `must be at least ${String(p.limit)} characters` };
    case 'maximum':
      return { field: path, message: `must be at most ${String(p.limit)}` };
    case 'minimum':
      return { field: path, message: `must be at least ${String(p.limit)}` };
    case 'maxItems':
      return { field: path, message: `must have at most ${String(p.limit)} items` };
    case 'type':
      return { field: path, message: `must be ${String(p.type).replace(',', ' or ')}` };
    case 'pattern':
      return {
        field: path,
        message: String(p.pattern).includes('-4[0-9a-fA-F]{3}-')
          ? 'must be a UUIDv4'
          : `must match ${String(p.pattern)}`,
      };
    case 'format':
      return { field: path, message: `must be a valid ${String(p.format)}` };
    case 'enum':
      return {
        field: path,
        message: `must be one of ${(p.allowedValues as unknown[]).map(String).join(', ')}`,
      };
    default:
      return { field: path, message: error.message ?? 'is invalid' };
  }
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: ErrorObject[] };

/** Validates (and fills defaults into) `data`. */
export function check<T>(schemaName: SchemaName, data: unknown): ValidationResult<T> {
  const fn = validatorOf(schemaName);
  if (fn(data)) return { ok: true, value: data as T };
  return { ok: false, errors: fn.errors ?? [] };
}

/** `422 validation_error` naming the field of the first error. */
function rejection(errors: readonly ErrorObject[]): ApiError {
  const first = errors[0];
  if (!first) return validationError('body: is invalid');
  const { field, message } = describeError(first);
  return validationError(`${field || 'body'}: ${message}`);
}

/** Validates or throws `422 validation_error` naming the field. */
export function parseBody<T>(schemaName: SchemaName, data: unknown): T {
  if (data === undefined) throw validationError('body: is required');
  const result = check<T>(schemaName, data);
  if (result.ok) return result.value;
  throw rejection(result.errors);
}

/**
 * A check of a body the contract does not describe (the control routes), with the same Ajv (the
 * contract's schemas reachable by `schemaRef`), defaults and error words; compiled on first use.
 */
export function bodyChecker<T>(schema: object): (data: unknown) => T {
  let fn: ValidateFunction | undefined;
  return (data) => {
    fn ??= ajv.compile(schema);
    if (fn(data)) return data as T;
    throw rejection(fn.errors ?? []);
  };
}

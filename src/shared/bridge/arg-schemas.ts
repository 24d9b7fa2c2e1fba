import { LIMITS } from '../api';

/**
 * The building blocks of the calls' argument schemas (JSON Schema, draft 2020-12). The renderer is
 * untrusted: main checks every argument against these before a call goes on (see calls.ts).
 */

/** A JSON Schema as plain data: the table keeps it, the generator compiles it ahead. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** One argument of a call: its schema, and whether the page may leave it out. */
export interface ArgSpec {
  readonly schema: JsonSchema;
  readonly optional?: true;
}

/** IPC arguments never need more; bounds are generous above the API's limits, so an
 * over-long draft still reaches the engine and gets its own, friendlier message. */
export const MAX = {
  serverUrl: 2048,
  apiKey: 256,
  id: 80,
  search: 500,
  title: LIMITS.titleChars * 4,
  asset: LIMITS.assetChars * 4,
  description: LIMITS.descriptionChars * 4,
  cvssVector: LIMITS.cvssVectorChars * 4,
  messageBody: LIMITS.messageBodyChars * 4,
  custom: LIMITS.descriptionChars * 4,
  url: 4096,
  files: 50,
  filters: 20,
  /** Pasted or dropped HTTP evidence: a file the size of the upload limit. */
  httpEvidence: 10 * 1024 * 1024,
  findingId: 200,
  findings: 1000,
  /** Reports exported at once (the listed ones). */
  exportReports: 10_000,
  templateName: 400,
} as const;

/** An argument the page may leave out (`undefined`). */
export const optional = (spec: ArgSpec): ArgSpec => ({ schema: spec.schema, optional: true });

const arg = (schema: JsonSchema): ArgSpec => ({ schema });

export const str = (maxLength: number, more: JsonSchema = {}): ArgSpec =>
  arg({ type: 'string', maxLength, ...more });
export const nonEmpty = (maxLength: number): ArgSpec => str(maxLength, { minLength: 1 });
export const int = (minimum: number, maximum: number): ArgSpec =>
  arg({ type: 'integer', minimum, maximum });
export const oneOf = (values: readonly string[]): ArgSpec =>
  arg({ type: 'string', enum: [...values] });
export const bool: ArgSpec = arg({ type: 'boolean' });
export const list = (items: ArgSpec, maxItems: number): ArgSpec =>
  arg({ type: 'array', items: items.schema, maxItems });
/** A plain object with exactly these keys (the optional ones may be absent). */
export const object = (
  required: Record<string, ArgSpec>,
  optionalKeys: Record<string, ArgSpec> = {},
): ArgSpec =>
  arg({
    type: 'object',
    properties: Object.fromEntries(
      Object.entries({ ...required, ...optionalKeys }).map(([key, spec]) => [key, spec.schema]),
    ),
    required: Object.keys(required),
    additionalProperties: false,
  });
export const anyOf = (...choices: ArgSpec[]): ArgSpec =>
  arg({ anyOf: choices.map((choice) => choice.schema) });

export const uuid: ArgSpec = arg({ type: 'string', format: 'uuid' });
export const programId = str(MAX.id, { minLength: 1, pattern: LIMITS.programIdPattern });
export const entryId = int(1, Number.MAX_SAFE_INTEGER);

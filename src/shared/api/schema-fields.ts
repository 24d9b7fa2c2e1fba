/**
 * The fields the API document gives an object schema, read from `openapi.json` itself: a copy of
 * a schema's field list in code would drift from the document.
 */
import type { components } from './schema';
import openapiDocument from './openapi.json';

type Schemas = components['schemas'];
type ObjectSchemaName = {
  [N in keyof Schemas]: Schemas[N] extends Record<string, unknown> ? N : never;
}[keyof Schemas];

const fieldsByName = new Map<string, readonly string[]>();

/** The property names of `name` in the document (an object schema without `allOf`). */
export function schemaFields(name: ObjectSchemaName): readonly string[] {
  let fields = fieldsByName.get(name);
  if (fields === undefined) {
    const schemas = openapiDocument.components.schemas as Record<
      string,
      { properties?: Record<string, unknown> }
    >;
    const properties = schemas[name]?.properties;
    if (properties === undefined) throw new Error(`schema ${name} has no properties of its own`);
    fields = Object.keys(properties);
    fieldsByName.set(name, fields);
  }
  return fields;
}

/**
 * Only the fields of schema `name`: a wider object (a `Program` passed as a `ProgramSummary`) must
 * not bring its other keys into what is stored as that schema.
 */
export function pickSchemaFields<N extends ObjectSchemaName>(
  name: N,
  value: Schemas[N],
): Schemas[N] {
  const source = value as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const field of schemaFields(name)) if (field in source) picked[field] = source[field];
  return picked as Schemas[N];
}

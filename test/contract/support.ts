/** Helpers for reading the contract document in tests. */
import { openapiDocument } from '../../src/shared/api';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

// The document is JSON; walk it without fighting its inferred literal type.
type Json = Record<string, unknown>;
export const doc = openapiDocument as unknown as Json;

/** Follows a local `$ref` (`#/components/...`) once or repeatedly. */
export function deref(node: unknown): Json {
  let current = node as Json;
  while (typeof current.$ref === 'string') {
    const pointer = current.$ref.replace(/^#\//, '').split('/');
    let target: unknown = doc;
    for (const key of pointer) target = (target as Json)[key];
    if (target === undefined) throw new Error(`dangling $ref ${String(current.$ref)}`);
    current = target as Json;
  }
  return current;
}

export interface OperationEntry {
  method: string;
  path: string;
  operation: Json;
  pathItem: Json;
}

export function operations(): OperationEntry[] {
  const out: OperationEntry[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Json | undefined;
      if (operation !== undefined) out.push({ method, path, operation, pathItem: item });
    }
  }
  return out;
}

export function operation(method: string, path: string): Json {
  const found = operations().find((o) => o.method === method && o.path === path);
  if (found === undefined) throw new Error(`no ${method.toUpperCase()} ${path}`);
  return found.operation;
}

/** Path-level and operation-level parameters, dereferenced. */
export function parameters(method: string, path: string): Json[] {
  const item = (doc.paths as Record<string, Json>)[path] as Json;
  const op = operation(method, path);
  return [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map(
    deref,
  );
}

export function response(method: string, path: string, status: number | string): Json | undefined {
  const responses = operation(method, path).responses as Record<string, unknown>;
  const r = responses[String(status)];
  return r === undefined ? undefined : deref(r);
}

/** The `code` values a route's response documents in `x-error-codes`. */
export function errorCodes(method: string, path: string, status: number): string[] {
  const r = response(method, path, status);
  return (r?.['x-error-codes'] as string[] | undefined) ?? [];
}

import type { ErrorObject, ValidateFunction } from 'ajv';
import { CALLS, type BridgeCallName, type BridgeCalls } from '@shared/bridge/contract';
import type { ArgSpec, JsonSchema } from '@shared/bridge/arg-schemas';
import { BridgeInputError } from './errors';
import * as generated from './generated/bridge-validators.js';

/**
 * The renderer is untrusted: every argument of every bridge call is checked here, before it
 * reaches the engine, against its JSON Schema in the bridge's table (src/shared/bridge/calls.ts).
 * Only a plain object's own, declared keys pass; nothing is coerced or filled in. The schemas are
 * compiled ahead into plain functions (scripts/generate-bridge-validators.ts): no call compiles
 * one at run time.
 */

const compiled: Readonly<Record<string, ValidateFunction>> = generated;

type ArgsOf<K extends BridgeCallName> = Parameters<BridgeCalls[K]>;

/**
 * Throws a BridgeInputError unless `args` are exactly what the contract declares for `name`:
 * the right number, each of the right shape. The error names the field at fault.
 */
export function validateArgs<K extends BridgeCallName>(
  name: K,
  args: readonly unknown[],
): ArgsOf<K> {
  const specs: readonly ArgSpec[] | undefined = Object.hasOwn(CALLS, name)
    ? CALLS[name].args
    : undefined;
  if (!specs) throw new BridgeInputError(`Unknown call ${String(name)}`);
  if (args.length > specs.length) {
    throw new BridgeInputError(`${name}: expects ${specs.length} argument(s)`);
  }
  specs.forEach((spec, i) => {
    const value = args[i];
    if (value === undefined && spec.optional) return;
    const validate = compiled[`${name}_${i}`];
    if (!validate)
      throw new Error(
        `No validator for ${name} argument ${i + 1}: run \`npm run generate:bridge\``,
      );
    if (validate(value)) return;
    const { path, problem } = describe(validate.errors?.[0]);
    const field = path.find((part) => !/^\d+$/.test(part));
    const where = path.length > 0 ? `${path.map(label).join(': ')}: ` : '';
    throw new BridgeInputError(`${name} argument ${i + 1}: ${where}${problem}`, field);
  });
  return args as ArgsOf<K>;
}

const label = (part: string): string => (/^\d+$/.test(part) ? `[${part}]` : part);

/** Ajv's first error as the path to the value at fault and a short sentence. */
function describe(error: ErrorObject | undefined): { path: string[]; problem: string } {
  if (!error) return { path: [], problem: 'is not valid' };
  const path = error.instancePath.split('/').slice(1);
  const schema = (error.parentSchema ?? {}) as JsonSchema;
  const params = error.params as Record<string, unknown>;
  if (schema['format'] === 'uuid') return { path, problem: 'must be a UUID' };
  switch (error.keyword) {
    case 'required':
      return { path: [...path, String(params['missingProperty'])], problem: 'is missing' };
    case 'additionalProperties':
      return {
        path: [...path, String(params['additionalProperty'])],
        problem: 'is not expected',
      };
    case 'type':
      return { path, problem: typeProblem(String(params['type'])) };
    case 'maxLength':
      return { path, problem: `must be at most ${String(params['limit'])} characters` };
    case 'minLength':
      return { path, problem: 'must not be empty' };
    case 'maxItems':
      return { path, problem: `must have at most ${String(params['limit'])} items` };
    case 'enum':
      return { path, problem: `must be one of ${(schema['enum'] as string[]).join(', ')}` };
    case 'minimum':
    case 'maximum':
      return {
        path,
        problem: `must be a whole number from ${String(schema['minimum'])} to ${String(schema['maximum'])}`,
      };
    case 'pattern':
      return { path, problem: 'has the wrong format' };
    case 'anyOf':
      return { path, problem: "must be 'ours', 'theirs' or { custom: text }" };
    default:
      return { path, problem: error.message ?? 'is not valid' };
  }
}

function typeProblem(type: string): string {
  if (type === 'object') return 'must be an object';
  if (type === 'array') return 'must be a list';
  if (type === 'integer') return 'must be a whole number';
  return `must be a ${type}`;
}

import Ajv2020, {
  type ErrorObject,
  type SchemaObject,
  type ValidateFunction,
} from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  ASSET_TYPES,
  INTAKE_VALUES,
  LIMITS,
  REPORT_STATUSES,
  REWARD_BANDS,
  UPDATED_FILTERS,
} from '../shared/api';
import type { BridgeCallName, BridgeCalls } from '../shared/bridge/contract';
import { REPORT_SORTS } from '../shared/bridge/views';
import { BridgeInputError } from './errors';

/**
 * The renderer is untrusted: every argument of every bridge call is checked here, before it
 * reaches the engine, against a JSON Schema per argument (Ajv, draft 2020-12). Only a plain
 * object's own, declared keys pass; nothing is coerced or filled in.
 */

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
  /** issue 25: reports exported at once (a selection of the list). */
  exportReports: 10_000,
  templateName: 400,
} as const;

interface Arg {
  schema: SchemaObject;
  optional?: boolean;
}

const arg = (schema: SchemaObject): Arg => ({ schema });
const optionalArg = (schema: SchemaObject): Arg => ({ schema, optional: true });

const str = (maxLength: number, more: SchemaObject = {}): SchemaObject => ({
  type: 'string',
  maxLength,
  ...more,
});
const nonEmpty = (maxLength: number): SchemaObject => str(maxLength, { minLength: 1 });
const int = (minimum: number, maximum: number): SchemaObject => ({
  type: 'integer',
  minimum,
  maximum,
});
const oneOf = (values: readonly string[]): SchemaObject => ({ type: 'string', enum: [...values] });
const list = (items: SchemaObject, maxItems: number): SchemaObject => ({
  type: 'array',
  items,
  maxItems,
});
/** A plain object with exactly these keys (the optional ones may be absent). */
const object = (
  required: Record<string, SchemaObject>,
  optional: Record<string, SchemaObject> = {},
): SchemaObject => ({
  type: 'object',
  properties: { ...required, ...optional },
  required: Object.keys(required),
  additionalProperties: false,
});

const uuid: SchemaObject = { type: 'string', format: 'uuid' };
const programId = str(MAX.id, { minLength: 1, pattern: LIMITS.programIdPattern });
const entryId = int(1, Number.MAX_SAFE_INTEGER);
const choice: SchemaObject = {
  anyOf: [oneOf(['ours', 'theirs']), object({ custom: str(MAX.custom) })],
};
const draftContent = object({
  title: str(MAX.title),
  asset: str(MAX.asset),
  description: str(MAX.description),
  cvss_vector: str(MAX.cvssVector),
});

/** One line per bridge call: the schema of each argument, in order. */
export const BRIDGE_ARGS: { readonly [K in BridgeCallName]: readonly Arg[] } = {
  getAccount: [],
  connectSandbox: [],
  connect: [arg(object({ serverUrl: nonEmpty(MAX.serverUrl), apiKey: nonEmpty(MAX.apiKey) }))],
  signOut: [],
  startFresh: [],
  getStatus: [],
  syncNow: [],
  resyncEverything: [],
  listPrograms: [
    arg(
      object(
        {},
        {
          search: str(MAX.search),
          asset: list(oneOf(ASSET_TYPES), MAX.filters),
          reward: list(oneOf(REWARD_BANDS), MAX.filters),
          updated: oneOf(UPDATED_FILTERS),
          intake: list(oneOf(INTAKE_VALUES), MAX.filters),
          page: int(1, 1_000_000),
          limit: int(LIMITS.programsPage.min, LIMITS.programsPage.max),
        },
      ),
    ),
  ],
  getProgram: [arg(programId)],
  listReports: [
    arg(
      object(
        {},
        {
          status: list(oneOf(REPORT_STATUSES), MAX.filters),
          program: programId,
          search: str(MAX.search),
          sort: oneOf(REPORT_SORTS),
          offset: int(0, 100_000_000),
          limit: int(1, 1000),
        },
      ),
    ),
  ],
  getReport: [arg(uuid)],
  createDraft: [arg(programId)],
  saveDraft: [arg(uuid), arg(draftContent), optionalArg(draftContent)],
  resolveConflicts: [
    arg(uuid),
    arg(object({}, { title: choice, asset: choice, description: choice, cvss_vector: choice })),
  ],
  attachFiles: [
    arg(uuid),
    arg(list(object({ file: uuid }, { insertAt: int(0, MAX.description) }), MAX.files)),
  ],
  removeFile: [arg(uuid), arg(uuid)],
  getChecklist: [arg(uuid)],
  submit: [arg(uuid)],
  withdraw: [arg(uuid)],
  postMessage: [
    arg(uuid),
    arg(object({ body: str(MAX.messageBody), files: list(uuid, MAX.files) })),
  ],
  markThreadRead: [arg(uuid)],
  downloadFile: [arg(uuid), arg(uuid)],
  pickFiles: [],
  retryEntry: [arg(entryId)],
  discardEntry: [arg(entryId)],
  refreshPayments: [],
  sendVerificationEmail: [],
  openExternal: [arg(nonEmpty(MAX.url))],
  openWebsite: [arg(oneOf(['sign-up', 'verify-email', 'payment-onboarding', 'api-keys']))],
  scanEvidence: [arg(uuid)],
  redactFindings: [arg(uuid), arg(list(nonEmpty(MAX.findingId), MAX.findings))],
  keepFinding: [arg(uuid), arg(nonEmpty(MAX.findingId)), arg({ type: 'boolean' })],
  importHttpEvidence: [
    arg(uuid),
    arg(
      object(
        { text: str(MAX.httpEvidence) },
        { name: str(255), insertAt: int(0, MAX.description) },
      ),
    ),
  ],
  getEvidenceImage: [arg(uuid), arg(uuid)],
  findSimilarReports: [arg(uuid)],
  listPayouts: [],
  exportPayouts: [],
  // issue 25
  exportReports: [arg({ ...list(uuid, MAX.exportReports), minItems: 1 })],
  // One of the two keys; main says so when both or neither come.
  importReports: [
    arg(object({}, { pick: oneOf(['files', 'folder']), files: list(uuid, MAX.files) })),
  ],
  listTemplates: [],
  saveTemplate: [
    arg(
      object(
        { name: str(MAX.templateName), body: str(MAX.description) },
        { id: uuid, fromReportId: uuid },
      ),
    ),
  ],
  deleteTemplate: [arg(uuid)],
  exportTemplates: [],
  importTemplates: [
    arg(object({}, { pick: oneOf(['files', 'folder']), files: list(uuid, MAX.files) })),
  ],
  startFromTemplate: [
    arg(programId),
    arg(uuid),
    arg(object({ title: str(MAX.title), asset: str(MAX.asset) })),
  ],
};

// `ownProperties`: a key inherited from Object.prototype (`constructor`, `toString`…) is never
// taken for a declared one. `verbose` gives each error its schema, for the messages below.
const ajv = new Ajv2020({ strict: true, ownProperties: true, verbose: true, allErrors: false });
addFormats(ajv, ['uuid']);

const compiled = new Map<BridgeCallName, ValidateFunction[]>();

function validatorsOf(name: BridgeCallName): ValidateFunction[] {
  let validators = compiled.get(name);
  if (!validators) {
    validators = BRIDGE_ARGS[name].map((a) => ajv.compile(a.schema));
    compiled.set(name, validators);
  }
  return validators;
}

type ArgsOf<K extends BridgeCallName> = Parameters<BridgeCalls[K]>;

/**
 * Throws a BridgeInputError unless `args` are exactly what the contract declares for `name`:
 * the right number, each of the right shape. The error names the field at fault.
 */
export function validateArgs<K extends BridgeCallName>(
  name: K,
  args: readonly unknown[],
): ArgsOf<K> {
  const specs: readonly Arg[] | undefined = Object.hasOwn(BRIDGE_ARGS, name)
    ? BRIDGE_ARGS[name]
    : undefined;
  if (!specs) throw new BridgeInputError(`Unknown call ${String(name)}`);
  if (args.length > specs.length) {
    throw new BridgeInputError(`${name}: expects ${specs.length} argument(s)`);
  }
  const validators = validatorsOf(name);
  specs.forEach((spec, i) => {
    const value = args[i];
    if (value === undefined && spec.optional) return;
    const validate = validators[i];
    if (!validate || validate(value)) return;
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
  const schema = (error.parentSchema ?? {}) as SchemaObject;
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

import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import {
  ASSET_TYPES,
  INTAKE_VALUES,
  LIMITS,
  REPORT_STATUSES,
  REWARD_BANDS,
  UPDATED_FILTERS,
} from '../shared/api';
import type { BridgeCallName, BridgeCalls } from '../shared/bridge/contract';
import { BridgeInputError } from './errors';

/**
 * The renderer is untrusted: every argument of every bridge call is checked here, before it
 * reaches the engine. One declarative line per call (`BRIDGE_ARGS`), built from a few checks.
 * A check answers null when the value is fine, else what is wrong with it.
 */
export interface Check<T> {
  (value: unknown): string | null;
  /** Phantom: the type this check admits, so `BRIDGE_ARGS` is typed against the contract. */
  readonly admits?: T;
}

type Admitted<C> = C extends Check<infer T> ? T : never;
type Shape = Record<string, Check<unknown>>;

const check = <T>(fn: (value: unknown) => string | null): Check<T> => fn;

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
  path: 4096,
  url: 4096,
  files: 50,
  filters: 20,
} as const;

export function str(max: number, options: { min?: number; pattern?: RegExp } = {}): Check<string> {
  const min = options.min ?? 0;
  return check((v) => {
    if (typeof v !== 'string') return 'must be a string';
    if (v.length < min)
      return min === 1 ? 'must not be empty' : `must be at least ${min} characters`;
    if (v.length > max) return `must be at most ${max} characters`;
    if (options.pattern && !options.pattern.test(v)) return 'has the wrong format';
    return null;
  });
}

export function int(min: number, max: number): Check<number> {
  return check((v) =>
    typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max
      ? null
      : `must be a whole number from ${min} to ${max}`,
  );
}

export function oneOf<const T extends readonly string[]>(values: T): Check<T[number]> {
  const allowed = new Set<unknown>(values);
  return check((v) => (allowed.has(v) ? null : `must be one of ${values.join(', ')}`));
}

export function arrayOf<T>(item: Check<T>, maxItems: number): Check<T[]> {
  return check((v) => {
    if (!Array.isArray(v)) return 'must be a list';
    if (v.length > maxItems) return `must have at most ${maxItems} items`;
    for (const [i, element] of v.entries()) {
      const problem = item(element);
      if (problem) return `[${i}] ${problem}`;
    }
    return null;
  });
}

/** A plain object with exactly these keys (optional ones may be absent); no other key. */
export function object<R extends Shape, O extends Shape = Record<never, never>>(
  required: R,
  optional?: O,
): Check<{ [K in keyof R]: Admitted<R[K]> } & { [K in keyof O]?: Admitted<O[K]> }> {
  return check((v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'must be an object';
    if (Object.getPrototypeOf(v) !== Object.prototype) return 'must be a plain object';
    const record = v as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (!(key in required) && !(optional && key in optional)) return `${key}: is not expected`;
    }
    for (const [key, inner] of Object.entries(required)) {
      const problem = inner(record[key]);
      if (problem) return `${key}: ${problem}`;
    }
    for (const [key, inner] of Object.entries(optional ?? {})) {
      if (record[key] === undefined) continue;
      const problem = inner(record[key]);
      if (problem) return `${key}: ${problem}`;
    }
    return null;
  });
}

/** An argument that may be left out. */
export function optional<T>(inner: Check<T>): Check<T | undefined> {
  return check((v) => (v === undefined ? null : inner(v)));
}

export function either<A, B>(a: Check<A>, b: Check<B>): Check<A | B> {
  return check((v) => {
    const first = a(v);
    if (!first) return null;
    const second = b(v);
    return second ? `${first}, or ${second}` : null;
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const uuid: Check<string> = check((v) =>
  typeof v === 'string' && UUID.test(v) ? null : 'must be a UUID',
);

/** An absolute path to an existing regular file (evidence to upload). */
export const existingFile: Check<string> = check((v) => {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX.path) return 'must be a file path';
  if (v.includes('\0')) return 'must be a file path';
  if (!isAbsolute(v)) return 'must be an absolute path';
  try {
    if (!statSync(v).isFile()) return 'is not a file';
  } catch {
    return 'does not exist';
  }
  return null;
});

const programId = str(80, { min: 1, pattern: new RegExp(LIMITS.programIdPattern) });
const entryId = int(1, Number.MAX_SAFE_INTEGER);
const choice = either(oneOf(['ours', 'theirs'] as const), object({ custom: str(MAX.custom) }));
const draftContent = object({
  title: str(MAX.title),
  asset: str(MAX.asset),
  description: str(MAX.description),
  cvss_vector: str(MAX.cvssVector),
});

type ArgsOf<K extends BridgeCallName> = Parameters<BridgeCalls[K]>;
type ChecksFor<P extends unknown[]> = { readonly [I in keyof P]: Check<P[I]> };

/** One line per bridge call: the check of each argument, in order. */
export const BRIDGE_ARGS = {
  getAccount: [],
  connectSandbox: [],
  connect: [
    object({ serverUrl: str(MAX.serverUrl, { min: 1 }), apiKey: str(MAX.apiKey, { min: 1 }) }),
  ],
  signOut: [],
  getStatus: [],
  syncNow: [],
  listPrograms: [
    object(
      {},
      {
        asset: arrayOf(oneOf(ASSET_TYPES), MAX.filters),
        reward: arrayOf(oneOf(REWARD_BANDS), MAX.filters),
        updated: oneOf(UPDATED_FILTERS),
        intake: arrayOf(oneOf(INTAKE_VALUES), MAX.filters),
        page: int(1, 1_000_000),
        limit: int(LIMITS.programsPage.min, LIMITS.programsPage.max),
      },
    ),
  ],
  getProgram: [programId],
  listReports: [
    object(
      {},
      {
        status: arrayOf(oneOf(REPORT_STATUSES), MAX.filters),
        search: str(MAX.search),
        offset: int(0, 100_000_000),
        limit: int(1, 1000),
      },
    ),
  ],
  getReport: [uuid],
  createDraft: [programId],
  saveDraft: [uuid, draftContent, optional(draftContent)],
  resolveConflicts: [
    uuid,
    object({}, { title: choice, asset: choice, description: choice, cvss_vector: choice }),
  ],
  attachFiles: [
    uuid,
    arrayOf(object({ path: existingFile }, { insertAt: int(0, MAX.description) }), MAX.files),
  ],
  removeFile: [uuid, uuid],
  getChecklist: [uuid],
  submit: [uuid],
  withdraw: [uuid],
  postMessage: [
    uuid,
    object({ body: str(MAX.messageBody), filePaths: arrayOf(existingFile, MAX.files) }),
  ],
  markThreadRead: [uuid],
  downloadFile: [uuid, uuid],
  retryEntry: [entryId],
  discardEntry: [entryId],
  refreshPayments: [],
  sendVerificationEmail: [],
  openExternal: [str(MAX.url, { min: 1 })],
  openWebsite: [oneOf(['sign-up', 'verify-email', 'payment-onboarding', 'api-keys'] as const)],
} as const satisfies { [K in BridgeCallName]: ChecksFor<ArgsOf<K>> };

/**
 * Throws a BridgeInputError unless `args` are exactly what the contract declares for `name`:
 * the right number, each of the right shape.
 */
export function validateArgs<K extends BridgeCallName>(
  name: K,
  args: readonly unknown[],
): ArgsOf<K> {
  const checks: readonly Check<unknown>[] = BRIDGE_ARGS[name];
  if (!checks) throw new BridgeInputError(`Unknown call ${String(name)}`);
  if (args.length > checks.length) {
    throw new BridgeInputError(`${name}: expects ${checks.length} argument(s)`);
  }
  checks.forEach((inner, i) => {
    const problem = inner(args[i]);
    if (problem)
      throw new BridgeInputError(`${name} argument ${i + 1}: ${problem}`, problemField(problem));
  });
  return args as ArgsOf<K>;
}

/** `title: must be…` → `title`: the renderer shows a field's error next to that field. */
function problemField(problem: string): string | undefined {
  return /^([A-Za-z_]\w*): /.exec(problem)?.[1];
}

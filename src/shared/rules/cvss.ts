/**
 * CVSS 3.1 base vectors: strict parsing, validation and the base score.
 *
 * What the API accepts for `cvss_vector` (client and sandbox apply the same rule):
 * - the empty string (the field is optional; `isValidCvss31Vector('')` is still false, callers
 *   decide whether empty is allowed, see `validate.ts`);
 * - otherwise a CVSS 3.1 **base** vector: the prefix `CVSS:3.1/` followed by the eight base
 *   metrics AV, AC, PR, UI, S, C, I, A, each exactly once, each with a value from Table 15 of the
 *   FIRST CVSS v3.1 specification, separated by `/`.
 *
 * Choices, from section 6 ("Vector String") of the FIRST CVSS v3.1 specification:
 * - Order: "Programs reading CVSS v3.1 vector strings must accept metrics in any order", so any
 *   order of the eight metrics is accepted. `CvssResult.vector` gives the preferred (Table 15)
 *   order, which is what a client should write back.
 * - Repeats: "A vector string must not include the same metric more than once" → invalid.
 * - Temporal and environmental metrics (E, RL, RC, CR, IR, AR, M*): the specification allows them
 *   in a full vector, but the API asks for a *base* vector, so they are rejected here with an error
 *   that names them ("temporal/environmental metric E is not allowed in a base vector"). Being
 *   strict on the client is the safe side: a vector the client accepts must never be refused by the
 *   server.
 * - Case and spacing: metric names and values are the upper-case abbreviations of the
 *   specification; no whitespace, no empty segments, no trailing `/`.
 * - Version: only `CVSS:3.1/` (a 3.0 vector scores differently for some combinations).
 *
 * Scoring uses the `ae-cvss-calculator` library (its `Cvss3P1` class). Its results were checked
 * against every combination of base values with the formula of section 7.1 and the Roundup of
 * Appendix A (see test/rules/cvss.test.ts), and against the FIRST v3.1 examples document.
 */
import * as cvssLibrary from 'ae-cvss-calculator';
import { cvssSeverity, type CvssSeverity } from './cvss-severity';

export { cvssSeverity, type CvssSeverity } from './cvss-severity';

export type CvssMetric = 'AV' | 'AC' | 'PR' | 'UI' | 'S' | 'C' | 'I' | 'A';

export type CvssResult =
  | {
      ok: true;
      /** The vector in the preferred order of the specification. */
      vector: string;
      metrics: Record<CvssMetric, string>;
      baseScore: number;
      severity: CvssSeverity;
    }
  | { ok: false; error: string };

export const CVSS31_PREFIX = 'CVSS:3.1/';

/** Base metrics in the specification's preferred order, with their allowed values. */
export const CVSS31_BASE_METRICS: readonly {
  metric: CvssMetric;
  name: string;
  values: readonly string[];
}[] = [
  { metric: 'AV', name: 'Attack Vector', values: ['N', 'A', 'L', 'P'] },
  { metric: 'AC', name: 'Attack Complexity', values: ['L', 'H'] },
  { metric: 'PR', name: 'Privileges Required', values: ['N', 'L', 'H'] },
  { metric: 'UI', name: 'User Interaction', values: ['N', 'R'] },
  { metric: 'S', name: 'Scope', values: ['U', 'C'] },
  { metric: 'C', name: 'Confidentiality', values: ['H', 'L', 'N'] },
  { metric: 'I', name: 'Integrity', values: ['H', 'L', 'N'] },
  { metric: 'A', name: 'Availability', values: ['H', 'L', 'N'] },
];

const NON_BASE_METRICS = new Set([
  'E',
  'RL',
  'RC',
  'CR',
  'IR',
  'AR',
  'MAV',
  'MAC',
  'MPR',
  'MUI',
  'MS',
  'MC',
  'MI',
  'MA',
]);

const BASE_BY_NAME = new Map(CVSS31_BASE_METRICS.map((m) => [m.metric as string, m]));

type Lib = typeof cvssLibrary;
// The library ships a UMD bundle: bundlers expose its classes as named exports, plain Node ESM
// only as properties of the default export. Accept both.
const lib: Lib = (cvssLibrary as unknown as { default?: Lib }).default ?? cvssLibrary;

export function parseCvss31(vector: string): CvssResult {
  if (typeof vector !== 'string' || vector.length === 0) {
    return { ok: false, error: 'empty vector' };
  }
  if (!vector.startsWith(CVSS31_PREFIX)) {
    if (/^CVSS:\d/.test(vector)) {
      return { ok: false, error: `unsupported version: expected prefix ${CVSS31_PREFIX}` };
    }
    return { ok: false, error: `missing prefix ${CVSS31_PREFIX}` };
  }
  const body = vector.slice(CVSS31_PREFIX.length);
  const found = new Map<string, string>();
  for (const part of body.split('/')) {
    if (part.length === 0) {
      return { ok: false, error: 'empty metric (stray "/")' };
    }
    const colon = part.indexOf(':');
    if (colon <= 0 || colon !== part.lastIndexOf(':')) {
      return { ok: false, error: `malformed metric "${part}": expected NAME:VALUE` };
    }
    const name = part.slice(0, colon);
    const value = part.slice(colon + 1);
    const def = BASE_BY_NAME.get(name);
    if (!def) {
      if (NON_BASE_METRICS.has(name)) {
        return {
          ok: false,
          error: `temporal/environmental metric ${name} is not allowed in a base vector`,
        };
      }
      return { ok: false, error: `unknown metric ${name}` };
    }
    if (found.has(name)) {
      return { ok: false, error: `metric ${name} appears more than once` };
    }
    if (!def.values.includes(value)) {
      return {
        ok: false,
        error: `unknown value ${value === '' ? '(empty)' : value} for ${name} (allowed: ${def.values.join(', ')})`,
      };
    }
    found.set(name, value);
  }
  for (const def of CVSS31_BASE_METRICS) {
    if (!found.has(def.metric)) return { ok: false, error: `missing metric ${def.metric}` };
  }
  const metrics = Object.fromEntries(
    CVSS31_BASE_METRICS.map((d) => [d.metric, found.get(d.metric) as string]),
  ) as Record<CvssMetric, string>;
  const canonical =
    CVSS31_PREFIX + CVSS31_BASE_METRICS.map((d) => `${d.metric}:${metrics[d.metric]}`).join('/');
  const baseScore = scoreCanonical(canonical);
  return { ok: true, vector: canonical, metrics, baseScore, severity: cvssSeverity(baseScore) };
}

export function isValidCvss31Vector(v: string): boolean {
  return parseCvss31(v).ok;
}

function scoreCanonical(canonical: string): number {
  const scores = new lib.Cvss3P1(canonical).calculateScores();
  const base = scores.base;
  if (typeof base !== 'number' || !Number.isFinite(base)) {
    throw new Error(`CVSS library returned no base score for ${canonical}`);
  }
  // One decimal place, as the specification publishes scores.
  return Math.round(base * 10) / 10;
}

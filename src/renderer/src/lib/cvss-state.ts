/**
 * State of the interactive CVSS 3.1 calculator: metric choices ⇄ vector string, and the score.
 * Pure; scoring and validation come from the shared rules (the same the server applies).
 */
import {
  CVSS31_BASE_METRICS,
  CVSS31_PREFIX,
  parseCvss31,
  type CvssMetric,
  type CvssSeverity,
} from '@shared/rules/cvss';

export type CvssChoices = Partial<Record<CvssMetric, string>>;

export const CVSS_VALUE_LABELS: Record<CvssMetric, Record<string, string>> = {
  AV: { N: 'Network', A: 'Adjacent', L: 'Local', P: 'Physical' },
  AC: { L: 'Low', H: 'High' },
  PR: { N: 'None', L: 'Low', H: 'High' },
  UI: { N: 'None', R: 'Required' },
  S: { U: 'Unchanged', C: 'Changed' },
  C: { H: 'High', L: 'Low', N: 'None' },
  I: { H: 'High', L: 'Low', N: 'None' },
  A: { H: 'High', L: 'Low', N: 'None' },
};

/** The choices a vector makes; lenient, so a half-typed vector still fills what it can. */
export function choicesFromVector(vector: string): CvssChoices {
  const choices: CvssChoices = {};
  const body = vector.trim().startsWith(CVSS31_PREFIX)
    ? vector.trim().slice(CVSS31_PREFIX.length)
    : vector.trim();
  for (const part of body.split('/')) {
    const [name, value] = part.split(':');
    const def = CVSS31_BASE_METRICS.find((m) => m.metric === name);
    if (def && value !== undefined && def.values.includes(value)) choices[def.metric] = value;
  }
  return choices;
}

/** The vector of complete choices in the specification's order, or null while one is missing. */
export function vectorFromChoices(choices: CvssChoices): string | null {
  const parts: string[] = [];
  for (const def of CVSS31_BASE_METRICS) {
    const value = choices[def.metric];
    if (!value) return null;
    parts.push(`${def.metric}:${value}`);
  }
  return CVSS31_PREFIX + parts.join('/');
}

export interface CvssScore {
  score: number;
  severity: CvssSeverity;
  vector: string;
}

export function scoreOfChoices(choices: CvssChoices): CvssScore | null {
  const vector = vectorFromChoices(choices);
  if (!vector) return null;
  const result = parseCvss31(vector);
  return result.ok ? { score: result.baseScore, severity: result.severity, vector } : null;
}

/** What to show under the vector field: the score, or why the vector is not valid. */
export function describeVector(
  vector: string,
):
  | { kind: 'empty' }
  | { kind: 'ok'; score: number; severity: CvssSeverity }
  | { kind: 'error'; message: string } {
  if (vector.trim() === '') return { kind: 'empty' };
  const result = parseCvss31(vector);
  if (result.ok) return { kind: 'ok', score: result.baseScore, severity: result.severity };
  return { kind: 'error', message: `Not a valid CVSS 3.1 base vector: ${result.error}.` };
}

export function scoreText(score: number, severity: CvssSeverity): string {
  return `Score ${score.toFixed(1)} (${severity.charAt(0).toUpperCase()}${severity.slice(1)})`;
}

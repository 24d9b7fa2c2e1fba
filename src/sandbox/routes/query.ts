/** Query-parameter parsing shared by the routes; failures name the parameter (422). */
import { validationError } from '../errors';
import { isUuidV4 } from '../ids';

/** An integer parameter in [min, max]; absent gives `fallback`. */
export function intParam(
  query: URLSearchParams,
  name: string,
  min: number,
  max: number | undefined,
  fallback?: number,
): number {
  const raw = query.get(name);
  if (raw === null) {
    if (fallback === undefined) throw validationError(`${name}: is required`);
    return fallback;
  }
  const n = /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  const range = max === undefined ? `at least ${min}` : `from ${min} to ${max}`;
  if (!Number.isSafeInteger(n) || n < min || (max !== undefined && n > max)) {
    throw validationError(`${name}: must be an integer ${range}`);
  }
  return n;
}

export function uuidParam(value: string, name: string): string {
  if (!isUuidV4(value)) throw validationError(`${name}: must be a UUIDv4`);
  return value;
}

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}:\d{2}:\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Milliseconds (with sub-millisecond fraction) of an RFC 3339 date-time with a time zone. */
export function dateTimeParam(raw: string, name: string): number {
  const m = DATE_TIME.exec(raw);
  const base = m ? Date.parse(`${m[1]}T${m[2]}${(m[4] as string).toUpperCase()}`) : NaN;
  if (!m || Number.isNaN(base)) {
    throw validationError(
      `${name}: must be a date-time with a time zone, like 2024-05-01T12:00:00Z`,
    );
  }
  return base + (m[3] ? Number(m[3]) * 1000 : 0);
}

/**
 * How the harness carries main's answers to the page, in place of Electron's structured clone:
 * one JSON string, with the values JSON cannot hold (undefined, dates, non-finite numbers,
 * bigints, bytes, maps, sets, errors) tagged and revived. Playwright's own serialization of a
 * returned object cost the page's main thread about 23 ms for one 200-row block of the reports
 * list (its tagged tree is built into the page by a script), a cost Electron's IPC does not have
 * (structured clone, like JSON.parse, is well under a millisecond for it): the renderer
 * benchmark measured the harness instead of the app.
 */

/** The key of a tagged value; a real object holding it is refused rather than misread. */
export const IPC_TAG = '\u0000ipc';

type Tagged = { [IPC_TAG]: string; v?: unknown; name?: string; message?: string };

export function encodeIpc(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, json: unknown) {
    // `this[key]` is the value before its toJSON (a Date's or a Buffer's).
    const raw = this[key];
    const tag = (t: string, extra: Omit<Tagged, typeof IPC_TAG> = {}): Tagged => ({
      [IPC_TAG]: t,
      ...extra,
    });
    // What a structured clone refuses, Electron's IPC refuses: an answer holding one is a bug.
    if (typeof raw === 'function' || typeof raw === 'symbol') {
      throw new Error(`An object could not be cloned: a ${typeof raw} at "${key}"`);
    }
    if (raw === undefined) return tag('u');
    if (typeof raw === 'bigint') return tag('b', { v: raw.toString() });
    if (typeof raw === 'number' && !Number.isFinite(raw)) return tag('n', { v: String(raw) });
    if (raw instanceof Date) return tag('d', { v: raw.getTime() });
    if (raw instanceof Uint8Array) return tag('8', { v: Array.from(raw) });
    if (raw instanceof Map) return tag('m', { v: [...raw] });
    if (raw instanceof Set) return tag('s', { v: [...raw] });
    if (raw instanceof Error) return tag('e', { name: raw.name, message: raw.message });
    if (json !== null && typeof json === 'object' && Object.hasOwn(json, IPC_TAG)) {
      throw new Error(`an IPC value holds the harness's tag key at "${key}"`);
    }
    return json;
  });
}

/**
 * The page's side, self-contained: its source is put into the page's init script as is.
 * `undefined` stays a present key, as after a structured clone.
 */
export function decodeIpc(text: string): unknown {
  const TAG = '\u0000ipc';
  // JSON writes the tag's NUL escaped: without that text, nothing is tagged.
  if (!text.includes('\\u0000ipc')) return JSON.parse(text);
  const UNDEFINED = {};
  let holes = false;
  const parsed: unknown = JSON.parse(text, (_key, value: unknown) => {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, TAG)) return value;
    const t = value as { [TAG]: string; v?: unknown; name?: string; message?: string };
    switch (t[TAG]) {
      case 'u':
        holes = true;
        return UNDEFINED;
      case 'b':
        return BigInt(String(t.v));
      case 'n':
        return Number(t.v);
      case 'd':
        return new Date(Number(t.v));
      case '8':
        return new Uint8Array(t.v as number[]);
      case 'm':
        return new Map(t.v as [unknown, unknown][]);
      case 's':
        return new Set(t.v as unknown[]);
      case 'e': {
        const error = new Error(t.message);
        error.name = t.name ?? 'Error';
        return error;
      }
      default:
        throw new Error(`unknown IPC tag ${t[TAG]}`);
    }
  });
  if (!holes) return parsed;
  const fill = (value: unknown): unknown => {
    if (value === UNDEFINED) return undefined;
    if (value instanceof Map) {
      for (const [k, v] of value) value.set(k, fill(v));
    } else if (value instanceof Set) {
      const all = [...value];
      value.clear();
      for (const v of all) value.add(fill(v));
    } else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      for (const k of Object.keys(record)) record[k] = fill(record[k]);
    }
    return value;
  };
  return fill(parsed);
}

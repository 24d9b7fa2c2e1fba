/**
 * curl's `--variable` and the `{{name}}` expansion of `--expand-<option>` values (src/var.c,
 * curl/curl at 5c61e168698a): `name=text`, `name@file`, a byte range `name[5-10]@file`,
 * `%ENV` and `%ENV=default` (the environment is not in a paste: noted, and the default used),
 * and the functions `:trim`, `:json`, `:url`, `:b64`, `:64dec`. Variables live across `--next`.
 */
import type { CurlFiles } from './curl-files';

export type CurlVariables = Map<string, string>;

/** curl_easy_escape: every byte but the unreserved characters as %XX. */
export function curlEscape(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Strict base64 as curlx_base64_decode wants it, or null. */
function base64Decode(text: string): string | null {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  return Buffer.from(text, 'base64').toString('utf8');
}

/** A JSON string's inside, as curl's jsonquoted writes it. */
function jsonQuoted(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

function applyFunctions(value: string, functions: string[]): string | null {
  let out = value;
  for (const f of functions) {
    if (out === '' && f !== 'trim') continue;
    if (f === 'trim') out = out.trim();
    else if (f === 'json') out = jsonQuoted(out);
    else if (f === 'url') out = curlEscape(out);
    else if (f === 'b64') out = Buffer.from(out, 'utf8').toString('base64');
    else if (f === '64dec') out = base64Decode(out) ?? '[64dec-fail]';
    else return null;
  }
  return out;
}

/** `--variable`: defines one variable, as setvariable does. */
export function setVariable(vars: CurlVariables, input: string, files: CurlFiles): void {
  const m = /^(%?)([A-Za-z0-9_]{1,127})(?:\[(\d+)-(\d*)\])?(.*)$/s.exec(input);
  if (!m) return;
  const [, env = '', name = '', start, end, rest = ''] = m;
  let content: string | null = null;
  if (env) {
    files.note(
      `--variable ${input}: curl takes ${name} from the environment, which is not part of the paste${rest.startsWith('=') ? '; its default is used' : ''}.`,
    );
    if (!rest.startsWith('=')) content = '';
  }
  if (content === null && rest.startsWith('@')) content = files.read(rest.slice(1)) ?? '';
  else if (content === null && rest.startsWith('=')) content = rest.slice(1);
  if (content === null) return;
  if (start !== undefined) {
    const bytes = Buffer.from(content, 'utf8');
    const from = Number(start);
    const to = end ? Number(end) : bytes.length - 1;
    content = from >= bytes.length ? '' : bytes.subarray(from, to + 1).toString('utf8');
  }
  vars.set(name, content);
}

/** `{{name}}` and `{{name:fn:fn}}` in an `--expand-` value; `\{{` stays `{{`. */
export function expandVariables(vars: CurlVariables, line: string): string {
  let out = '';
  let rest = line;
  let expanded = false;
  for (;;) {
    const open = rest.indexOf('{{');
    if (open === -1) break;
    if (open > 0 && rest[open - 1] === '\\') {
      out += `${rest.slice(0, open - 1)}{{`;
      rest = rest.slice(open + 2);
      continue;
    }
    const close = rest.indexOf('}}', open);
    if (close === -1) break;
    const [name = '', ...functions] = rest.slice(open + 2, close).split(':');
    out += rest.slice(0, open);
    if (name === '' || name.length >= 128 || !/^[A-Za-z0-9_]+$/.test(name))
      out += rest.slice(open, close + 2);
    else {
      out += applyFunctions(vars.get(name) ?? '', functions) ?? '';
      expanded = true;
    }
    rest = rest.slice(close + 2);
  }
  return expanded ? out + rest : line;
}

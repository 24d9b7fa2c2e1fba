/**
 * `-F`/`--form` and `--form-string` as the multipart body curl sends (src/tool_formparse.c and
 * lib/mime.c, curl/curl at 5c61e168698a): `name=value`, `name=@file` (a file part, with its name
 * and a type from its extension), `name=<file` (the file's text as the value), and the
 * `;type=`, `;filename=` parameters. curl's boundary is 24 dashes and 22 random characters: the
 * random part here is a placeholder of the same length, so Content-Length is curl's.
 */
import type { CurlFiles } from './curl-files';

export interface FormField {
  name: string;
  value: string;
  /** `--form-string`: the value is sent as typed, `@`, `<` and `;type=` included. */
  literal: boolean;
}

export const FORM_BOUNDARY = `${'-'.repeat(24)}CurlRandomBoundaryHere`;

/** lib/mime.c's table of types by file extension. */
const TYPES: readonly [string, string][] = [
  ['.gif', 'image/gif'],
  ['.jpg', 'image/jpeg'],
  ['.jpeg', 'image/jpeg'],
  ['.png', 'image/png'],
  ['.svg', 'image/svg+xml'],
  ['.txt', 'text/plain'],
  ['.htm', 'text/html'],
  ['.html', 'text/html'],
  ['.pdf', 'application/pdf'],
  ['.xml', 'application/xml'],
];

const typeOf = (name: string | null): string | null =>
  name === null ? null : (TYPES.find(([ext]) => name.toLowerCase().endsWith(ext))?.[1] ?? null);

/** Names and file names as HTML5 escapes them, which curl does by default. */
const escape = (text: string): string =>
  text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** `value;type=x;filename="y"`: the value and its parameters (a quoted value may hold `;`). */
function params(text: string): { value: string; type: string | null; filename: string | null } {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const c of text) {
    if (c === '"') quoted = !quoted;
    if (c === ';' && !quoted) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  const [value = '', ...rest] = parts;
  let type: string | null = null;
  let filename: string | null = null;
  let last = '';
  for (const p of rest) {
    const m = /^\s*(type|filename|headers|encoder)=(.*)$/i.exec(p);
    const key = m?.[1]?.toLowerCase() ?? '';
    const v = (m?.[2] ?? '').replace(/^"(.*)"$/, '$1');
    if (key === 'type') type = v;
    else if (key === 'filename') filename = v;
    // A type keeps its own parameters (`type=text/html;charset=utf-8`).
    else if (!m && last === 'type' && type !== null) type += `;${p}`;
    if (m) last = key;
  }
  return { value, type, filename };
}

/** One part: its headers and content as curl writes them. */
function part(field: FormField, files: CurlFiles): string {
  let content: string;
  let filename: string | null = null;
  let type: string | null = null;
  if (field.literal) content = field.value;
  else {
    const p = params(field.value);
    type = p.type;
    if (p.value.startsWith('@')) {
      const path = p.value.slice(1);
      content = files.contents(path);
      filename = p.filename ?? path.replace(/^.*[\\/]/, '');
      type ??= typeOf(filename) ?? 'application/octet-stream';
    } else if (p.value.startsWith('<')) {
      const path = p.value.slice(1);
      content = files.contents(path);
      filename = p.filename;
      type ??= typeOf(filename) ?? typeOf(path);
    } else {
      // Blanks before a value are skipped, as curl's get_param_word does.
      content = p.value.replace(/^[ \t]+/, '');
      filename = p.filename;
      type ??= typeOf(filename);
    }
    // text/plain goes unsaid on a part without a file name.
    if (p.type === null && type === 'text/plain' && filename === null) type = null;
  }
  const disposition =
    field.name !== '' || filename !== null || type !== null
      ? `Content-Disposition: form-data${field.name ? `; name="${escape(field.name)}"` : ''}${
          filename !== null ? `; filename="${escape(filename)}"` : ''
        }\r\n`
      : '';
  return `--${FORM_BOUNDARY}\r\n${disposition}${type ? `Content-Type: ${type}\r\n` : ''}\r\n${content}\r\n`;
}

/** The multipart/form-data body of a command's `-F` fields. */
export function multipartBody(fields: readonly FormField[], files: CurlFiles): string {
  return fields.map((f) => part(f, files)).join('') + `--${FORM_BOUNDARY}--\r\n`;
}

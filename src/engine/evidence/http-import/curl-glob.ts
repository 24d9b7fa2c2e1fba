/**
 * curl's URL globbing as src/tool_urlglob.c reads it (curl/curl at 5c61e168698a): `{a,b}` sets,
 * `[1-3]`, `[01-10:2]`, `[a-c]`, `[a-z:2]` ranges, each optionally named (`{<name>a,b}`,
 * `[<name>7-9]`); `\` escapes a bracket or brace; `[]` and IPv6 literals are kept as typed. The
 * last pattern turns fastest, as curl walks them. At most 100 URLs are given.
 */
import { HttpEvidenceError } from './model';

const LIMIT = 100;

/** The choices of one set or range, curl's rules for a well-formed one. */
function rangeChoices(body: string): string[] | null {
  const letters = /^([a-zA-Z])-([a-zA-Z])(?::(\d+))?$/.exec(body);
  if (letters) {
    const from = (letters[1] ?? '').charCodeAt(0);
    const to = (letters[2] ?? '').charCodeAt(0);
    const step = Number(letters[3] ?? '1');
    if (step === 0 || step > 256 || (from === to && step !== 1)) return null;
    if (from !== to && (from > to || step > to - from || to - from > 25)) return null;
    const out: string[] = [];
    for (let c = from; c <= to && out.length < LIMIT; c += step) out.push(String.fromCharCode(c));
    return out;
  }
  const digits = /^(\d+)-[ \t]*(\d+)(?::(\d+))?$/.exec(body);
  if (!digits) return null;
  const width = digits[1]?.startsWith('0') ? (digits[1]?.length ?? 0) : 0;
  const from = Number(digits[1]);
  const to = Number(digits[2]);
  const step = Number(digits[3] ?? '1');
  if (step === 0 || (from === to && step !== 1) || (from !== to && (from > to || step > to - from)))
    return null;
  const out: string[] = [];
  for (let n = from; n <= to && out.length < LIMIT; n += step)
    out.push(String(n).padStart(width, '0'));
  return out;
}

const IPV6 = /^\[[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(?:%25[A-Za-z0-9._~-]+)?\]/;

/** The URLs a globbed URL stands for, in curl's order; throws where curl refuses the URL. */
export function expandGlob(url: string): string[] {
  const parts: string[][] = [];
  let literal = '';
  const names = new Set<string>();
  const refuse = (why: string, at: number): never => {
    throw new HttpEvidenceError(
      `curl would refuse the URL "${url}" without -g: ${why} at position ${at + 1} of its ` +
        'globbing ({…} and […] stand for several URLs)',
    );
  };
  let i = 0;
  while (i < url.length) {
    const c = url[i] ?? '';
    if (c === '[') {
      const ipv6 = IPV6.exec(url.slice(i))?.[0] ?? (url[i + 1] === ']' ? '[]' : '');
      if (ipv6) {
        literal += ipv6;
        i += ipv6.length;
        continue;
      }
    }
    if (c === '{' || c === '[') {
      if (literal) parts.push([literal]);
      literal = '';
      let start = i + 1;
      const name = /^<([^>]{0,64})>/.exec(url.slice(start));
      if (name) {
        if (names.has(name[1] ?? '')) refuse('duplicate glob name', i);
        names.add(name[1] ?? '');
        start += name[0].length;
      }
      if (c === '[') {
        const end = url.indexOf(']', start);
        const choices = end === -1 ? null : rangeChoices(url.slice(start, end));
        if (!choices) return refuse('bad range', i);
        parts.push(choices);
        i = end + 1;
        continue;
      }
      const choices: string[] = [];
      let element = '';
      let j = start;
      for (;;) {
        const d = url[j];
        if (d === undefined) refuse('unmatched brace', i);
        if (d === '{' || d === '[') refuse('nested brace', j);
        if (d === ']') refuse('unexpected close bracket', j);
        if (d === '}' && j === start) refuse('empty string within braces', j);
        if (d === ',' || d === '}') {
          choices.push(element);
          element = '';
          j++;
          if (d === '}') break;
          continue;
        }
        if (d === '\\' && j + 1 < url.length) j++;
        element += url[j] ?? '';
        j++;
      }
      parts.push(choices);
      i = j;
      continue;
    }
    if (c === '}' || c === ']') refuse('unmatched close brace/bracket', i);
    if (c === '\\' && '{[}]'.includes(url[i + 1] ?? 'x')) i++;
    literal += url[i] ?? '';
    i++;
  }
  if (literal) parts.push([literal]);
  let urls = [''];
  for (const choices of parts) {
    const next: string[] = [];
    for (const head of urls) {
      for (const choice of choices) {
        if (next.length >= LIMIT) break;
        next.push(head + choice);
      }
    }
    urls = next;
  }
  return urls;
}

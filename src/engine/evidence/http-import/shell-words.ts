import { HttpEvidenceError } from './model';

/**
 * A pasted command line split into words the way its shell would before the program sees them.
 * Three shells write "Copy as cURL" commands: POSIX sh/bash/zsh (browsers, Burp, curl's docs),
 * Windows cmd (Chrome's "Copy as cURL (cmd)", `^` escapes) and PowerShell (its own parser, see
 * powershell.ts). Variables are left as written; the command ends at the first unquoted pipe,
 * list operator or redirection, as the shell would end the program's arguments there.
 */

const ANSI_C: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}

/** `$'…'` (bash, zsh): backslash escapes as in C; returns the text and the index after `'`. */
function ansiC(text: string, start: number): { value: string; end: number } {
  let value = '';
  let i = start;
  while (i < text.length && text[i] !== "'") {
    const c = text[i] ?? '';
    if (c !== '\\') {
      value += c;
      i++;
      continue;
    }
    const e = text[i + 1] ?? '';
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(text.slice(i + 1));
    const uni = /^[uU]([0-9a-fA-F]{1,8})/.exec(text.slice(i + 1));
    const oct = /^([0-7]{1,3})/.exec(text.slice(i + 1));
    if (hex) {
      value += String.fromCharCode(parseInt(hex[1] ?? '0', 16));
      i += 1 + hex[0].length;
    } else if (uni) {
      value += String.fromCodePoint(parseInt(uni[1] ?? '0', 16));
      i += 1 + uni[0].length;
    } else if (oct) {
      value += String.fromCharCode(parseInt(oct[1] ?? '0', 8));
      i += 1 + oct[0].length;
    } else if (e in ANSI_C) {
      value += ANSI_C[e];
      i += 2;
    } else {
      value += `\\${e}`;
      i += 2;
    }
  }
  if (i >= text.length)
    throw new HttpEvidenceError(`a $'…' quote opened on line ${lineAt(text, start)} is not closed`);
  return { value, end: i + 1 };
}

/** POSIX shell words (bash and zsh quoting, including `$'…'`). */
export function posixWords(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let i = 0;
  const push = (): void => {
    if (word !== null) words.push(word);
    word = null;
  };
  while (i < text.length) {
    const c = text[i] ?? '';
    if (c === '\\') {
      const next = text[i + 1];
      if (next === '\n')
        i += 2; // a line continuation
      else if (next === '\r' && text[i + 2] === '\n') i += 3;
      else {
        word = (word ?? '') + (next ?? '');
        i += 2;
      }
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1)
        throw new HttpEvidenceError(`a ' quote opened on line ${lineAt(text, i)} is not closed`);
      word = (word ?? '') + text.slice(i + 1, end);
      i = end + 1;
    } else if (c === '$' && text[i + 1] === "'") {
      const { value, end } = ansiC(text, i + 2);
      word = (word ?? '') + value;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      let value = '';
      for (; j < text.length && text[j] !== '"'; j++) {
        const d = text[j] ?? '';
        const e = text[j + 1] ?? '';
        if (d === '\\' && e === '\n') j++;
        else if (d === '\\' && '$`"\\'.includes(e)) {
          value += e;
          j++;
        } else value += d;
      }
      if (j >= text.length)
        throw new HttpEvidenceError(`a " quote opened on line ${lineAt(text, i)} is not closed`);
      word = (word ?? '') + value;
      i = j + 1;
    } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      push();
      i++;
    } else if (c === '#' && word === null) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if ('|;&<>'.includes(c)) {
      break;
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  push();
  return words;
}

/** The text after cmd.exe's own pass: `^x` is x, `^` at a line's end joins the next line. */
function cmdPass(text: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (c === '"') quoted = !quoted;
    if (c === '^' && !quoted) {
      const next = text[i + 1] ?? '';
      if (next === '\r' && text[i + 2] === '\n') {
        i += 2;
        // `^` + line break + line break is a literal line break (Chrome writes them so).
        if (text[i + 1] === '\n') out += text[++i];
        else if (text[i + 1] === '\r' && text[i + 2] === '\n') i += 2;
      } else if (next === '\n') {
        i++;
        if (text[i + 1] === '\n') out += text[++i];
      } else {
        out += next;
        i++;
      }
      continue;
    }
    if (!quoted && (c === '|' || c === '&' || c === '<' || c === '>')) break;
    out += c;
  }
  return out;
}

/** The words a Windows program gets from its command line (the MS C runtime's rules). */
function msvcrtWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (c === '\\') {
      let n = 0;
      while (line[i + n] === '\\') n++;
      if (line[i + n] === '"') {
        word = (word ?? '') + '\\'.repeat(Math.floor(n / 2));
        if (n % 2 === 1) word += '"';
        else quoted = !quoted;
        i += n;
      } else {
        word = (word ?? '') + '\\'.repeat(n);
        i += n - 1;
      }
    } else if (c === '"') {
      if (quoted && line[i + 1] === '"') {
        word = (word ?? '') + '"';
        i++;
      } else {
        quoted = !quoted;
        word = word ?? '';
      }
    } else if (!quoted && (c === ' ' || c === '\t' || c === '\n' || c === '\r')) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? '') + c;
  }
  if (quoted) throw new HttpEvidenceError('a " quote is not closed');
  if (word !== null) words.push(word);
  return words;
}

/** Windows cmd words: cmd's `^` pass, then the C runtime's quoting (Chrome's "cURL (cmd)"). */
export function cmdWords(text: string): string[] {
  return msvcrtWords(cmdPass(text));
}

/** Chrome's and Firefox's cmd copies escape with `^`, which no POSIX copy writes at a line end. */
export function looksLikeCmd(text: string): boolean {
  return /\^\r?\n|\^"/.test(text);
}

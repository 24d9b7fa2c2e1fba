import { HttpEvidenceError } from './model';
import { posixWords } from './shell-words';

/**
 * A pasted shell script cut into its simple commands, the way sh reads it: commands end at an
 * unquoted line break, `;`, `&`, `&&`, `||` or `|` (a pipe feeds the next command's standard
 * input), `#` starts a comment, a backslash at a line's end continues the line. Redirections
 * (`< file`, `> out`, `2>&1`, `<<EOF` here-documents) are set apart from the words. Quoting is
 * posixWords' own: each command's text is handed to it once its end is found.
 */
export interface ShellCommand {
  /** The command's words, quotes removed. */
  words: string[];
  /** The line the command starts on (1-based). */
  line: number;
  /** The command as typed, on one line, for a note. */
  text: string;
  /** The command whose output is piped into this one (`echo … | curl`), when there is one. */
  pipedFrom: ShellCommand | null;
  /** Redirections as typed (`< body.json`, `> out.html`). */
  redirects: string[];
}

interface Piece {
  text: string;
  line: number;
  redirects: string[];
  piped: boolean;
  heredoc: string | null;
}

/** The end of a quoted run starting at `i` (the quote character), or throws naming the line. */
function quoteEnd(text: string, i: number, line: number): number {
  const q = text[i];
  if (q === "'") {
    const end = text.indexOf("'", i + 1);
    if (end === -1) throw new HttpEvidenceError(`a ' quote opened on line ${line} is not closed`);
    return end + 1;
  }
  let j = i + 1;
  for (; j < text.length && text[j] !== q; j++) if (text[j] === '\\') j++;
  if (j >= text.length)
    throw new HttpEvidenceError(`a ${q} quote opened on line ${line} is not closed`);
  return j + 1;
}

/** A redirection's operator at `i` (`<`, `>>`, `2>&1`, `<<-`, `<<<`…), or null. */
const REDIRECT = /^(?:\d*(?:<<<|<<-?|>>|>&|<&|>\||<>|<|>))/;

export function shellCommands(text: string): ShellCommand[] {
  const pieces: Piece[] = [];
  let line = 1;
  let cur: Piece = { text: '', line, redirects: [], piped: false, heredoc: null };
  let pendingHeredoc: string | null = null;
  const end = (piped: boolean): void => {
    if (cur.text.trim() !== '' || cur.redirects.length > 0) pieces.push(cur);
    cur = { text: '', line, redirects: [], piped, heredoc: null };
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    const atWordStart = cur.text === '' || /\s$/.test(cur.text);
    if (c === '\\' && (text[i + 1] === '\n' || (text[i + 1] === '\r' && text[i + 2] === '\n'))) {
      cur.text += text[i + 1] === '\n' ? '\\\n' : '\\\r\n';
      i += text[i + 1] === '\n' ? 2 : 3;
      line++;
    } else if (c === '\\') {
      cur.text += text.slice(i, i + 2);
      i += 2;
    } else if (c === "'" || c === '"' || (c === '$' && text[i + 1] === "'")) {
      const start = c === '$' ? i + 1 : i;
      const stop = quoteEnd(text, start, line);
      const quoted = text.slice(i, stop);
      line += (quoted.match(/\n/g) ?? []).length;
      cur.text += quoted;
      i = stop;
    } else if (c === '#' && atWordStart) {
      const nl = text.indexOf('\n', i);
      i = nl === -1 ? text.length : nl;
    } else if (c === '\n') {
      line++;
      i++;
      const delimiter = pendingHeredoc;
      end(false);
      if (delimiter !== null) {
        // The here-document's lines are the command's input, not commands.
        pendingHeredoc = null;
        const lines = text.slice(i).split('\n');
        const close = lines.findIndex(
          (l) => l.replace(/^\t+/, '').replace(/\r$/, '') === delimiter,
        );
        const taken = close === -1 ? lines.length : close + 1;
        const consumed = lines.slice(0, taken).join('\n').length + (close === -1 ? 0 : 1);
        const last = pieces[pieces.length - 1];
        if (last) last.heredoc = lines.slice(0, close === -1 ? lines.length : close).join('\n');
        line += taken;
        i += consumed;
      }
    } else if (c === ';' || c === '&' || c === '|') {
      const two = text.slice(i, i + 2);
      const op = two === '&&' || two === '||' || two === '|&' || two === ';;' ? two : c;
      i += op.length;
      end(op === '|' || op === '|&');
    } else {
      const m = atWordStart || /\d$/.test(cur.text) ? REDIRECT.exec(text.slice(i)) : null;
      if (m && (atWordStart || /(?:^|\s)\d+$/.test(cur.text))) {
        // A file descriptor typed before it (`2>`) belongs to the redirection.
        const fd = /(\d+)$/.exec(cur.text)?.[1] ?? '';
        if (fd && !atWordStart) cur.text = cur.text.slice(0, -fd.length);
        let j = i + m[0].length;
        while (text[j] === ' ' || text[j] === '\t') j++;
        let k = j;
        while (k < text.length && !/[\s;&|<>]/.test(text[k] ?? '')) {
          k = text[k] === "'" || text[k] === '"' ? quoteEnd(text, k, line) : k + 1;
        }
        const target = text.slice(j, k);
        const op = `${fd}${m[0]}`;
        cur.redirects.push(`${op} ${target}`.trim());
        if (/^<<-?$/.test(m[0])) pendingHeredoc = target.replace(/^['"]|['"]$/g, '');
        i = k;
      } else {
        cur.text += c;
        i++;
      }
    }
  }
  end(false);
  const commands: ShellCommand[] = [];
  for (const piece of pieces) {
    const words = posixWords(piece.text);
    if (words.length === 0 && piece.redirects.length === 0) continue;
    const previous = commands[commands.length - 1] ?? null;
    commands.push({
      words,
      line: piece.line,
      text: piece.text
        .replace(/\\\r?\n\s*/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
      pipedFrom: piece.piped ? previous : null,
      redirects:
        piece.heredoc !== null
          ? [...piece.redirects, `here-document: ${piece.heredoc}`]
          : piece.redirects,
    });
  }
  return commands;
}

/**
 * PowerShell's words for a native command (`curl.exe` typed in PowerShell): a backtick escapes
 * the next character and, at a line's end, continues the line; "…" takes backtick escapes and
 * "" for a quote, '…' takes '' for a quote; `#` starts a comment, `;` and `|` end the command.
 * The commands of a pasted script, one per line as PowerShell runs them.
 */
const PS_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '0': '\0', a: '\x07' };

export function powershellCommands(text: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let words: string[] = [];
  let word: string | null = null;
  let line = 1;
  let start = 1;
  let typed = '';
  const push = (): void => {
    if (word !== null) words.push(word);
    word = null;
  };
  const finish = (): void => {
    push();
    if (words.length > 0)
      commands.push({
        words,
        line: start,
        text: typed
          .replace(/`\r?\n\s*/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
        pipedFrom: null,
        redirects: [],
      });
    words = [];
    typed = '';
    start = line;
  };
  let i = 0;
  // The quoted run from `i` to its closing quote at `j` joins the word as `value` (unquoted).
  const closeQuote = (quote: string, j: number, value: string): void => {
    if (j >= text.length)
      throw new HttpEvidenceError(`a ${quote} quote opened on line ${line} is not closed`);
    typed += text.slice(i, j + 1);
    line += (text.slice(i, j).match(/\n/g) ?? []).length;
    word = (word ?? '') + value;
    i = j + 1;
  };
  while (i < text.length) {
    const c = text[i] ?? '';
    const next = text[i + 1] ?? '';
    if (c === '`') {
      typed += c + next;
      if (next === '\n' || (next === '\r' && text[i + 2] === '\n')) {
        i += next === '\n' ? 2 : 3;
        line++;
        push();
      } else {
        word = (word ?? '') + next;
        i += 2;
      }
      continue;
    }
    if (c === "'") {
      let j = i + 1;
      let value = '';
      for (; j < text.length; j++) {
        if (text[j] === "'" && text[j + 1] === "'") {
          value += "'";
          j++;
        } else if (text[j] === "'") break;
        else value += text[j];
      }
      closeQuote("'", j, value);
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let value = '';
      for (; j < text.length; j++) {
        const d = text[j] ?? '';
        if (d === '`') {
          value += PS_ESCAPES[text[j + 1] ?? ''] ?? text[j + 1] ?? '';
          j++;
        } else if (d === '"' && text[j + 1] === '"') {
          value += '"';
          j++;
        } else if (d === '"') break;
        else value += d;
      }
      closeQuote('"', j, value);
      continue;
    }
    if (c === '#' && word === null) {
      const nl = text.indexOf('\n', i);
      i = nl === -1 ? text.length : nl;
      continue;
    }
    if (c === '\n' || c === ';' || c === '|') {
      if (c === '\n') line++;
      i++;
      finish();
      continue;
    }
    typed += c;
    if (c === ' ' || c === '\t' || c === '\r') push();
    else word = (word ?? '') + c;
    i++;
  }
  finish();
  return commands;
}

/** A backtick at a line's end: PowerShell's line continuation, which no POSIX copy writes. */
export function looksLikePowerShell(text: string): boolean {
  return /`\r?\n/.test(text);
}

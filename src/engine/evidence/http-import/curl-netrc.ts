/**
 * The credentials curl takes from a .netrc file for a host (lib/netrc.c, curl/curl at
 * 5c61e168698a): `machine`, `default`, `login`, `password`, `account`, `macdef` tokens, quoted
 * values with `\n \r \t` escapes, `#` comment lines; the first entry for the host that has a
 * login (the URL's user, when it names one, with a password) or a password wins.
 */

type Token = { kind: 'literal' | 'keyword'; text: string };

/** The file's tokens, as curl's lexer cuts them; null on a quote never closed. */
function* tokens(text: string): Generator<Token | null> {
  // curl drops comment lines (blanks, then `#`) and the blanks that start each line.
  const content = text
    .split(/(?<=\n)/)
    .map((line) => line.replace(/^[ \t]+/, ''))
    .filter((line) => !line.startsWith('#'))
    .join('');
  let i = 0;
  for (;;) {
    while (i < content.length && /[ \t\r\n]/.test(content[i] ?? '')) i++;
    if (i >= content.length) return;
    if (content[i] === '"') {
      let value = '';
      let j = i + 1;
      let closed = false;
      while (j < content.length) {
        const c = content[j] ?? '';
        if (c === '\\' && j + 1 < content.length) {
          const e = content[j + 1] ?? '';
          value += e === 'n' ? '\n' : e === 'r' ? '\r' : e === 't' ? '\t' : e;
          j += 2;
          continue;
        }
        if (c === '"') {
          closed = true;
          j++;
          break;
        }
        value += c;
        j++;
      }
      if (!closed) {
        yield null;
        return;
      }
      i = j;
      yield { kind: 'literal', text: value };
      continue;
    }
    const word = /^[^ \t\r\n]+/.exec(content.slice(i))?.[0] ?? '';
    const start = i;
    i += word.length;
    // `macdef` runs to the next empty line.
    if (word.toLowerCase() === 'macdef') {
      const end = /\n\r*\n/.exec(content.slice(i));
      i = end ? i + end.index + end[0].length : content.length;
    }
    yield { kind: 'keyword', text: content.slice(start, start + word.length) };
  }
}

/** `login` and `password` for `host` (and `user`, when the URL names one); null when none. */
export function netrcCredentials(
  text: string,
  host: string,
  user: string | null,
): { user: string; password: string | null } | null {
  const wanted = user === '' ? null : user;
  let matches = false;
  let login: string | null = null;
  let password: string | null = null;
  const endEntry = (): { user: string; password: string | null } | null => {
    let found = false;
    if (matches) {
      if (login !== null) found = wanted === null || (wanted === login && password !== null);
      else if (password !== null) found = true;
    }
    const result = found ? { user: wanted ?? login ?? '', password } : null;
    matches = false;
    login = null;
    password = null;
    return result;
  };
  const lexer = tokens(text);
  let pushed: Token | null | undefined;
  const next = (): Token | null | undefined => {
    if (pushed !== undefined) {
      const t = pushed;
      pushed = undefined;
      return t;
    }
    const r = lexer.next();
    return r.done ? undefined : r.value;
  };
  /** The value after a keyword: any word or quoted string (curl reads it as a literal). */
  const literal = (): string | null => {
    const t = next();
    if (t === null || t === undefined) {
      pushed = t;
      return null;
    }
    return t.text;
  };
  for (;;) {
    const t = next();
    if (t === null) return null;
    const word = t?.kind === 'keyword' ? t.text.toLowerCase() : '';
    if (t === undefined || ['machine', 'default', 'macdef'].includes(word)) {
      const found = endEntry();
      if (found) return found;
    }
    if (t === undefined) return null;
    if (word === 'machine') {
      const name = literal();
      matches = name !== null && name.toLowerCase() === host.toLowerCase();
    } else if (word === 'default') matches = true;
    else if (word === 'login') {
      const value = literal();
      if (matches && value !== null) login = value;
    } else if (word === 'password') {
      const value = literal();
      if (matches && value !== null) password = value;
    } else if (word === 'account') literal();
  }
}

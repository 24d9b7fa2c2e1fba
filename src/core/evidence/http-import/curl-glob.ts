/** curl's URL globbing: `{a,b}` sets and `[1-3]`, `[a-c]`, `[01-10:2]` ranges, at most 100. */
export function expandGlob(url: string): string[] {
  const m = /\{([^{}]*)\}|\[([0-9]+)-([0-9]+)(?::([0-9]+))?\]|\[([a-zA-Z])-([a-zA-Z])\]/.exec(url);
  if (!m) return [url];
  let choices: string[];
  if (m[1] !== undefined) choices = m[1].split(',');
  else if (m[2] !== undefined && m[3] !== undefined) {
    const from = Number(m[2]);
    const to = Number(m[3]);
    const step = Number(m[4] ?? '1') || 1;
    const width = m[2].startsWith('0') ? m[2].length : 0;
    choices = [];
    for (let n = from; n <= to && choices.length < 100; n += step)
      choices.push(String(n).padStart(width, '0'));
  } else {
    choices = [];
    const from = (m[5] ?? 'a').charCodeAt(0);
    const to = (m[6] ?? 'a').charCodeAt(0);
    for (let c = from; c <= to; c++) choices.push(String.fromCharCode(c));
  }
  const head = url.slice(0, m.index);
  const tail = url.slice(m.index + m[0].length);
  return choices.flatMap((c) => expandGlob(tail).map((t) => `${head}${c}${t}`)).slice(0, 100);
}

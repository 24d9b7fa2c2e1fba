/**
 * GitHub's literal autolinks (`https://x.com`, `www.x.com`, `a@b.co`) in text the researcher
 * typed. Markdown serializers escape them (`https\://x.com`, `www\.x.com`, `a\@b.co`) so they stay
 * plain text; a report wants the opposite: a typed URL must reach the program as that URL, and
 * every reader (the program's, ours) links it. Pure: the editor's serializer writes these spans as
 * typed, and escapes only the text around them.
 *
 * The spans follow the GFM specification's extended autolinks: `www.`, `http://` or `https://`
 * after the start of the text, whitespace or punctuation; then a domain; then a path up to
 * whitespace or `<` (or a `]` before `[` or `(`), without trailing punctuation (`?!.,:*_~'"]`), an
 * unbalanced `)` or a trailing entity-like `&name;`. E-mail addresses: `[A-Za-z0-9.+_-]+@` a domain with a dot, not ending in
 * `-` or `_`.
 */

export interface AutolinkSpan {
  start: number;
  end: number;
  /** The link target a GFM reader derives: the URL, `http://` + a www domain, `mailto:` + mail. */
  url: string;
}

const DOMAIN = /^[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)*/u;
const PATH_END = /[\s<]/u;
const TRAILING = /[?!.,:*_~'"\]]/u;

function trimPath(span: string): string {
  let out = span;
  for (;;) {
    const last = out.at(-1) ?? '';
    if (TRAILING.test(last)) {
      out = out.slice(0, -1);
      continue;
    }
    if (last === ')') {
      const open = (out.match(/\(/g) ?? []).length;
      const close = (out.match(/\)/g) ?? []).length;
      if (close > open) {
        out = out.slice(0, -1);
        continue;
      }
    }
    const entity = /&[A-Za-z0-9]+;$/.exec(out);
    if (entity) {
      out = out.slice(0, entity.index);
      continue;
    }
    return out;
  }
}

function validDomain(domain: string): boolean {
  const parts = domain.split('.');
  // The last two labels may not hold an underscore; www domains need a dot after "www".
  return parts.length >= 2 && parts.slice(-2).every((p) => p !== '' && !p.includes('_'));
}

/**
 * What may stand before an autolink, as a GFM reader (micromark, then mdast's autolink step on
 * the text left) decides: `www.` after whitespace or punctuation; a scheme after anything but an
 * ASCII letter.
 */
const BEFORE_WWW = /[\s\p{P}\p{S}]/u;
const ASCII_LETTER = /[A-Za-z]/;

function urlAt(text: string, at: number): AutolinkSpan | null {
  const before = text[at - 1];
  const rest = text.slice(at);
  const scheme = /^(?:https?:\/\/|www\.)/i.exec(rest)?.[0];
  if (!scheme) return null;
  const www = scheme.toLowerCase().startsWith('www');
  if (before !== undefined && (www ? !BEFORE_WWW.test(before) : ASCII_LETTER.test(before))) {
    return null;
  }
  let length = rest.search(PATH_END);
  if (length < 0) length = rest.length;
  // A "]" before "[" or "(" ends the address there (it may open a link: `https://x.com[shot][]`
  // links only `https://x.com[shot`); the "]" itself is then trailing punctuation.
  const bracket = /\][[(]/u.exec(rest.slice(0, length));
  if (bracket) length = bracket.index + 1;
  // Trailing punctuation is cut first (GFM), then the domain of what is left must be valid.
  const raw = trimPath(rest.slice(0, length));
  const domain = DOMAIN.exec(raw.slice(www ? 0 : scheme.length))?.[0] ?? '';
  if (!validDomain(domain)) return null;
  const end = at + raw.length;
  const value = text.slice(at, end);
  return { start: at, end, url: www ? `http://${value}` : value };
}

const MAIL_LOCAL = /[A-Za-z0-9.+_-]/;
const MAIL_START = /[A-Za-z0-9.+_-]+@/y;
const MAIL_DOMAIN = /[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+/y;

/**
 * An e-mail address whose local part starts at `start`: where a reader's scan would start one
 * (the text's start, right after the previous autolink, or after a character that cannot be in
 * an address and is not a letter, digit or "/").
 */
function mailFrom(text: string, start: number, lastEnd: number): AutolinkSpan | null {
  const prev = text[start - 1];
  if (start !== lastEnd && prev !== undefined) {
    if (MAIL_LOCAL.test(prev) || /[\p{L}\p{N}/]/u.test(prev)) return null;
  }
  MAIL_START.lastIndex = start;
  const local = MAIL_START.exec(text)?.[0];
  if (!local) return null;
  const at = start + local.length - 1;
  MAIL_DOMAIN.lastIndex = at + 1;
  const domain = MAIL_DOMAIN.exec(text)?.[0];
  if (!domain) return null;
  // GFM: a final "." is not part of the address; a final "-" or "_" makes it no address at all.
  let end = at + 1 + domain.length;
  while (end > at + 1 && text[end - 1] === '.') end--;
  const value = text.slice(start, end);
  if (!value.slice(value.indexOf('@')).includes('.') || /[-_]$/.test(value)) return null;
  return { start, end, url: `mailto:${value}` };
}

/**
 * The literal autolinks of a text, in order, not overlapping: scanned left to right as a GFM
 * reader does, an address starting at a place wins over a URL starting later inside it.
 */
export function autolinkSpans(text: string): AutolinkSpan[] {
  const spans: AutolinkSpan[] = [];
  let lastEnd = 0;
  let i = 0;
  const hasAt = text.includes('@');
  while (i < text.length) {
    const ch = text[i] as string;
    let span = hasAt && MAIL_LOCAL.test(ch) ? mailFrom(text, i, lastEnd) : null;
    if (!span && (ch === 'h' || ch === 'H' || ch === 'w' || ch === 'W')) span = urlAt(text, i);
    if (span) {
      spans.push(span);
      lastEnd = span.end;
      i = span.end;
      continue;
    }
    i++;
  }
  return spans;
}

/**
 * Whether a link of `text` to `url`, written after `before` (the character before it, '' at the
 * start), is exactly the literal autolink a reader makes of `text` there.
 */
export function isLiteralAutolink(text: string, url: string, before = ''): boolean {
  const [span, ...more] = autolinkSpans(before + text);
  return (
    !!span &&
    more.length === 0 &&
    span.start === before.length &&
    span.end === before.length + text.length &&
    span.url === url
  );
}

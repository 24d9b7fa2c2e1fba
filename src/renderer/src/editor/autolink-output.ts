/**
 * How the description editor writes typed URLs, domains and addresses: as typed (GFM links them),
 * never escaped into `https\://`, `www\.` or `a\@b`, and a link that is exactly such an
 * autolink as the bare text it came from (markdown-io.ts installs these handlers).
 */
import { defaultHandlers, type Handle, type Info, type State } from 'mdast-util-to-markdown';
import type { Break, Link, Nodes, Parents, Text } from 'mdast';
import { autolinkSpans, isLiteralAutolink } from './autolinks';
import { afterClosingMarker } from './mark-flanking';
import { UNLINKED_ADDRESS_NODE } from './unlinked-urls';

// CommonMark's autolinks (`<…>`): what `<text>` must look like to read back as a link.
// eslint-disable-next-line no-control-regex -- CommonMark excludes control characters
const URI_AUTOLINK = /^[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>\u0000-\u001f]*$/;
const EMAIL_AUTOLINK =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

function angleAutolinkOk(text: string, url: string): boolean {
  if (url === text) return URI_AUTOLINK.test(text);
  return url === `mailto:${text}` && EMAIL_AUTOLINK.test(text);
}

/**
 * The explicit form of an autolink: `<url>` where that reads back as a link, else a resource
 * link `[text](url)` with its label escaped.
 */
function explicitAutolink(
  text: string,
  url: string,
  parent: Parents | undefined,
  state: State,
  info: Info,
): string {
  // In a table cell, not `<…>` around a pipe: the pipe ends the cell there.
  const pipeInCell = state.stack.includes('tableCell') && text.includes('|');
  if (angleAutolinkOk(text, url) && !pipeInCell) return `<${text}>`;
  const link: Link = { type: 'link', url, title: null, children: [{ type: 'text', value: text }] };
  return resourceLink(link, parent, state, info);
}

/** The default link handler, never in the `<…>` form. */
function resourceLink(node: Link, parent: Parents | undefined, state: State, info: Info): string {
  const options = state.options as { resourceLink?: boolean };
  const before = options.resourceLink;
  options.resourceLink = true;
  try {
    return defaultHandlers.link(node, parent, state, info);
  } finally {
    options.resourceLink = before;
  }
}

/**
 * Whether a literal autolink `text` is read back as exactly itself between `before` (the last
 * character written) and `after` (what is written next): not glued to a closing emphasis
 * delimiter, and not run on by what follows (a URL takes `\`, `!`, `[`... into its address).
 */
function bareAutolinkOk(text: string, before: string, after: string): boolean {
  // After "@" a reader may read the text before it as an address's local part and this link
  // as its domain ("a@" + "b.co…"): only one character of that text is known here, so be explicit.
  if (/[_*~@]$/.test(before)) return false;
  const [span] = autolinkSpans(before.slice(-1) + text + after);
  return (
    span !== undefined &&
    span.start === before.slice(-1).length &&
    span.end === span.start + text.length
  );
}

/**
 * What really follows a node: at the end of a table cell the writer is told "|", but the cell is
 * written padded (" |"); as the text and the link handlers see it alike, a URL ending a cell is
 * written the same way by both (the text before it is escaped for what the link writes).
 */
function followedBy(state: State, info: Info): string {
  return state.stack.includes('tableCell') && info.after === '|' ? ' |' : info.after;
}

const MARKS = new Set(['emphasis', 'strong', 'delete']);

const isMark = (node: Nodes | undefined): node is Parents => !!node && MARKS.has(node.type);

/** The parent of each emphasis, strong and strikethrough of the tree being written. */
const markParents = new WeakMap<Nodes, Parents>();

/**
 * The root handler, first recording each mark's parent: the writer gives a mark's children only
 * its marker as what follows them (`afterClosingMark` reads on from there).
 */
export function recordMarkParents(root: Handle): Handle {
  const walk = (node: Nodes): void => {
    if (!('children' in node)) return;
    for (const child of node.children as Nodes[]) {
      if (isMark(child)) markParents.set(child, node);
      walk(child);
    }
  };
  return (node: Nodes, parent: Parents | undefined, state: State, info: Info): string => {
    walk(node);
    return root(node, parent, state, info);
  };
}

/** What follows a mark's closing marker, as far as plain text tells (see `followingText`). */
function afterMark(mark: Parents): string {
  const outer = markParents.get(mark);
  if (!outer) return '';
  const end =
    isMark(outer) && outer.children.at(-1) === mark
      ? (outer.type === 'delete' ? '~' : '*') + afterMark(outer)
      : outer.type === 'tableCell'
        ? ' |'
        : '';
  return followingText(mark, outer, end);
}

/**
 * What follows the closing marker when `node` ends an emphasis, strong or strikethrough ('' where
 * it does not): the writer tells only the marker, but a URL runs on over it into what follows
 * (`*a www.x.coma*b` links `www.x.coma*b`, and the emphasis is gone).
 */
function afterClosingMark(node: Nodes, parent: Parents | undefined): string {
  return isMark(parent) && parent.children.at(-1) === node ? afterMark(parent) : '';
}

/** An e-mail address up to the end of the text before an escaped "_" or "-". */
const ADDRESS_BEFORE = /[A-Za-z0-9.+_-]+@[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+$/;

/**
 * `a@b.co_` is no address (GFM: a domain may not end in "_" or "-"), but escaped, `a@b.co\_`,
 * the escape ends the domain before the "_" and a reader links `a@b.co`: that escape is left out.
 */
function withoutAddressCuttingEscapes(written: string): string {
  if (!written.includes('@')) return written;
  return written.replace(/\\([_-])/g, (escaped, mark: string, offset: number) =>
    ADDRESS_BEFORE.test(written.slice(0, offset).replace(/\\(?=[_-])/g, '')) ? mark : escaped,
  );
}

/** Writes a text node: autolink spans as typed, the text around them escaped as usual. */
export function writeText(
  node: Text,
  parent: Parents | undefined,
  state: State,
  info: Info,
): string {
  const out = textBefore(node, parent, state, info);
  // The writer peeks at the link after this text as written bare (its text's first character),
  // but after "_", "*", "~" or "@" the link is written as `[…](…)` or `<…>` (`bareAutolinkOk`):
  // the text is escaped for that instead (`_it_` then `[www.example.com](…)` closed the emphasis).
  const siblings = (parent?.children ?? []) as Nodes[];
  const next = siblings[siblings.indexOf(node) + 1];
  if (next?.type === 'link' && /[_*~@]$/.test(out)) {
    const first = writeLink(next, parent, state, { ...info, before: out, after: '' }).charAt(0);
    if (first !== info.after) return textBefore(node, parent, state, { ...info, after: first });
  }
  return out;
}

/** A text node as written before what follows it (`info.after`). */
function textBefore(node: Text, parent: Parents | undefined, state: State, info: Info): string {
  const escape = (value: string, before: string, after: string): string =>
    value === '' ? '' : withoutAddressCuttingEscapes(state.safe(value, { ...info, before, after }));
  // A link's own text is not a link again; an address opened unlinked stays so (unlinked-urls.ts).
  const inLink =
    state.stack.includes('link') ||
    state.stack.includes('autolink') ||
    (state.stack as string[]).includes(UNLINKED_ADDRESS_NODE);
  // In a table cell, an address running into a pipe is written as text (the pipe escaped, which a
  // reader then keeps in the address: the link handler writes that one back as it is).
  const inCell = state.stack.includes('tableCell');
  const siblings = (parent?.children ?? []) as Nodes[];
  const previous = siblings[siblings.indexOf(node) - 1];
  const spans = inLink
    ? []
    : autolinkSpans(node.value).filter(
        (s) => !(inCell && node.value.slice(s.start, s.end).includes('|')),
      );
  if (spans.length === 0) {
    return afterClosingMarker(previous, node.value, escape(node.value, info.before, info.after));
  }
  const after = followedBy(state, info) + afterClosingMark(node, parent);
  let out = '';
  let at = 0;
  for (const span of spans) {
    const gap = node.value.slice(at, span.start);
    const gapBefore = out.slice(-1) || info.before;
    const text = node.value.slice(span.start, span.end);
    let written = escape(gap, gapBefore, text[0] ?? '');
    const rest = node.value.slice(span.end);
    // All that follows as written: the rest of this text, then the next node's first character
    // (a hard break's "\\" runs on a URL that ends this text).
    const next =
      (rest === '' ? '' : escape(rest, node.value[span.end - 1] ?? '', info.after)) + after;
    const before = out + written === '' ? info.before : out + written;
    if (bareAutolinkOk(text, before, next)) {
      written += text;
    } else {
      const link = explicitAutolink(text, span.url, parent, state, {
        ...info,
        before,
        after: next,
      });
      // The text before is escaped for what really follows it: "<" or "[", not the link's text
      // (a typed "\" before "<http://…>" must be written "\\", or it escapes the "<").
      written = escape(gap, gapBefore, link[0] ?? '') + link;
    }
    out += written;
    at = span.end;
  }
  out += escape(node.value.slice(at), out.slice(-1), info.after);
  return afterClosingMarker(previous, node.value, out);
}

/** A link that is exactly the autolink of its text is written as that text. */
export function writeLink(
  node: Link,
  parent: Parents | undefined,
  state: State,
  info: Info,
): string {
  const [only, ...rest] = node.children;
  // First in an emphasis, strong or strikethrough, what comes before is its marker (GFM reads a
  // literal autolink right after `*`, `_` or `~`), but the writer first peeks at this link's first
  // character with nothing before it to choose the markers: both must see the same character, or
  // the markers chosen cannot open (`a*<b@x.co>, a*` is not emphasis).
  const siblings = (parent?.children ?? []) as Nodes[];
  const afterMarker =
    (parent?.type === 'emphasis' || parent?.type === 'strong' || parent?.type === 'delete') &&
    siblings[0] === node;
  const previous = afterMarker ? '' : info.before;
  if (
    rest.length === 0 &&
    only?.type === 'text' &&
    !node.title &&
    // In a table cell a pipe must be escaped; a reader keeps the backslash of an escaped pipe in a
    // literal autolink (`http://x.com\|` links `http://x.com\|`), so such a text is written as is.
    !(state.stack.includes('tableCell') && /(?:^|[^\\])\|/u.test(only.value)) &&
    isLiteralAutolink(only.value, node.url, previous === '|' ? '' : previous.slice(-1))
  ) {
    // An e-mail address ends at the first character that cannot be in a domain, so one character
    // decides, except "." and "-": the address runs on through them when a letter or digit
    // follows (`a@b.co` then the text `.x.com` reads back as `a@b.co.x.com`), so what follows is
    // read from the siblings there. ("_" is escaped by the text handler, which ends the address.)
    const mail = node.url.startsWith('mailto:');
    // A URL runs on up to whitespace and drops trailing punctuation: it is written bare only when
    // what follows is such punctuation and then whitespace or the end (read from the siblings, as
    // one character is not enough: '"' then a hard break's "\\" would join the URL).
    const runsOn = /^[.-]/u.test(info.after);
    const following =
      mail && !runsOn
        ? followedBy(state, info)
        : followingText(node, parent, followedBy(state, info) + afterClosingMark(node, parent));
    // Last in an emphasis or strikethrough, its closing `*` or `~` follows: trailing punctuation
    // for a reader where whitespace or the end comes after it (`following` reads on past the mark).
    const closing =
      (parent?.type === 'emphasis' || parent?.type === 'strong' || parent?.type === 'delete') &&
      siblings.at(-1) === node;
    const safe =
      mail ||
      /^[?!.,:;'"]*(?:$|[\s<])/u.test(following) ||
      (closing && /^[*~]+[?!.,:;'"]*(?:$|[\s<])/u.test(following));
    // A "<" the text writer escapes ("<lp" is written "\<lp") puts a backslash right after the
    // URL, which a reader takes into it (GFM example 627, `www.commonmark.org/he<lp`).
    const escaped = /^<[!/?A-Za-z]/u.test(following) ? `\\${following}` : following;
    const after = safe ? escaped : 'x';
    // Right after another link (or a table cell's pipe) a reader's scan starts afresh.
    const afterLink = siblings[siblings.indexOf(node) - 1]?.type === 'link';
    const before = previous === '|' || afterLink ? '' : previous;
    return bareAutolinkOk(only.value, before, after)
      ? only.value
      : explicitAutolink(only.value, node.url, parent, state, info);
  }
  // `<text>` only where it reads back as a link (CommonMark is stricter than GFM about e-mail
  // domains) and holds no pipe in a table cell; else the resource form `[text](url)`.
  const text = only?.type === 'text' && rest.length === 0 ? only.value : null;
  const pipeInCell = state.stack.includes('tableCell') && (text ?? '').includes('|');
  if (text !== null && !node.title && (pipeInCell || !angleAutolinkOk(text, node.url))) {
    return resourceLink(node, parent, state, info);
  }
  return defaultHandlers.link(node, parent, state, info);
}

/**
 * The text that follows `node` among its siblings, as far as it is plain text: text values as
 * they are, "\\" for a hard break, "x" for anything else (it may start with any character);
 * `after` (the parent's next character) when nothing follows inside the parent.
 */
function followingText(node: Nodes, parent: Parents | undefined, after: string): string {
  const siblings = (parent?.children ?? []) as Nodes[];
  let out = '';
  for (const next of siblings.slice(siblings.indexOf(node) + 1)) {
    if (next.type === 'text') {
      out += next.value;
      if (/\s/u.test(next.value)) return out;
      continue;
    }
    // A hard break right after a literal autolink is written as two spaces (`writeBreak`).
    if (next.type === 'break') return out + (out === '' ? ' ' : '\\');
    return `${out}x`;
  }
  return out + after;
}

/** Whether the phrasing before `node` in `parent` ends with a literal autolink. */
function afterAutolink(node: Nodes, parent: Parents | undefined): boolean {
  const siblings = (parent?.children ?? []) as Nodes[];
  const previous = siblings[siblings.indexOf(node) - 1];
  if (previous?.type === 'link') return true;
  if (previous?.type !== 'text') return false;
  const last = autolinkSpans(previous.value).at(-1);
  return last !== undefined && last.end === previous.value.length;
}

/**
 * A hard line break right after a typed URL: the usual backslash form would be read as part of
 * the URL (`https://x.com\`), so it is written as two trailing spaces there.
 */
export function writeBreak(base: Handle): Handle {
  return (node: Break, parent: Parents | undefined, state: State, info: Info) =>
    afterAutolink(node, parent) ? '  \n' : base(node, parent, state, info);
}

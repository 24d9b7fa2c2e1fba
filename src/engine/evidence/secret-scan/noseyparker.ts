/**
 * Nosey Parker's published rule set (Apache-2.0), loaded as data from `noseyparker-rules.json`
 * (made by scripts/noseyparker-rules.mjs) beside gitleaks' rules: vendor tokens whose prefix is
 * the only clue (`sgp_…`, `tvly-…`, `ya29.…`), webhook URLs that are themselves the secret,
 * PuTTY private keys. A rule's last capture group is the secret.
 *
 * Patterns are Rust regex. `(?x)` (whitespace and `#` comments ignored) is undone here, inline
 * flags become the pattern's flags, as gitleaks.ts does for Go. Nosey Parker has no keyword
 * list; a literal every match must contain (`sgp_`, `hooks.slack.com`) is found in the pattern
 * and used as one, so a text without it costs one `includes`.
 */
import data from './noseyparker-rules.json';

interface RuleData {
  id: string;
  name: string;
  pattern: string;
  categories: string[];
}

export interface NoseyParkerRule {
  id: string;
  name: string;
  regex: RegExp;
  /** A lower-case literal every match holds, or null when none is certain. */
  anchor: string | null;
}

/**
 * The rules taken: those Nosey Parker files as secrets. Left out are its identifiers (bucket
 * names, ARNs, client ids: not secrets to hide) and its generic rules (`password = …`), which
 * stand where this app's own field and header rules and gitleaks' generic rule stand.
 */
function taken(rule: RuleData): boolean {
  return (
    rule.categories.includes('secret') &&
    !rule.categories.includes('generic') &&
    !COVERED.test(rule.id)
  );
}

/**
 * Covered here already, with the allowances secretlint's fixtures expect: passwords in database
 * URLs (the URL credential rule and the preset, which know `user:password@` placeholders) and
 * OpenAI keys (the preset, which knows its documented dummy keys).
 */
const COVERED = /^np\.(?:mongodb|postgres|odbc|openai)\./;

/** `Slack Webhook` → `slack-webhook`: the kind written in `[REDACTED:<kind>]`. */
export function kindOfRule(rule: Pick<NoseyParkerRule, 'name'>): string {
  return rule.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Rust's `(?x)`: unescaped whitespace is ignored everywhere, `#` starts a comment outside `[…]`. */
function unextend(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] ?? '';
    if (c === '\\') {
      out += c + (source[i + 1] ?? '');
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      if (!/\s/.test(c)) out += c;
      continue;
    }
    if (c === '[') inClass = true;
    if (c === '#') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (!/\s/.test(c)) out += c;
  }
  return out;
}

/** Rust regex → JS: flag groups become flags, `\A`/`\z` anchors, POSIX classes spelled out. */
export function rustRegExp(source: string): RegExp {
  let flags = 'dg';
  // `(?# … )` is a comment (PCRE, as Nosey Parker's matcher reads it).
  let body = source.replace(/\(\?#[^)]*\)/g, '');
  const leading = /^\(\?([a-z]+)\)/.exec(body);
  const all = [...body.matchAll(/\(\?([a-z]+)\)/g)].map((m) => m[1] ?? '').join('');
  if (/x/.test(leading?.[1] ?? '') || /x/.test(all)) body = unextend(body);
  if (/i/.test(all) || /\(\?[a-z]*i[a-z]*:/.test(body)) flags += 'i';
  if (/s/.test(all)) flags += 's';
  if (/m/.test(all)) flags += 'm';
  body = body
    .replace(/\(\?[a-z]+\)/g, '')
    .replace(/\(\?-?[a-z]+:/g, '(?:')
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$')
    .replace(/\[:alnum:\]/g, 'a-zA-Z0-9')
    .replace(/\[:alpha:\]/g, 'a-zA-Z')
    .replace(/\[:digit:\]/g, '0-9')
    .replace(/\[:xdigit:\]/g, '0-9a-fA-F')
    .replace(/\[:upper:\]/g, 'A-Z')
    .replace(/\[:lower:\]/g, 'a-z')
    .replace(/\[:space:\]/g, '\\s');
  try {
    return new RegExp(body, `${flags}u`);
  } catch {
    return new RegExp(body, flags);
  }
}

/** Marks a place in a pattern where no certain literal is (no pattern holds it). */
const GAP = '\u00a6';
const CLASS = /\[(?:\\.|[^\]\\])*\][?*+]?(?:\{[\d,]*\})?/g;

/**
 * The longest literal run every match must hold: groups with alternatives and optional parts
 * are dropped, then runs of plain characters are read between the rest. None at all when the
 * pattern alternates at its top level.
 */
export function anchorOf(source: string): string | null {
  let body = source;
  // Innermost groups first: one with alternatives, or an optional one, is no certain literal.
  for (let i = 0; i < 20; i++) {
    const next = body.replace(
      /\((?:\?[^()]*?:)?((?:\\.|[^()\\])*)\)([?*]|\{0,?\d*\})?/g,
      (_m, inner: string, q?: string) =>
        q || /(?<!\\)\|/.test(inner.replace(CLASS, '')) ? GAP : ` ${inner} `,
    );
    if (next === body) break;
    body = next;
  }
  if (/(?<!\\)\|/.test(body.replace(CLASS, ''))) return null;
  const literal = body
    // Classes, escapes that are no literal, and a character made optional end a run.
    .replace(CLASS, GAP)
    .replace(/\\[bBsSdDwWntrfvpP](?:\{[^}]*\})?[?*+]?(?:\{[\d,]*\})?/g, GAP)
    .replace(/(?:\\.|[^\\])(?:[?*]|\{0,?\d*\})/g, GAP)
    .match(/(?:\\[^a-zA-Z0-9]|[A-Za-z0-9_\-:/@=&%~,;'"<>!#`])+/g);
  const best = (literal ?? [])
    .map((r) => r.replace(/\\([^a-zA-Z0-9])/g, '$1'))
    .sort((a, b) => b.length - a.length)[0];
  return best && best.length >= 3 ? best.toLowerCase() : null;
}

function compile(rule: RuleData): NoseyParkerRule | null {
  try {
    const text = rule.pattern.replace(/\(\?#[^)]*\)/g, '');
    const body = /\(\?[a-z]*x[a-z]*\)/.test(text) ? unextend(text) : text;
    return {
      id: rule.id,
      name: rule.name,
      regex: rustRegExp(rule.pattern),
      anchor: anchorOf(body),
    };
  } catch {
    return null; // a construct JS cannot express: counted by `noseyParkerRuleCount`
  }
}

const chosen = (data.rules as RuleData[]).filter(taken);
const compiled = chosen.map(compile);
export const NOSEYPARKER_RULES: NoseyParkerRule[] = compiled.filter(
  (r): r is NoseyParkerRule => r !== null,
);
export const NOSEYPARKER_SOURCE = data.source;
/** How many of the rules taken compiled, of how many; and how many were left out. */
export const noseyParkerRuleCount = {
  compiled: NOSEYPARKER_RULES.length,
  total: compiled.length,
  leftOut: data.rules.length - chosen.length,
};

export interface NoseyParkerHit {
  rule: NoseyParkerRule;
  start: number;
  end: number;
}

/** Every rule whose anchor occurs; the first non-empty capture group is the secret. */
export function noseyParkerScan(text: string): NoseyParkerHit[] {
  const lower = text.toLowerCase();
  const hits: NoseyParkerHit[] = [];
  for (const rule of NOSEYPARKER_RULES) {
    if (rule.anchor !== null && !lower.includes(rule.anchor)) continue;
    rule.regex.lastIndex = 0;
    for (const m of text.matchAll(rule.regex)) {
      const spans = m.indices ?? [];
      // With several groups (a user and a password, a key id and its secret), the secret is
      // the last one.
      const group = spans.findLastIndex((s, i) => i > 0 && s !== undefined && s[1] > s[0]);
      const [start, end] =
        group > 0 ? (spans[group] ?? [m.index, m.index]) : [m.index, m.index + m[0].length];
      if (end > start) hits.push({ rule, start, end });
    }
  }
  return hits;
}

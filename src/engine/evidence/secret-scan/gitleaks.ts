/**
 * gitleaks' published rule set (config/gitleaks.toml, MIT), loaded as data from
 * `gitleaks-rules.json` (made by scripts/gitleaks-rules.mjs) and run the way gitleaks runs it:
 * a rule is tried only when its keywords occur, its secret group must pass the rule's entropy
 * floor, and the rule's and the global allowlists (regexes, stopwords) drop known non-secrets.
 *
 * The regexes are Go RE2. JS (Node 20) has no inline flag groups, so a pattern with `(?i)` or
 * `(?i:…)` anywhere is compiled case-insensitive as a whole: a little wider than gitleaks, never
 * narrower, which for a scan that guards what leaves is the safe side.
 */
import data from './gitleaks-rules.json';

interface Allowlist {
  condition: string;
  regexTarget: string;
  regexes: string[];
  stopwords: string[];
}

interface RuleData {
  id: string;
  description: string;
  regex: string;
  secretGroup?: number;
  entropy?: number;
  keywords: string[];
  allowlists: Allowlist[];
}

interface CompiledAllowlist {
  and: boolean;
  target: 'secret' | 'match' | 'line';
  regexes: RegExp[];
  stopwords: string[];
}

export interface GitleaksRule {
  id: string;
  description: string;
  regex: RegExp;
  secretGroup: number;
  entropy: number;
  keywords: string[];
  allowlists: CompiledAllowlist[];
}

/** Go RE2 → JS: flag groups become flags, `(?P<n>` a named group, `\z` the input's end. */
export function goRegExp(source: string, extraFlags = ''): RegExp {
  let flags = extraFlags;
  if (/\(\?[a-z]*i[a-z]*[:)]/.test(source)) flags += 'i';
  if (/\(\?[a-z]*s[a-z]*[:)]/.test(source)) flags += 's';
  const js = source
    .replace(/\(\?[ims]+\)/g, '')
    .replace(/\(\?-?[ims]+:/g, '(?:')
    .replace(/\(\?P</g, '(?<')
    .replace(/\\z/g, '$')
    .replace(/\[:alnum:\]/g, 'a-zA-Z0-9')
    .replace(/\[:alpha:\]/g, 'a-zA-Z')
    .replace(/\[:digit:\]/g, '0-9');
  return new RegExp(js, [...new Set(flags)].join(''));
}

function compileAllowlist(a: Allowlist): CompiledAllowlist {
  const target = a.regexTarget === 'match' || a.regexTarget === 'line' ? a.regexTarget : 'secret';
  return {
    and: a.condition.toUpperCase() === 'AND',
    target,
    regexes: a.regexes.map((r) => goRegExp(r)),
    stopwords: a.stopwords.map((w) => w.toLowerCase()),
  };
}

function compile(rule: RuleData): GitleaksRule | null {
  try {
    return {
      id: rule.id,
      description: rule.description,
      regex: goRegExp(rule.regex, 'g'),
      secretGroup: rule.secretGroup ?? 0,
      entropy: rule.entropy ?? 0,
      keywords: rule.keywords.map((k) => k.toLowerCase()),
      allowlists: rule.allowlists.map(compileAllowlist),
    };
  } catch {
    return null; // a construct JS cannot express: counted by `gitleaksRuleCount`
  }
}

const compiled = (data.rules as RuleData[]).map(compile);
export const GITLEAKS_RULES: GitleaksRule[] = compiled.filter((r): r is GitleaksRule => !!r);
export const GITLEAKS_SOURCE = data.source;
/** How many of gitleaks' rules compiled, of how many it publishes. */
export const gitleaksRuleCount = { compiled: GITLEAKS_RULES.length, total: compiled.length };
export const GLOBAL_ALLOWLIST = compileAllowlist(data.allowlist);

/** Shannon entropy in bits per character, as gitleaks measures a secret. */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function allowed(list: CompiledAllowlist, secret: string, match: string, line: string): boolean {
  const target = list.target === 'match' ? match : list.target === 'line' ? line : secret;
  const byRegex = list.regexes.length > 0 && list.regexes.some((r) => r.test(target));
  const lower = secret.toLowerCase();
  const byWord = list.stopwords.length > 0 && list.stopwords.some((w) => lower.includes(w));
  if (list.and) {
    return (
      (list.regexes.length === 0 || byRegex) &&
      (list.stopwords.length === 0 || byWord) &&
      list.regexes.length + list.stopwords.length > 0
    );
  }
  return byRegex || byWord;
}

/**
 * gitleaks' generic rule allows a value of letters, `_`, `.` and `-` alone (`not_a_real_token`):
 * a word, not a key. Its secret-target allowlist, for the rules here that also read a value by its
 * name (a `token=` field) and so stand where the generic rule stands.
 */
export function genericValueAllowed(secret: string): boolean {
  const generic = GITLEAKS_RULES.find((r) => r.id === 'generic-api-key');
  return (generic?.allowlists ?? []).some(
    (a) => a.target === 'secret' && a.regexes.some((r) => r.test(secret)),
  );
}

/**
 * gitleaks decodes base64 before it judges (its `--max-decode-depth`): a value that decodes to
 * readable words (`ZHVtbXkgdGV4dCBkYXRh…` is "dummy text data…") is judged as those words.
 */
function decodedProse(secret: string): string | null {
  if (!/^[A-Za-z0-9+/]{12,}={0,2}$/.test(secret)) return null;
  const text = Buffer.from(secret, 'base64').toString('latin1');
  return /^[\x20-\x7e]+$/.test(text) && /[a-z]{3,} [a-z]{3,}/i.test(text) ? text : null;
}

/** Whether this whole value is what gitleaks' rule `id` finds (`aws-access-token`: `AKIA…`). */
export function wholeMatch(id: string, value: string): boolean {
  const rule = GITLEAKS_RULES.find((r) => r.id === id);
  if (!rule) return false;
  return [...value.matchAll(rule.regex)].some((m) => m[0] === value);
}

/** Whether gitleaks' global allowlist calls this value a known non-secret (`${VAR}`, `true`…). */
export function globallyAllowed(secret: string): boolean {
  return allowed(GLOBAL_ALLOWLIST, secret, secret, secret);
}

export interface GitleaksHit {
  rule: GitleaksRule;
  /** The secret's range in the text. */
  start: number;
  end: number;
}

function lineAround(text: string, start: number, end: number): string {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const to = text.indexOf('\n', end);
  return text.slice(from, to === -1 ? text.length : to);
}

/** Runs every rule whose keywords occur in the text. */
export function gitleaksScan(text: string): GitleaksHit[] {
  const lower = text.toLowerCase();
  const hits: GitleaksHit[] = [];
  for (const rule of GITLEAKS_RULES) {
    if (rule.keywords.length > 0 && !rule.keywords.some((k) => lower.includes(k))) continue;
    rule.regex.lastIndex = 0;
    for (const m of text.matchAll(rule.regex)) {
      const group =
        rule.secretGroup > 0
          ? rule.secretGroup
          : m.findIndex((g, i) => i > 0 && g !== undefined && g !== '');
      const secret = group > 0 ? (m[group] ?? '') : m[0];
      if (secret === '') continue;
      const offset = group > 0 ? m[0].indexOf(secret) : 0;
      const start = m.index + Math.max(0, offset);
      const end = start + secret.length;
      if (rule.entropy > 0 && shannonEntropy(secret) < rule.entropy) continue;
      const line = lineAround(text, start, end);
      if (rule.allowlists.some((a) => allowed(a, secret, m[0], line))) continue;
      const prose = decodedProse(secret);
      if (prose !== null && rule.allowlists.some((a) => allowed(a, prose, prose, prose))) continue;
      if (globallyAllowed(secret)) continue;
      hits.push({ rule, start, end });
    }
  }
  return hits;
}

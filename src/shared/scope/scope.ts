/**
 * The scope guard (issue 13, part 3): targets read from a program's `scope` and `exclusions`
 * Markdown (hosts, wildcard domains, URLs, IP addresses and ranges, mobile app ids), and what the
 * asset a researcher types matches. Scope text is prose, so the answer is a hint, never a block.
 * Host names are checked against the public suffix list (tldts), IP ranges with ipaddr.js.
 */
import ipaddr from 'ipaddr.js';
import { parse as parseDomain } from 'tldts';

export type ScopeTarget =
  | { type: 'host'; host: string }
  | { type: 'wildcard'; domain: string }
  | { type: 'url'; host: string; path: string }
  | { type: 'ip'; address: string }
  | { type: 'cidr'; address: string; prefix: number }
  | { type: 'app'; id: string };

export interface ScopeLine {
  /** The line as a person reads it (list marker and Markdown punctuation removed). */
  text: string;
  targets: ScopeTarget[];
}

export interface ScopeRules {
  scope: ScopeLine[];
  exclusions: ScopeLine[];
}

export type ScopeMatch =
  | { status: 'in-scope'; line: string; target: ScopeTarget }
  | { status: 'excluded'; line: string; target: ScopeTarget }
  /** The asset names a target, and no scope line covers it. */
  | { status: 'out-of-scope' }
  /** Nothing to compare: the asset names no host, URL, IP or app, or the scope lists none. */
  | { status: 'unknown' };

const URL_RE = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>()[\]`'"|]+/gi;
const WILDCARD_RE = /(?<![\w.-])\*\.((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63})/gi;
const CIDR_RE =
  /(?<![\w.:])((?:\d{1,3}\.){3}\d{1,3}|[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7})\/(\d{1,3})(?![\w.])/gi;
const IPV4_RE = /(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.]|\/\d)/g;
const HOST_RE =
  /(?<![\w.*@/-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{1,62})(?![\w-]|\.\w)/gi;
/** A store listing names the app: Google Play's `id=` and the App Store's `id123456789`. */
const PLAY_ID_RE =
  /play\.google\.com\/store\/apps\/details\?(?:[^\s#]*&)?id=([a-z][\w]*(?:\.[a-z][\w]*)+)/gi;
const APPLE_ID_RE = /apps\.apple\.com\/[^\s]*\/(id\d{6,})/gi;
const APP_WORDS = /\b(app|apps|android|ios|ipados|bundle|package|apk|ipa|mobile)\b/i;
/** Reverse-DNS app ids start with a top-level domain; these are the usual ones. */
const APP_ID_RE =
  /(?<![\w.-])((?:com|org|net|io|de|uk|fr|co|app|me|tv|ch|nl|se|jp|in|br|au|ca|dev)\.[a-z][\w-]*(?:\.[a-z][\w-]*)+)(?![\w-])/gi;

function cleanLine(line: string): string {
  return line
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/`|\*\*|__|\*(?!\.)/g, '')
    .replace(/^\|\s*|\s*\|$/g, '')
    .replace(/\s*\|\s*/g, ' · ')
    .trim()
    .slice(0, 200);
}

/**
 * Top-level names reserved for documentation, tests and private networks (RFC 2606, RFC 6761,
 * ICANN's `.internal`): not in the public suffix list, yet real in program scopes.
 */
const SPECIAL_USE = new Set(['example', 'test', 'invalid', 'localhost', 'local', 'internal']);

/** A host name: a public suffix (tldts) or a special-use one; `report.pdf` is neither. */
function isHost(name: string): boolean {
  const parsed = parseDomain(name);
  if (parsed.domain !== null && (parsed.isIcann === true || parsed.isPrivate === true)) return true;
  const labels = name.split('.');
  return labels.length >= 2 && SPECIAL_USE.has(labels[labels.length - 1] ?? '');
}

function urlTarget(raw: string): ScopeTarget | null {
  try {
    const url = new URL(raw.replace(/[.,;:!?]+$/, ''));
    if (!url.hostname) return null;
    const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
    if (host.startsWith('*.')) return { type: 'wildcard', domain: host.slice(2) };
    const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
    return { type: 'url', host, path };
  } catch {
    return null;
  }
}

/** Every target a piece of text names, each once. Never throws. */
export function extractTargets(text: string): ScopeTarget[] {
  const out: ScopeTarget[] = [];
  const add = (t: ScopeTarget | null): void => {
    if (t && !out.some((o) => JSON.stringify(o) === JSON.stringify(t))) out.push(t);
  };
  let rest = text;
  const take = (re: RegExp, each: (m: RegExpMatchArray) => void): void => {
    for (const m of rest.matchAll(re)) each(m);
    rest = rest.replace(re, ' ');
  };
  take(PLAY_ID_RE, (m) => add({ type: 'app', id: (m[1] ?? '').toLowerCase() }));
  take(APPLE_ID_RE, (m) => add({ type: 'app', id: (m[1] ?? '').toLowerCase() }));
  take(URL_RE, (m) => add(urlTarget(m[0])));
  take(WILDCARD_RE, (m) => {
    const domain = (m[1] ?? '').toLowerCase();
    if (isHost(`x.${domain}`)) add({ type: 'wildcard', domain });
  });
  take(CIDR_RE, (m) => {
    const address = m[1] ?? '';
    const prefix = Number(m[2]);
    if (ipaddr.isValid(address)) {
      const max = ipaddr.parse(address).kind() === 'ipv4' ? 32 : 128;
      if (prefix <= max) add({ type: 'cidr', address: ipaddr.parse(address).toString(), prefix });
    }
  });
  take(IPV4_RE, (m) => {
    if (ipaddr.IPv4.isValidFourPartDecimal(m[0])) add({ type: 'ip', address: m[0] });
  });
  if (APP_WORDS.test(text)) {
    take(APP_ID_RE, (m) => add({ type: 'app', id: (m[1] ?? '').toLowerCase() }));
  }
  take(HOST_RE, (m) => {
    const host = (m[1] ?? '').toLowerCase();
    if (isHost(host)) add({ type: 'host', host });
  });
  return out;
}

export function parseScope(scope: string, exclusions: string): ScopeRules {
  const lines = (markdown: string): ScopeLine[] =>
    markdown
      .split(/\r?\n/)
      .map((line) => ({ text: cleanLine(line), targets: extractTargets(line) }))
      .filter((line) => line.targets.length > 0);
  return { scope: lines(scope), exclusions: lines(exclusions) };
}

/** How specifically `rule` covers `asset` (0: not at all); the more specific line wins. */
export function specificity(rule: ScopeTarget, asset: ScopeTarget): number {
  const hostOf = (t: ScopeTarget): string | null =>
    t.type === 'host' || t.type === 'url' ? t.host : null;
  const assetHost = hostOf(asset);
  switch (rule.type) {
    case 'host':
      return assetHost === rule.host ? 100 : 0;
    case 'url':
      if (assetHost !== rule.host) return 0;
      if (!rule.path) return 100;
      if (asset.type !== 'url') return 0;
      return asset.path === rule.path || asset.path.startsWith(`${rule.path}/`)
        ? 100 + rule.path.length
        : 0;
    case 'wildcard': {
      const host = assetHost ?? (asset.type === 'wildcard' ? `x.${asset.domain}` : null);
      return host?.endsWith(`.${rule.domain}`) ? 10 + rule.domain.split('.').length : 0;
    }
    case 'ip':
    case 'cidr': {
      const address = asset.type === 'ip' ? asset.address : assetHost;
      if (!address || !ipaddr.isValid(address)) return 0;
      const ip = ipaddr.parse(address);
      if (rule.type === 'ip')
        return ip.toString() === ipaddr.parse(rule.address).toString() ? 100 : 0;
      const range = ipaddr.parse(rule.address);
      return ip.kind() === range.kind() && ip.match(range, rule.prefix) ? 1 + rule.prefix / 10 : 0;
    }
    case 'app':
      return asset.type === 'app' && asset.id === rule.id ? 100 : 0;
  }
}

function best(
  lines: ScopeLine[],
  asset: ScopeTarget,
): { line: ScopeLine; target: ScopeTarget; score: number } | null {
  let found: { line: ScopeLine; target: ScopeTarget; score: number } | null = null;
  for (const line of lines) {
    for (const target of line.targets) {
      const score = specificity(target, asset);
      if (score > 0 && (!found || score > found.score)) found = { line, target, score };
    }
  }
  return found;
}

/**
 * What the asset matches. An exclusion wins over a scope line that is no more specific
 * (`*.example.com` in scope, `legacy.example.com` excluded: excluded).
 */
export function matchAsset(rules: ScopeRules, asset: string): ScopeMatch {
  const targets = extractTargets(asset);
  if (targets.length === 0 || rules.scope.length + rules.exclusions.length === 0)
    return { status: 'unknown' };
  let inScope: ScopeMatch | null = null;
  for (const target of targets) {
    const included = best(rules.scope, target);
    const excluded = best(rules.exclusions, target);
    if (excluded && (!included || excluded.score >= included.score))
      return { status: 'excluded', line: excluded.line.text, target: excluded.target };
    if (included && !inScope)
      inScope = { status: 'in-scope', line: included.line.text, target: included.target };
  }
  if (inScope) return inScope;
  return rules.scope.length > 0 ? { status: 'out-of-scope' } : { status: 'unknown' };
}

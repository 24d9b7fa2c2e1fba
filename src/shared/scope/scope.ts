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
  /** A `*` elsewhere in a name (`api-*.x.com`, `*x.com`, `*.x.*`), as written (ASCII form). */
  | { type: 'pattern'; pattern: string }
  | { type: 'url'; host: string; path: string }
  | { type: 'ip'; address: string }
  | { type: 'cidr'; address: string; prefix: number }
  /** An IPv4 range written first to last (`195.94.213.80 - 195.94.213.95`, `31.31.140.0-87`). */
  | { type: 'range'; first: string; last: string }
  | { type: 'app'; id: string }
  /** A cloud storage bucket, however it is written: `s3://b`, `b.s3.amazonaws.com`, `s3.amazonaws.com/b`. */
  | { type: 'bucket'; name: string };

export interface ScopeLine {
  /** The line as a person reads it (list marker and Markdown punctuation removed). */
  text: string;
  targets: ScopeTarget[];
}

/**
 * An exclusion of what the scope does not list (`Other subdomains of x.com`, `Any other
 * system than…`): a host a scope line lists is not what it excludes.
 */
const OTHERS = /^(?:\W*)other\b|\b(?:any|all)\s+other\b/i;
/**
 * An exclusion of something on a host, not of the host (`Third-party widgets on app.x.com`,
 * `PDF documents served on castor.x.com`): where a scope line lists that host, unclear.
 */
const PARTIAL =
  /\b(?:widgets?|documents?|pdfs?|pages?|files?|forms?|features?|plugins?|content|services related)\b[^.]*?\b(?:on|of|at|to)\b|\b(?:vulnerabilit(?:y|ies)|xss|cross[- ]site|issues|findings|attacks|reports)\b/i;

export interface ScopeRules {
  scope: ScopeLine[];
  exclusions: ScopeLine[];
  /**
   * Scope lines that name no target yet may cover one (`Any asset owned by Acme`, `Other
   * subsidiaries`): an asset no target covers is then not plainly out of scope.
   */
  unclear?: ScopeLine[];
}

export type ScopeMatch =
  | { status: 'in-scope'; line: string; target: ScopeTarget }
  | { status: 'excluded'; line: string; target: ScopeTarget }
  /** The asset names a target, and no scope line covers it. */
  | { status: 'out-of-scope' }
  /**
   * The policy does not settle it: the line that matches qualifies itself (`except…`, `only…`),
   * a narrower scope line sits inside a wider exclusion, or a line that names no target may cover
   * the asset. The researcher reads the policy; the hint says which line to read.
   */
  | { status: 'unsure'; line: string; reason: string }
  /** Nothing to compare: the asset names no host, URL, IP or app, or the scope lists none. */
  | { status: 'unknown' };

const URL_RE = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>()[\]`'"|]+/gi;
/** One label of a name, in Unicode (IDN) or ASCII. */
const LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?`;
/** A path after a name written without a scheme (`*.x.com/shop/*`). */
const PATH = String.raw`(\/(?:\[[\w-]{1,30}\]|[^\s<>()[\]\x60'"|,])*)?`;
const WILDCARD_RE = new RegExp(
  String.raw`(?<![\p{L}\p{N}.*-])\*\.((?:${LABEL}\.)+[\p{L}\p{N}-]{2,63})\.?(?![\p{L}\p{N}*-]|\.[\p{L}\p{N}*])${PATH}`,
  'giu',
);
/** A name with `*` inside a label or after the domain: `vcc-*.8x8.com`, `*x.com`, `*.x.*`. */
const PATTERN_RE = new RegExp(
  String.raw`(?<![\p{L}\p{N}.*/@-])(?=[\p{L}\p{N}.-]*\*)((?:[\p{L}\p{N}*-]+\.)+[\p{L}\p{N}*-]+)(?![\p{L}\p{N}*-]|\.[\p{L}\p{N}*])${PATH}`,
  'giu',
);
/** A host with a path and no scheme, as programs list them: `eu.fs.viq.zebra.com/public-api`. */
const HOST_PATH_RE = new RegExp(
  String.raw`(?<![\p{L}\p{N}.*@\/:-])((?:${LABEL}\.)+\p{L}[\p{L}\p{N}-]{1,62})\.?(?::\d{1,5})?(\/(?:\[[\w-]{1,30}\]|[^\s<>()[\]\x60'"|,])*)`,
  'giu',
);
/** Reverse-DNS ids that start with these are app ids, not hosts (`com.squareup.cash`). */
const APP_FIRST = /^(?:com|org|net|io)\./;
const CIDR_RE =
  /(?<![\w.:])((?:\d{1,3}\.){3}\d{1,3}|[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7})\/(\d{1,3})(?![\w.])/gi;
const IPV4_RE = /(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.]|\/\d)/g;
const IPV6_RE = /(?<![\w.:])\[?((?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4})\]?(?![\w.:]|\/\d)/gi;
const HOST_RE = new RegExp(
  String.raw`(?<![\p{L}\p{N}_.*@\/-])((?:${LABEL}\.)+\p{L}[\p{L}\p{N}-]{1,62})\.?(?![\p{L}\p{N}_-]|\.[\p{L}\p{N}])`,
  'giu',
);
/** A store listing names the app: Google Play's `id=` and the App Store's `id123456789`. */
const PLAY_ID_RE =
  /play\.google\.com\/store\/apps\/details\?(?:[^\s#]*&)?id=([a-z][\w]*(?:\.[a-z][\w]*)+)/gi;
const APPLE_ID_RE = /(?:apps|itunes)\.apple\.com\/[^\s]*?\/?(id\d{6,})/gi;
/** A bare App Store id, when the line says it is an app; `1018340690` is `id1018340690`. */
const BARE_APPLE_ID_RE = /(?<![\w/.-])(?:id)?(\d{8,11})(?![\w.-])/gi;
/** A line (or an asset) that is an App Store id and nothing else: `1018340690`, `id1018340690`. */
const ONLY_APPLE_ID_RE = /^\s*(?:id)?(\d{8,11})\s*$/i;

/** The one spelling of an App Store id every reader compares: `id` and the digits. */
function appleId(digits: string): ScopeTarget {
  return { type: 'app', id: `id${digits}` };
}
/** Words that make a line about an app; `app.circle.com` is a host, not such a word. */
const APP_WORDS =
  /(?<![\w.-])(app|apps|android|ios|ipados|iphone|ipad|bundle|package|apk|ipa|mobile)(?![\w.-])/i;
/** Reverse-DNS app ids start with a top-level domain; these are the usual ones. */
const APP_ID_RE =
  /(?<![\w.-])((?:com|org|net|io|de|uk|fr|co|app|me|tv|ch|nl|se|jp|in|br|au|ca|dev)\.[a-z][\w-]*(?:\.[a-z][\w-]*)+)(?![\w-])/gi;

/** `ov-XX.x.ch`, `bugcrowd-pam-###.x.com`: a run of `X` or `#` after a hyphen is a number. */
const NUMBER_PLACEHOLDER = /(?<=[\p{L}\p{N}]-)(?:X{2,}|#{2,})(?=[.-])/gu;
/** `*.doctolib.(fr|de|it)`: one name per alternative. */
const ALTERNATION_RE =
  /([\p{L}\p{N}*.-]*)\(([\p{L}\p{N}-]+(?:\|[\p{L}\p{N}-]+)+)\)([\p{L}\p{N}.-]*)/gu;
/** `community.x.com | .fr | .de`: the same name under other top-level domains. */
const SIBLING_TLDS_RE =
  /([\p{L}\p{N}*-]+(?:\.[\p{L}\p{N}*-]+)*\.)([a-z]{2,})((?:\s*\|\s*\.[a-z]{2,}\b)+)/gu;
/** `Other subdomains of x.com`, `All subdomains on x.com`: the wildcard `*.x.com`. */
const SUBDOMAINS_OF =
  /\bsub-?domains?\s+(?:of|on|under)\s+(?:the\s+)?(?:domains?\s+)?(?=[\p{L}\p{N}])/giu;
/** Two IPv4 addresses joined by a hyphen, or the last number of the second alone. */
const IP_RANGE_RE =
  /(?<![\w.])((?:\d{1,3}\.){3}\d{1,3})\s*[-–]\s*((?:\d{1,3}\.){3}\d{1,3}|\d{1,3})(?![\w.]|\/\d)/g;

function ipv4Number(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

const NAME_PLACEHOLDER =
  /(?<=[\p{L}\p{N}-]\.?)(?:%\w{1,30}%|<[\w-]{1,30}>|\[\.?[\w-]{1,30}\.?\]|\([\w*-]{1,30}\))(?=[\p{L}\p{N}.-]|$|\s|\/)/gu;

function cleanLine(line: string): string {
  return (
    line
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
      .replace(/`|\*\*|__/g, '')
      // `*emphasis*` loses its stars; a `*` in a name (`*cms.x.com`, `www.x.*`) stays.
      .replace(/(^|\s)\*([^*\s](?:[^*]*[^*\s])?)\*(?=\s|$|[.,;:])/g, '$1$2')
      .replace(/^\|\s*|\s*\|$/g, '')
      .replace(/\s*\|\s*/g, ' · ')
      .trim()
      .slice(0, 200)
  );
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

/** A name as compared: lower case, ASCII (punycode) form, no trailing dot. */
export function asciiName(name: string): string {
  const lower = name.toLowerCase().replace(/\.+$/, '');
  if (/^[\x20-\x7e]*$/.test(lower)) return lower;
  try {
    // `*` is kept by the URL parser, so a wildcard name converts label by label too.
    return new URL(`http://${lower}/`).hostname;
  } catch {
    return lower;
  }
}

/** `/*`, `*` and `/` at the end of a listed path mean "this path and below". */
function pathPrefix(path: string): string {
  // A query or fragment in a listed path narrows a page the path already names: the path is read.
  return (
    path
      .replace(/[?#].*$/, '')
      // `/*` at the end is "and below"; `blog*` keeps its `*`, a glob within the segment.
      .replace(/(?:\/\*+)+$/, '')
      .replace(/\/+$/, '')
  );
}

/**
 * Whether a listed path covers the asset's path: the same path or one below it. A segment in
 * brackets (`cm.com/[locale]/app/*`) is a placeholder the program fills in: any one segment.
 */
function pathCovers(listed: string, path: string): boolean {
  if (!/[[*]/.test(listed)) return path === listed || path.startsWith(`${listed}/`);
  // A `*` inside a path (`/users/*.json`, `/enquiries/*/x`) stands for any run within a segment.
  const body = listed
    .split('/')
    .map((part) =>
      /^\[[\w-]+\]$/.test(part)
        ? '[^/]+'
        : part
            .split('*')
            .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('[^/]*'),
    )
    .join('/');
  return new RegExp(`^${body}(?:/|$)`).test(path);
}

/**
 * Hosts whose first path segments are an account and a repository, names the host compares
 * without case (`github.com/ValveSoftware` is `github.com/valvesoftware`).
 */
const CODE_HOSTS = new Set([
  'github.com',
  'www.github.com',
  'gitlab.com',
  'www.gitlab.com',
  'bitbucket.org',
  'www.bitbucket.org',
  'codeberg.org',
  'hub.docker.com',
  'www.npmjs.com',
  'pypi.org',
]);

/**
 * The S3 bucket a host and path name, in every form AWS serves it: virtual-hosted
 * (`b.s3.amazonaws.com`, `b.s3.eu-west-1.amazonaws.com`, `b.s3-eu-west-1.amazonaws.com`,
 * `b.s3.dualstack.us-east-1.amazonaws.com`), path-style (`s3.amazonaws.com/b/key`) and `s3://b`.
 */
function bucketOf(scheme: string, host: string, path: string): string | null {
  if (scheme === 's3') return host.replace(/\*$/, '') || null;
  const virtual = /^(.+)\.s3(?:[.-][a-z0-9-]+)*\.amazonaws\.com(?:\.cn)?$/.exec(host);
  if (virtual?.[1] && !virtual[1].includes('*')) return virtual[1];
  if (/^s3(?:[.-][a-z0-9-]+)*\.amazonaws\.com(?:\.cn)?$/.test(host)) {
    const first = /^\/([a-z0-9][a-z0-9.-]{1,62})(?:\/|$)/.exec(path);
    return first?.[1] ?? null;
  }
  return null;
}

/** A name and its path as the targets they are: the host (or pattern) and, if any, its bucket. */
function nameTargets(name: string, path = '', scheme = ''): ScopeTarget[] {
  const host = asciiName(name).replace(/^\[|\]$/g, '');
  const bucket = bucketOf(scheme.toLowerCase(), host, path);
  if (scheme.toLowerCase() === 's3') return bucket ? [{ type: 'bucket', name: bucket }] : [];
  const target = hostTarget(host, CODE_HOSTS.has(host) ? path.toLowerCase() : path);
  return [target, ...(bucket ? [{ type: 'bucket' as const, name: bucket }] : [])].filter(
    (t): t is ScopeTarget => t !== null,
  );
}

function hostTarget(name: string, path = ''): ScopeTarget | null {
  const host = asciiName(name).replace(/^\[|\]$/g, '');
  const prefix = pathPrefix(path);
  if (host.startsWith('*.') && !host.slice(2).includes('*')) {
    const domain = host.slice(2);
    return prefix ? { type: 'pattern', pattern: `${host}${prefix}` } : { type: 'wildcard', domain };
  }
  if (host.includes('*')) return { type: 'pattern', pattern: `${host}${prefix}` };
  return prefix ? { type: 'url', host, path: prefix } : { type: 'url', host, path: '' };
}

function urlTargets(raw: string): ScopeTarget[] {
  const text = raw.replace(/[.,;:!?]+$/, '');
  const m = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^/?#:]*)(?::\d*)?([^?#]*)/i.exec(
    text,
  );
  if (!m?.[2]) return [];
  return nameTargets(m[2], m[3] ?? '', m[1] ?? '');
}

/** A regex for a name pattern: `*` is any run of name characters (dots too, as a glob reads). */
function patternRegex(name: string): RegExp {
  // A trailing `.*` stands for the top-level domain (`.com`, `.co.uk`), not for any host.
  const tld = name.endsWith('.*');
  const body =
    (tld ? name.slice(0, -2) : name)
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[a-z0-9.-]*') + (tld ? '\\.([a-z0-9-]+(?:\\.[a-z0-9-]+)?)' : '');
  return new RegExp(`^${body}$`, 'i');
}

/**
 * A name matches a pattern; a trailing `.*` must be a real top-level domain (`.com`, `.co.uk`),
 * so `aqora.naiad.*` covers `aqora.naiad.co.uk` and not `aqora.naiad.evil.example`.
 */
function patternMatches(pattern: string, host: string): boolean {
  const m = patternRegex(pattern).exec(host);
  if (!m) return false;
  const tld = pattern.endsWith('.*') ? m[m.length - 1] : undefined;
  if (tld === undefined) return true;
  const parsed = parseDomain(`x.${tld}`);
  return parsed.publicSuffix === tld && parsed.isIcann === true;
}

/** Every target a piece of text names, each once. Never throws. */
export function extractTargets(text: string): ScopeTarget[] {
  const out: ScopeTarget[] = [];
  const add = (t: ScopeTarget | null): void => {
    if (t && !out.some((o) => JSON.stringify(o) === JSON.stringify(t))) out.push(t);
  };
  let rest = text
    // URLs joined by commas (`https://a.x.com/*,https://b.x.com/*`) are several URLs.
    .replace(/,(?=\s*[a-z][a-z0-9+.-]*:\/\/)/gi, ' ')
    // A placeholder inside a name (`bugcrowd-%username%-1.x.com`, `www.x.<country>`,
    // `ripe(1to87).x.net`, `analytics[.e2e].x.com`) is a part the program fills in: a `*`.
    .replace(NAME_PLACEHOLDER, '*')
    .replace(NUMBER_PLACEHOLDER, '*')
    // `*. myqcloud.com`: a space typed after the wildcard's dot.
    .replace(/(?<![\p{L}\p{N}])\*\.\s+(?=[\p{L}\p{N}])/gu, '*.')
    .replace(SUBDOMAINS_OF, '$&*.')
    .replace(ALTERNATION_RE, (_m, head: string, alts: string, tail: string) =>
      alts
        .split('|')
        .map((alt) => `${head}${alt}${tail}`)
        .join(' '),
    )
    .replace(SIBLING_TLDS_RE, (_m, head: string, tld: string, more: string) =>
      [
        tld,
        ...more
          .split('|')
          .map((t) => t.trim().slice(1))
          .filter(Boolean),
      ]
        .map((t) => `${head}${t}`)
        .join(' '),
    );
  const take = (re: RegExp, each: (m: RegExpMatchArray) => void): void => {
    for (const m of rest.matchAll(re)) each(m);
    rest = rest.replace(re, ' ');
  };
  take(PLAY_ID_RE, (m) => add({ type: 'app', id: (m[1] ?? '').toLowerCase() }));
  take(APPLE_ID_RE, (m) => add(appleId((m[1] ?? '').slice(2))));
  const onlyId = ONLY_APPLE_ID_RE.exec(cleanLine(text));
  if (onlyId) add(appleId(onlyId[1] ?? ''));
  take(URL_RE, (m) => urlTargets(m[0]).forEach(add));
  const aboutApps = APP_WORDS.test(text);
  if (aboutApps) {
    take(APP_ID_RE, (m) => add({ type: 'app', id: (m[1] ?? '').toLowerCase() }));
    take(BARE_APPLE_ID_RE, (m) => add(appleId(m[1] ?? '')));
  }
  take(IP_RANGE_RE, (m) => {
    const first = m[1] ?? '';
    const end = m[2] ?? '';
    const last = end.includes('.') ? end : first.replace(/\d+$/, end);
    if (
      ipaddr.IPv4.isValidFourPartDecimal(first) &&
      ipaddr.IPv4.isValidFourPartDecimal(last) &&
      ipv4Number(first) <= ipv4Number(last)
    )
      add({ type: 'range', first, last });
  });
  take(CIDR_RE, (m) => {
    const address = m[1] ?? '';
    const prefix = Number(m[2]);
    if (ipaddr.isValid(address)) {
      const max = ipaddr.parse(address).kind() === 'ipv4' ? 32 : 128;
      if (prefix <= max) add({ type: 'cidr', address: ipaddr.parse(address).toString(), prefix });
    }
  });
  // Wildcards and patterns are read by the same reader as hosts, with the path they carry.
  take(WILDCARD_RE, (m) => {
    const domain = asciiName(m[1] ?? '');
    if (isHost(`x.${domain}`)) nameTargets(`*.${domain}`, m[2] ?? '').forEach(add);
  });
  take(PATTERN_RE, (m) => {
    const name = m[1] ?? '';
    if (name.includes('*') && /[\p{L}\p{N}]/u.test(name.replace(/\*/g, '')))
      nameTargets(name, m[2] ?? '').forEach(add);
  });
  take(IPV4_RE, (m) => {
    if (ipaddr.IPv4.isValidFourPartDecimal(m[0])) add({ type: 'ip', address: m[0] });
  });
  take(IPV6_RE, (m) => {
    const address = m[1] ?? '';
    if (address.includes('::') || address.split(':').length === 8)
      if (ipaddr.IPv6.isValid(address))
        add({ type: 'ip', address: ipaddr.parse(address).toString() });
  });
  take(HOST_PATH_RE, (m) => {
    const host = asciiName(m[1] ?? '');
    if (APP_FIRST.test(host)) return;
    if (isHost(host)) nameTargets(host, m[2] ?? '').forEach(add);
  });
  take(HOST_RE, (m) => {
    const host = asciiName(m[1] ?? '');
    // Reverse-DNS ids (`com.squareup.cash`) are apps: no host name starts with `com.`.
    // An id ends with the app's name, a host with its domain: `net.geo.opera.com` is a host.
    if (
      APP_FIRST.test(host) &&
      (host.split('.').length >= 3 || !isHost(host)) &&
      !(APP_FIRST.test(`${host.split('.').pop() ?? ''}.`) && isHost(host))
    )
      add({ type: 'app', id: host });
    else if (isHost(host)) {
      add({ type: 'host', host });
      const bucket = bucketOf('', host, '');
      if (bucket) add({ type: 'bucket', name: bucket });
    }
    // Not a host, shaped as a package id (`nl.speakap.speakap`, `de.bmw.connected.row`).
    else if (/^[a-z]{2,6}(?:\.[a-z_][\w]*){2,}$/.test(host)) add({ type: 'app', id: host });
  });
  return out;
}

/**
 * A scope line that names no target but claims some (`Any asset owned by Acme`, `All other
 * subdomains`, `Other` as HackerOne's asset type): it may cover an asset no target names.
 */
const CATCH_ALL =
  /\b(?:any|all|every)\b.*\b(?:owned|operated|domains?|subdomains?|hosts?|assets?|properties|services|websites?|applications?)\b|\b(?:owned|operated) by\b|\b(?:subsidiar\w*|acquisitions?|affiliates?)\b/i;
/**
 * Words by which a line carves something out of itself: `*.x.com except staging`, `www.x.com
 * unless…`. Such a line does not settle an asset alone. (`v2 only`, `read-only` narrow a line
 * without making it unclear.)
 */
const QUALIFIED_WORDS =
  /\b(?:except|exceptions?|excluding|excludes?|unless|but not(?! limited)|not including|apart from|outside|not under|not part of|not in(?! scope)|that (?:has|have) no|included in (?:the )?scope)\b/i;

/** Whether a line qualifies itself, judged on its words, not its names (`exceptions.x.fr`). */
function qualified(text: string): boolean {
  return QUALIFIED_WORDS.test(text.replace(/\S*\.\S*/g, ' '));
}

/** A line that names a path, matched by a bare host: it names a part of that host. */
function partOfHost(rule: ScopeTarget, asset: ScopeTarget): boolean {
  const path = rule.type === 'url' ? rule.path : rule.type === 'pattern' ? rule.pattern : '';
  return path.includes('/') && asset.type !== 'url';
}

export function parseScope(scope: string, exclusions: string): ScopeRules {
  const read = (markdown: string): ScopeLine[] =>
    markdown
      .split(/\r?\n/)
      .map((line) => ({ text: cleanLine(line), targets: extractTargets(line) }));
  const inScope = read(scope);
  return {
    scope: inScope.filter((line) => line.targets.length > 0),
    exclusions: read(exclusions).filter((line) => line.targets.length > 0),
    unclear: inScope.filter((line) => line.targets.length === 0 && CATCH_ALL.test(line.text)),
  };
}

/** How specifically `rule` covers `asset` (0: not at all); the more specific line wins. */
export function specificity(rule: ScopeTarget, asset: ScopeTarget): number {
  // An address typed alone is the host of a URL that names it (`http://169.254.169.254/`).
  const hostOf = (t: ScopeTarget): string | null =>
    t.type === 'host' || t.type === 'url' ? t.host : t.type === 'ip' ? t.address : null;
  const assetHost = hostOf(asset);
  switch (rule.type) {
    case 'host':
      return assetHost === rule.host ? 100 : 0;
    case 'url':
      if (assetHost !== rule.host) return 0;
      if (!rule.path) return 100;
      // A bare host typed as the asset: the line names a part of it; the hint shows which.
      // A URL says its page: the host's root is not the listed path.
      if (asset.type !== 'url') return 50;
      return pathCovers(rule.path, asset.path) ? 100 + rule.path.length : 0;
    case 'pattern': {
      const [name = '', ...rest] = rule.pattern.split('/');
      const prefix = rest.length ? `/${rest.join('/')}` : '';
      // As specific as a wildcard over the same literal labels, and more than one over fewer:
      // `ads*.example.com` (3) is narrower than `*.example.com` (2), and an exclusion so written
      // is never outweighed by the wider scope line.
      const weight = 10 + name.split('.').filter((l) => l !== '*').length;
      // The line itself typed as the asset (`api-*.x.com`) is what it covers.
      if (asset.type === 'pattern') return asset.pattern === rule.pattern ? weight : 0;
      const host = assetHost ?? (asset.type === 'wildcard' ? `x.${asset.domain}` : null);
      if (!host || !patternMatches(name, host)) return 0;
      // A URL says its page: with a listed path, another page (the root too) is not covered.
      // With a path, as specific as a URL with that path: `*x.com/blog` outweighs `www.x.com`.
      if (prefix && asset.type === 'url')
        return pathCovers(prefix, asset.path) ? 100 + prefix.length : 0;
      return weight;
    }
    case 'wildcard': {
      const host = assetHost ?? (asset.type === 'wildcard' ? `x.${asset.domain}` : null);
      return host?.endsWith(`.${rule.domain}`) ? 10 + rule.domain.split('.').length : 0;
    }
    case 'ip':
    case 'cidr': {
      // A range typed as the asset is covered when it lies inside the listed range.
      const address = asset.type === 'ip' || asset.type === 'cidr' ? asset.address : assetHost;
      if (!address || !ipaddr.isValid(address)) return 0;
      const ip = ipaddr.parse(address);
      const width = asset.type === 'cidr' ? asset.prefix : ip.kind() === 'ipv4' ? 32 : 128;
      if (rule.type === 'ip')
        return ip.toString() === ipaddr.parse(rule.address).toString() &&
          width === (ip.kind() === 'ipv4' ? 32 : 128)
          ? 100
          : 0;
      const range = ipaddr.parse(rule.address);
      return ip.kind() === range.kind() && width >= rule.prefix && ip.match(range, rule.prefix)
        ? 1 + rule.prefix / 10
        : 0;
    }
    case 'range': {
      const address = asset.type === 'ip' ? asset.address : assetHost;
      if (!address || !ipaddr.IPv4.isValidFourPartDecimal(address)) return 0;
      const n = ipv4Number(address);
      const [first, last] = [ipv4Number(rule.first), ipv4Number(rule.last)];
      // As a CIDR of the same size would score: a narrower range is more specific.
      return n >= first && n <= last ? 1 + (32 - Math.log2(last - first + 1)) / 10 : 0;
    }
    case 'app':
      return asset.type === 'app' && asset.id === rule.id ? 100 : 0;
    case 'bucket':
      return asset.type === 'bucket' && asset.name === rule.name ? 100 : 0;
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
  // An asset that is exactly an app id the program lists is that app (`com.pinterest`), and so
  // is an App Store id alone (`id1405353949`): nothing else is written that way.
  const bare = asset.trim().toLowerCase();
  const appStore = /^(?:id)?(\d{6,})$/.exec(bare);
  const listedApp = [...rules.scope, ...rules.exclusions].some((l) =>
    l.targets.some((t) => t.type === 'app' && t.id === bare),
  );
  const targets: ScopeTarget[] = appStore
    ? [appleId(appStore[1] ?? '')]
    : listedApp
      ? [{ type: 'app', id: bare }]
      : extractTargets(asset);
  if (targets.length === 0 || rules.scope.length + rules.exclusions.length === 0)
    return { status: 'unknown' };
  let inScope: ScopeMatch | null = null;
  let unsure: ScopeMatch | null = null;
  for (const target of targets) {
    const included = best(rules.scope, target);
    // `Other subdomains of x.com` does not exclude a host a scope line lists.
    const found =
      best(
        rules.exclusions.filter((l) => !qualified(l.text)),
        target,
      ) ?? best(rules.exclusions, target);
    const excluded = found && included && OTHERS.test(found.line.text) ? null : found;
    if (excluded && partOfHost(excluded.target, target))
      unsure ??= {
        status: 'unsure',
        line: excluded.line.text,
        reason: 'the exclusion names a path on this host',
      };
    else if (excluded && included && PARTIAL.test(excluded.line.text))
      unsure ??= {
        status: 'unsure',
        line: excluded.line.text,
        reason: `the exclusion names a part of what the scope line "${included.line.text}" lists`,
      };
    else if (excluded && (!included || excluded.score >= included.score)) {
      // An exclusion that qualifies itself (`www.x.com: only for DoS`) is not a plain "no".
      if (qualified(excluded.line.text))
        return {
          status: 'unsure',
          line: excluded.line.text,
          reason: 'the exclusion qualifies itself',
        };
      return { status: 'excluded', line: excluded.line.text, target: excluded.target };
    }
    // An exclusion matches too, and a narrower scope line: a carve-out the policy may mean
    // (`*.x.com` excluded, `api.x.com` listed) or a contradiction (`www.x.com` listed,
    // `www.x.*` excluded). Either way an excluded host is never simply "in scope".
    else if (included && excluded)
      unsure ??= {
        status: 'unsure',
        line: excluded.line.text,
        reason: `an exclusion covers it, and so does the narrower scope line "${included.line.text}"`,
      };
    else if (included && qualified(included.line.text))
      unsure ??= {
        status: 'unsure',
        line: included.line.text,
        reason: 'the line qualifies itself',
      };
    else if (included && !inScope)
      inScope = { status: 'in-scope', line: included.line.text, target: included.target };
  }
  // Any exclusion that might apply outweighs any in-scope answer.
  if (unsure) return unsure;
  if (inScope) return inScope;
  const unclear = rules.unclear?.[0];
  if (unclear)
    return {
      status: 'unsure',
      line: unclear.text,
      reason: 'a line names no host, yet may cover it',
    };
  return rules.scope.length > 0 ? { status: 'out-of-scope' } : { status: 'unknown' };
}

/**
 * The scope guard: targets read from a program's `scope` and `exclusions`
 * Markdown (hosts, wildcard domains, URLs, IP addresses and ranges, mobile app ids), and what the
 * asset a researcher types matches. Scope text is prose, so the answer is a hint, never a block.
 * Host names are checked against the public suffix list (tldts), IP ranges with ipaddr.js.
 */
import { extractTargets } from './extract';
import { specificity } from './specificity';
import { appleId, cleanLine } from './target-syntax';
import type { ScopeLine, ScopeMatch, ScopeRules, ScopeTarget } from './types';

export type { ScopeLine, ScopeMatch, ScopeRules, ScopeTarget } from './types';
export { asciiName } from './names';
export { extractTargets, specificity };

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

import ipaddr from 'ipaddr.js';
import { pathCovers, patternMatches } from './names';
import { ipv4Number } from './target-syntax';
import type { ScopeTarget } from './types';

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

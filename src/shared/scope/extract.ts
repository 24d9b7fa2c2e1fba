import ipaddr from 'ipaddr.js';
import { asciiName, bucketOf, isHost, nameTargets, urlTargets } from './names';
import {
  ALTERNATION_RE,
  APP_FIRST,
  APP_ID_RE,
  APP_WORDS,
  APPLE_ID_RE,
  appleId,
  BARE_APPLE_ID_RE,
  CIDR_RE,
  cleanLine,
  HOST_PATH_RE,
  HOST_RE,
  IP_RANGE_RE,
  IPV4_RE,
  IPV6_RE,
  ipv4Number,
  NAME_PLACEHOLDER,
  NUMBER_PLACEHOLDER,
  ONLY_APPLE_ID_RE,
  PATTERN_RE,
  PLAY_ID_RE,
  SIBLING_TLDS_RE,
  SUBDOMAINS_OF,
  URL_RE,
  WILDCARD_RE,
} from './target-syntax';
import type { ScopeTarget } from './types';

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

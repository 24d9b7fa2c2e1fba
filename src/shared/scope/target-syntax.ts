/**
 * How programs write targets in scope prose: the patterns that find hosts, wildcards, URLs, IP
 * addresses and ranges and app ids, and the clean-up of a Markdown line for display.
 */
import type { ScopeTarget } from './types';

export const URL_RE = /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>()[\]`'"|]+/gi;
/** One label of a name, in Unicode (IDN) or ASCII. */
const LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?`;
/** A path after a name written without a scheme (`*.x.com/shop/*`). */
const PATH = String.raw`(\/(?:\[[\w-]{1,30}\]|[^\s<>()[\]\x60'"|,])*)?`;
export const WILDCARD_RE = new RegExp(
  String.raw`(?<![\p{L}\p{N}.*-])\*\.((?:${LABEL}\.)+[\p{L}\p{N}-]{2,63})\.?(?![\p{L}\p{N}*-]|\.[\p{L}\p{N}*])${PATH}`,
  'giu',
);
/** A name with `*` inside a label or after the domain: `vcc-*.8x8.com`, `*x.com`, `*.x.*`. */
export const PATTERN_RE = new RegExp(
  String.raw`(?<![\p{L}\p{N}.*/@-])(?=[\p{L}\p{N}.-]*\*)((?:[\p{L}\p{N}*-]+\.)+[\p{L}\p{N}*-]+)(?![\p{L}\p{N}*-]|\.[\p{L}\p{N}*])${PATH}`,
  'giu',
);
/** A host with a path and no scheme, as programs list them: `eu.fs.viq.zebra.com/public-api`. */
export const HOST_PATH_RE = new RegExp(
  String.raw`(?<![\p{L}\p{N}.*@\/:-])((?:${LABEL}\.)+\p{L}[\p{L}\p{N}-]{1,62})\.?(?::\d{1,5})?(\/(?:\[[\w-]{1,30}\]|[^\s<>()[\]\x60'"|,])*)`,
  'giu',
);
/** Reverse-DNS ids that start with these are app ids, not hosts (`com.squareup.cash`). */
export const APP_FIRST = /^(?:com|org|net|io)\./;
export const CIDR_RE =
  /(?<![\w.:])((?:\d{1,3}\.){3}\d{1,3}|[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7})\/(\d{1,3})(?![\w.])/gi;
export const IPV4_RE = /(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.]|\/\d)/g;
export const IPV6_RE = /(?<![\w.:])\[?((?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4})\]?(?![\w.:]|\/\d)/gi;
export const HOST_RE = new RegExp(
  String.raw`(?<![\p{L}\p{N}_.*@\/-])((?:${LABEL}\.)+\p{L}[\p{L}\p{N}-]{1,62})\.?(?![\p{L}\p{N}_-]|\.[\p{L}\p{N}])`,
  'giu',
);
/** A store listing names the app: Google Play's `id=` and the App Store's `id123456789`. */
export const PLAY_ID_RE =
  /play\.google\.com\/store\/apps\/details\?(?:[^\s#]*&)?id=([a-z][\w]*(?:\.[a-z][\w]*)+)/gi;
export const APPLE_ID_RE = /(?:apps|itunes)\.apple\.com\/[^\s]*?\/?(id\d{6,})/gi;
/** A bare App Store id, when the line says it is an app; `1018340690` is `id1018340690`. */
export const BARE_APPLE_ID_RE = /(?<![\w/.-])(?:id)?(\d{8,11})(?![\w.-])/gi;
/** A line (or an asset) that is an App Store id and nothing else: `1018340690`, `id1018340690`. */
export const ONLY_APPLE_ID_RE = /^\s*(?:id)?(\d{8,11})\s*$/i;

/** The one spelling of an App Store id every reader compares: `id` and the digits. */
export function appleId(digits: string): ScopeTarget {
  return { type: 'app', id: `id${digits}` };
}
/** Words that make a line about an app; `app.circle.com` is a host, not such a word. */
export const APP_WORDS =
  /(?<![\w.-])(app|apps|android|ios|ipados|iphone|ipad|bundle|package|apk|ipa|mobile)(?![\w.-])/i;
/** Reverse-DNS app ids start with a top-level domain; these are the usual ones. */
export const APP_ID_RE =
  /(?<![\w.-])((?:com|org|net|io|de|uk|fr|co|app|me|tv|ch|nl|se|jp|in|br|au|ca|dev)\.[a-z][\w-]*(?:\.[a-z][\w-]*)+)(?![\w-])/gi;

/** `ov-XX.x.ch`, `bugcrowd-pam-###.x.com`: a run of `X` or `#` after a hyphen is a number. */
export const NUMBER_PLACEHOLDER = /(?<=[\p{L}\p{N}]-)(?:X{2,}|#{2,})(?=[.-])/gu;
/** `*.doctolib.(fr|de|it)`: one name per alternative. */
export const ALTERNATION_RE =
  /([\p{L}\p{N}*.-]*)\(([\p{L}\p{N}-]+(?:\|[\p{L}\p{N}-]+)+)\)([\p{L}\p{N}.-]*)/gu;
/** `community.x.com | .fr | .de`: the same name under other top-level domains. */
export const SIBLING_TLDS_RE =
  /([\p{L}\p{N}*-]+(?:\.[\p{L}\p{N}*-]+)*\.)([a-z]{2,})((?:\s*\|\s*\.[a-z]{2,}\b)+)/gu;
/** `Other subdomains of x.com`, `All subdomains on x.com`: the wildcard `*.x.com`. */
export const SUBDOMAINS_OF =
  /\bsub-?domains?\s+(?:of|on|under)\s+(?:the\s+)?(?:domains?\s+)?(?=[\p{L}\p{N}])/giu;
/** Two IPv4 addresses joined by a hyphen, or the last number of the second alone. */
export const IP_RANGE_RE =
  /(?<![\w.])((?:\d{1,3}\.){3}\d{1,3})\s*[-–]\s*((?:\d{1,3}\.){3}\d{1,3}|\d{1,3})(?![\w.]|\/\d)/g;

export function ipv4Number(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

export const NAME_PLACEHOLDER =
  /(?<=[\p{L}\p{N}-]\.?)(?:%\w{1,30}%|<[\w-]{1,30}>|\[\.?[\w-]{1,30}\.?\]|\([\w*-]{1,30}\))(?=[\p{L}\p{N}.-]|$|\s|\/)/gu;

export function cleanLine(line: string): string {
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

/**
 * Values that stand for a secret without being one: what researchers write when they show where
 * a credential goes (`<your-token>`, `REDACTED`, `XXXXXXXX`, `***`, `…`, `${API_KEY}`), or a
 * value of one repeated character. A finding whose whole value is one of these is dropped; so is
 * a cookie list whose every value is.
 */
const SCHEME = /^(?:Bearer|Basic|Digest|Token)\s+/i;
const SHAPES = [
  /^<[^<>]*>$/, // <your-token>
  /^\[[^[\]]*\]$/, // [token]
  /^\{\{[^{}]*\}\}$/, // {{token}}
  /^\{[^{}]*\}$/, // {PASS}
  /^\$\([^()]*\)$/, // $(PGPASSWORD)
  /^(?:(?:my|proxy|your)?password|secret|token|changeme|dummy)$/i,
  /^replace[-_ ]?(?:with|me)/i,
  /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/, // $TOKEN, ${TOKEN}
  /^%[A-Za-z_][A-Za-z0-9_]*%$/, // %TOKEN%
  /redacted|\bremoved\b|\bhidden\b|\bomitted\b/i,
  /^[xX*•._…-]+$/, // XXXX, ***, …, x.x.x
  // your-token, YOUR_API_KEY, myApiKey: words, so not a random key that happens to begin with "my"
  /^(?=.{0,32}$)(?:your|my|insert|enter|paste)(?:[-_ ]?[A-Za-z]+)*$/i,
  /^\(.*\)$/, // (your cookie here)
  /^\S*(?:\.{3}|…)\S*$/, // eyJhbGciOiJIUzI1NiIs...: an example cut short
];

/** The body of a PEM block (`-----BEGIN …-----\n...\n-----END …-----`), escaped or not. */
function pemBody(value: string): string {
  return value.replace(/-----(?:BEGIN|END)[^-]*-----/g, '').replace(/\\n|\s/g, '');
}

function placeholderValue(value: string): boolean {
  const v = (value.includes('-----BEGIN') ? pemBody(value) : value)
    .trim()
    .replace(SCHEME, '')
    .trim();
  if (v === '') return true;
  if (SHAPES.some((shape) => shape.test(v))) return true;
  const chars = v.replace(/[^A-Za-z0-9]/g, '');
  return new Set(chars.toLowerCase()).size <= 1;
}

/** A cookie value in an example (`name=Daniel`): a short plain word. */
const SHORT_WORD = /^[A-Za-z]{1,7}$/;

/** `a=<x>; b=REDACTED`, `name=Jane`: a cookie list is a placeholder when every value is. */
export function isPlaceholder(value: string): boolean {
  if (placeholderValue(value)) return true;
  const pairs = value.split(/;\s*/).filter(Boolean);
  if (pairs.length === 0 || !pairs.every((p) => /^[^=\s]+=[^=]/.test(p))) return false;
  return pairs.every((p) => {
    const v = p.slice(p.indexOf('=') + 1);
    return placeholderValue(v) || SHORT_WORD.test(v);
  });
}

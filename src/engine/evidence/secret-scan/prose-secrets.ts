/**
 * A credential quoted in a sentence: "the API key `3f9c…` still works", "password - 'hunter2x'".
 * Rule sets find a key by its vendor prefix or by an assignment (`api_key = …`); a report names
 * the credential in words and quotes the value, so neither holds. Here the words name it: a value
 * in the same sentence after a credential word, shaped like a secret (no spaces, letters and
 * digits, high entropy) and no placeholder, path, URL, version or cut-off example.
 */
import { genericValueAllowed, shannonEntropy } from './gitleaks';
import { isPlaceholder } from './placeholders';

/** Words that name a credential, as researchers write them. */
const WORD = String.raw`(?:leaked|exposed|api[ _-]?keys?|keys?|tokens?|secrets?|passwords?|passwd|passphrase|pwd|credentials?|bearer|auth(?:orization)?|access[ _-]?keys?|client[ _-]?secrets?|webhooks?|signing[ _-]?keys?|private[ _-]?keys?|pat|dsn|connection[ _-]?strings?)`;
/**
 * The credential word, then up to 80 characters of the same sentence (no `.`, `!`, `?` or line
 * break before a space), then the value: in backticks, quotes, or bare.
 */
const QUOTED = new RegExp(
  String.raw`\b${WORD}\b(?:[^.!?\n\x60'"]|[.!?](?!\s|$)){0,80}?(?:\x60([^\x60\s]{8,1000})\x60|'([^'\s]{8,1000})'|"([^"\s]{8,1000})")`,
  'gi',
);
/** A bare value ends before the sentence's full stop or colon (walk 19: Redact took the stop). */
const BARE = new RegExp(
  String.raw`\b${WORD}\b(?:[^.!?\n\x60'"]|[.!?](?!\s|$)){0,40}?(?<=\s|[=:]\s?)([A-Za-z0-9_+/=~.:-]{16,1000})(?<![.:])(?=[\s),;]|[.!?:]?(?:\s|$))`,
  'gi',
);
const PASSWORD_WORD = /pass|pwd/i;
/** The credential words but "leaked" and "exposed", which say what happened, not what it is. */
const NAMING_WORD = new RegExp(String.raw`\b(?!leaked\b|exposed\b)${WORD}\b`, 'g');
/** "password `x`", "password: 'x'", "password is \"x\"": a quoted value named outright. */
const NAMED_OUTRIGHT = /(?:pass\w*|pwd)\W{0,3}(?:(?:is|was|of|=)\W{0,3})?$/i;
const REDACTED_BEFORE = /REDACTED:[\w-]*$/;

/** Not a secret, though shaped like a value: URLs, paths, names, versions, cut examples. */
function notSecret(value: string, outright: boolean): boolean {
  return (
    /:\/\/|^\/|^~\/|\\/.test(value) || // URL, path
    /\.{3}|…/.test(value) || // `eyJhbGciOiJIUzI1NiIs...`: an example cut short
    /^[\w-]+(?:\.[\w-]+)*\.(?:js|ts|json|ya?ml|txt|md|html?|php|py|rb|go|java|xml|env|pem|key|ppk|png|jpe?g|zip)$/i.test(
      value,
    ) || // a file name
    /^[a-z][a-z-]*(?:\.[a-z][a-z0-9-]*)+$/.test(value) || // com.example.app, a host name
    /^[^@\s]+@[\w-]+(?:\.[\w-]+)+$/.test(value) || // an e-mail address
    /^v?\d+(?:\.\d+)+(?:[-+][\w.]+)?$/.test(value) || // a version
    /^[A-Z]+(?:_[A-Z0-9]+)+$|^[A-Z]+$/.test(value) || // AN_ENV_VAR_NAME
    /^[a-z]+(?:[A-Z][a-z]+)+$/.test(value) || // camelCaseName
    /^(?:[a-z]+[_-])+[a-z]+$/i.test(value) || // snake_or-kebab-words
    wordy(value) || // secretlint-rule-secp256k1-privatekey: a name
    /^[a-z_]+=[a-z_]+$/i.test(value) || // grant_type=authorization_code
    /^[-+]{1,2}[a-z]/i.test(value) || // a command-line option
    isPlaceholder(value) ||
    // gitleaks lets a value of letters alone pass as no key; a password named outright is one.
    (!outright && genericValueAllowed(value))
  );
}

/** Lower-case parts joined by `-` or `_`, half of them words: a package or slug, not a key. */
function wordy(value: string): boolean {
  if (!/^[a-z0-9]+(?:[-_][a-z0-9]+)+$/.test(value)) return false;
  const parts = value.split(/[-_]/);
  // `rubygems_6gbx…`, `live_0979…`: a word, then a long run of letters and digits.
  if (parts.some((p) => p.length >= 12 && /\d/.test(p) && /[a-z]/.test(p))) return false;
  return parts.filter((p) => /^[a-z]{4,}$/.test(p)).length * 2 >= parts.length;
}

function secretShaped(value: string, password: boolean, outright = false): boolean {
  if (notSecret(value, outright)) return false;
  const letters = /[A-Za-z]/.test(value);
  const digits = /\d/.test(value);
  // A password may be letters alone (`whiteduke`) when the sentence names it outright.
  if (password)
    return value.length >= 8 && letters && (outright || digits || /[^A-Za-z]/.test(value));
  // Twenty digits and more is a key too (an account token); shorter, a number.
  if (!letters) return /^\d{20,}$/.test(value);
  return digits && value.length >= 10;
}

export interface ProseHit {
  start: number;
  end: number;
  /** The credential word that names it, lower case (`api key`, `password`). */
  word: string;
}

export function proseSecretScan(text: string): ProseHit[] {
  const hits: ProseHit[] = [];
  const take = (re: RegExp, minEntropy: number, quoted: boolean): void => {
    for (const m of text.matchAll(re)) {
      const groups = m.slice(1);
      const value = groups.find((g) => g !== undefined) ?? '';
      if (value === '') continue;
      // The word inside our own `[REDACTED:api-key]`. Checked here on a bounded slice: a
      // look-behind of `[\w-]*` in the pattern ran back over every long run at every position.
      if (REDACTED_BEFORE.test(text.slice(Math.max(0, m.index - 64), m.index))) continue;
      const before = m[0].slice(0, m[0].lastIndexOf(value));
      // "the leaked secret in field “password” `x`": the last word that names it names its kind.
      const word = [...before.toLowerCase().matchAll(NAMING_WORD)].at(-1)?.[0] ?? 'credential';
      const password = PASSWORD_WORD.test(word);
      const outright = quoted && NAMED_OUTRIGHT.test(before.replace(/[\x60'"]$/, ''));
      if (!secretShaped(value, password, outright)) continue;
      if (!password && shannonEntropy(value) < minEntropy) continue;
      const start = m.index + m[0].lastIndexOf(value);
      hits.push({ start, end: start + value.length, word });
    }
  };
  take(QUOTED, 3, true);
  // A bare value needs more to go on: a longer run (BARE asks 16 characters and more).
  take(BARE, 3, false);
  return hits;
}

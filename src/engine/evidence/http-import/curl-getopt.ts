/**
 * The words after `curl`, read as curl's own getopt reads them (its option table is
 * curl-options.ts): long and grouped short options, attached and separate values.
 */
import { CURL_FLAG_OPTIONS, CURL_SHORT_OPTIONS, CURL_VALUE_OPTIONS } from './curl-options';
import { HttpEvidenceError } from './model';

const TAKES_VALUE = new Set(CURL_VALUE_OPTIONS);
const FLAGS = new Set(CURL_FLAG_OPTIONS);
const ALL_LONG = [...CURL_VALUE_OPTIONS, ...CURL_FLAG_OPTIONS].sort();

/**
 * A long option's name as curl resolves it: the exact name, `--no-<flag>`, or, as curl 7.x to
 * 8.4 read it (tool_getparam.c, the `aliases[]` loop with `curl_strnequal`), a prefix that only
 * one option starts with (`--sil` is `--silent`; not after `--no-`). A prefix several options share is refused
 * with curl's own reason, "is ambiguous".
 */
function longOption(
  typed: string,
  word: string,
  place: string,
): { name: string; negated: boolean } {
  if (TAKES_VALUE.has(typed) || FLAGS.has(typed)) return { name: typed, negated: false };
  const negated = typed.startsWith('no-');
  const base = negated ? typed.slice(3) : typed;
  if (negated && FLAGS.has(base)) return { name: base, negated };
  // curl compares the prefix over the length of the word typed, `no-` included: after `--no-`
  // only a whole name matches.
  const hits = negated ? [] : ALL_LONG.filter((n) => n.startsWith(base));
  if (base !== '' && hits.length === 1 && hits[0]) return { name: hits[0], negated };
  if (base !== '' && hits.length > 1) {
    const shown = hits.slice(0, 6).map((n) => `--${n}`);
    const more = hits.length > shown.length ? ` and ${hits.length - shown.length} more` : '';
    throw new HttpEvidenceError(
      `curl option ${word} is ambiguous (${place}): it is the start of ${shown.join(', ')}${more}`,
    );
  }
  throw new HttpEvidenceError(`curl does not know the option ${word} (${place})`);
}

/** One option as curl reads it: its long name and its value. */
export interface CurlOption {
  name: string;
  value: string;
  /** `--expand-<name>`: the value's `{{variables}}` are expanded. */
  expand?: boolean;
}

/** The words after `curl`, as curl's own getopt reads them (its option table, curl-options.ts). */
export function readOptions(args: string[]): { options: CurlOption[]; urls: string[] } {
  const options: CurlOption[] = [];
  const urls: string[] = [];
  let endOfOptions = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    const place = `word ${i + 2}`;
    if (endOfOptions || !word.startsWith('-') || word === '-') {
      urls.push(word);
      continue;
    }
    if (word === '--') {
      endOfOptions = true;
      continue;
    }
    if (word.startsWith('--')) {
      // `--name value`, `--name=value`, `--no-flag`; `--expand-name` expands {{variables}}.
      const expand = word.startsWith('--expand-');
      let name = word.slice(expand ? 9 : 2);
      const eq = name.indexOf('=');
      const attached = eq === -1 ? null : name.slice(eq + 1);
      if (eq !== -1) name = name.slice(0, eq);
      const long = longOption(name, word, place);
      name = long.name;
      if (TAKES_VALUE.has(name)) {
        if (attached === null && i + 1 >= args.length)
          throw new HttpEvidenceError(`curl option ${word} needs a value (${place})`);
        options.push({ name, value: attached ?? args[++i] ?? '', ...(expand ? { expand } : {}) });
        continue;
      }
      options.push({ name, value: long.negated ? 'no' : 'yes' });
      continue;
    }
    // Short options: letters may be grouped (-sSL); a letter that takes a value ends the group,
    // its value being the rest of the word or else the next word (-XPOST, -X POST).
    for (let j = 1; j < word.length; j++) {
      const letter = word[j] ?? '';
      const name = CURL_SHORT_OPTIONS[letter];
      if (!name) throw new HttpEvidenceError(`curl does not know the option -${letter} (${place})`);
      if (!TAKES_VALUE.has(name)) {
        options.push({ name, value: 'yes' });
        continue;
      }
      const rest = word.slice(j + 1);
      if (rest === '' && i + 1 >= args.length)
        throw new HttpEvidenceError(`curl option -${letter} needs a value (${place})`);
      options.push({ name, value: rest !== '' ? rest : (args[++i] ?? '') });
      break;
    }
  }
  return { options, urls };
}

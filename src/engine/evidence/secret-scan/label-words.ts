/**
 * How the rule sets' own texts write a vendor's or a term's name (GitHub, OpenAI, API, PyPI),
 * so that a label made from a rule id reads as they do: `github-token` is a "GitHub token", not
 * a "Github token" (a walk). Taken from gitleaks' descriptions and Nosey Parker's names: only
 * words cased beyond their first letter, which a plain capital would get wrong.
 */
import gitleaks from './gitleaks-rules.json';
import noseyparker from './noseyparker-rules.json';

const texts = [
  ...gitleaks.rules.map((r) => r.description),
  ...noseyparker.rules.map((r) => r.name),
];

const CASED = new Map<string, string>();
for (const text of texts) {
  for (const word of text.match(/[A-Za-z0-9]+/g) ?? []) {
    if (/[A-Z]/.test(word.slice(1)) && !CASED.has(word.toLowerCase())) {
      CASED.set(word.toLowerCase(), word);
    }
  }
}

/** `github` → `GitHub`, `api` → `API`; any other word as given. */
export function casedWord(word: string): string {
  return CASED.get(word.toLowerCase()) ?? word;
}

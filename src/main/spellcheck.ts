/**
 * The spell checker (on in the window: the description editor and the reply box): where its
 * dictionaries come from and which languages it checks. Electron-free, so it is unit-tested;
 * index.ts hands it the session and the OS's languages.
 */

/**
 * Where Chromium's Hunspell dictionaries (`.bdic`) come from on Windows and Linux: Google's
 * Chromium dictionary server, Electron's default, set explicitly so the one source the app allows
 * (security.ts) is the one it uses. macOS checks with the OS's own checker and downloads nothing.
 */
export const DICTIONARY_BASE_URL = 'https://redirector.gvt1.com/edgedl/chrome/dict/';

/** A dictionary download from `DICTIONARY_BASE_URL`, the one network request main lets through. */
export function isDictionaryDownload(raw: string): boolean {
  try {
    const url = new URL(raw);
    const base = new URL(DICTIONARY_BASE_URL);
    return (
      url.protocol === base.protocol &&
      url.host === base.host &&
      url.pathname.startsWith(base.pathname) &&
      /^[a-z0-9_-]+\.bdic$/i.test(url.pathname.slice(base.pathname.length)) &&
      !url.search &&
      !url.username &&
      !url.password
    );
  } catch {
    return false;
  }
}

/** More languages, more dictionaries downloaded and more words accepted by mistake. */
const MAX_LANGUAGES = 3;

/**
 * The spell checker's languages: the OS's preferred languages (`app.getPreferredSystemLanguages`,
 * in the user's order) that Chromium has a dictionary for, matched exactly (`en-GB`) or by language
 * (`de-AT` → `de-DE`); US English when none has one (reports are read in English).
 */
export function spellCheckerLanguages(
  preferred: readonly string[],
  available: readonly string[],
): string[] {
  const byCode = new Map(available.map((a) => [a.toLowerCase(), a]));
  const chosen: string[] = [];
  for (const wanted of preferred) {
    const code = wanted.toLowerCase().replace(/_/g, '-');
    const language = code.split('-')[0] ?? code;
    const match =
      byCode.get(code) ??
      byCode.get(language) ??
      available.find((a) => a.toLowerCase().split('-')[0] === language);
    if (match && !chosen.includes(match)) chosen.push(match);
    if (chosen.length === MAX_LANGUAGES) break;
  }
  if (chosen.length === 0) {
    const english = byCode.get('en-us') ?? available.find((a) => /^en\b/i.test(a));
    if (english) chosen.push(english);
  }
  return chosen;
}

/** What `setUpSpellChecker` needs of Electron's `Session`. */
export interface SpellCheckerSession {
  readonly availableSpellCheckerLanguages: string[];
  setSpellCheckerLanguages(languages: string[]): void;
  setSpellCheckerDictionaryDownloadURL(url: string): void;
}

/**
 * Windows and Linux: the dictionaries' source and the OS's languages. macOS: nothing (the OS
 * checker follows the OS's languages itself; both calls are no-ops there). Returns the languages set.
 */
export function setUpSpellChecker(
  session: SpellCheckerSession,
  preferred: readonly string[],
  platform: NodeJS.Platform,
): string[] {
  if (platform === 'darwin') return [];
  session.setSpellCheckerDictionaryDownloadURL(DICTIONARY_BASE_URL);
  const languages = spellCheckerLanguages(preferred, session.availableSpellCheckerLanguages);
  if (languages.length > 0) session.setSpellCheckerLanguages(languages);
  return languages;
}

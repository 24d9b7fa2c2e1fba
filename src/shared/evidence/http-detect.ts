/**
 * Which pasted or dropped text is HTTP evidence the app can turn into a code block: a HAR file,
 * a Burp Suite XML export ("Save items"), a curl command (POSIX shells or Windows cmd), a
 * PowerShell `Invoke-WebRequest` copy, or a raw request (with its response). The editor asks
 * before a paste; the engine parses. Cheap checks on the start of the text only.
 */
export type HttpEvidenceFormat = 'har' | 'burp' | 'curl' | 'powershell' | 'raw';

/**
 * A request line: any method token (WebDAV's PROPFIND, a lowercase `get` sent on purpose), an
 * origin-form, absolute-form, authority-form or `*` target, HTTP/0.9 to HTTP/3.
 */
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32} \S+ HTTP\/\d(?:\.\d)?\r?$/;
const HEADER_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+:/;

/** A shell line that may come before a curl command in a pasted script. */
const SCRIPT_LINE = /^(?:#.*|set\s+-\S+.*|export\s+\w+=.*|[A-Za-z_]\w*=\S*|\s*)$/;
const CURL_LINE =
  /^\s*(?:\$\s+)?(?:[A-Za-z_]\w*=\S*\s+)*(?:(?:echo|printf|cat)\s[^|\n]*\|\s*)?curl(?:\.exe)?\s/;

/**
 * A pasted script whose first command is curl: comment and `#!` lines, `set -e`, variable
 * assignments before it, or `echo … | curl`. Prose that mentions curl is not a script.
 */
function isCurlScript(head: string): boolean {
  const lines = head.split(/\r?\n/);
  for (const line of lines.slice(0, 40)) {
    if (CURL_LINE.test(line)) return true;
    if (!SCRIPT_LINE.test(line)) return false;
  }
  return false;
}

export function detectHttpEvidence(text: string): HttpEvidenceFormat | null {
  const head = text
    .slice(0, 4096)
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (head.startsWith('{') && /"log"\s*:/.test(head) && /"entries"|"creator"|"version"/.test(head))
    return 'har';
  // "Save items" (requests) and Scanner "Report issues" (findings) exports alike: the reader
  // says which it is, so neither is attached unnamed.
  if (
    /^<(\?xml|!DOCTYPE (?:items|issues)|items|issues)\b/.test(head) &&
    /<(?:items|issues)\b[^>]*burpVersion/.test(head)
  )
    return 'burp';
  if (/^(?:\$\s+|PS [^>\n]*>\s*|>\s*)?curl(?:\.exe)?\s/i.test(head)) return 'curl';
  if (isCurlScript(head)) return 'curl';
  if (
    /^(?:\$session\s*=\s*New-Object\s+Microsoft\.PowerShell|Invoke-(?:WebRequest|RestMethod)\b|iwr\s)/i.test(
      head,
    )
  )
    return 'powershell';
  const [first = '', second = ''] = head.split('\n', 3);
  // A request line alone, or followed by a header: a sentence ending in "HTTP/1.1" is not one.
  if (REQUEST_LINE.test(first) && (second.trim() === '' || HEADER_LINE.test(second))) return 'raw';
  return null;
}

/**
 * File names whose drop is tried as HTTP evidence first (else they are attached as they are). Not
 * `.txt` or scripts: a researcher who drops `poc.txt` attaches a file (the request text can be
 * pasted to become a code block).
 */
export function mayBeHttpEvidenceFile(name: string): boolean {
  return /\.(har|xml|http|curl|req)$/i.test(name);
}

/**
 * Why a dropped file with an evidence name (`.har`, `.xml`…) is attached as a file instead of
 * read: every such file is named, never attached silently. Null when the app reads it.
 */
export function unreadEvidenceNote(
  name: string,
  text: string | null,
  mixed: boolean,
): string | null {
  if (!mayBeHttpEvidenceFile(name)) return null;
  if (text === null)
    return `"${name}" is too large to read as HTTP evidence: it is attached as a file.`;
  const format = detectHttpEvidence(text);
  if (format && !mixed) return null;
  if (format)
    return `"${name}" was dropped with other files: it is attached as a file, not read as HTTP evidence (drop it alone to read it).`;
  const head = text
    .slice(0, 4096)
    .replace(/^\uFEFF/, '')
    .trimStart();
  const what = head.startsWith('{')
    ? 'JSON without a HAR log.entries list'
    : head.startsWith('<')
      ? 'XML that is not a Burp Suite export'
      : 'not a HAR, Burp export, curl command or HTTP request';
  return `"${name}" is ${what}: it is attached as a file, not read as HTTP evidence.`;
}

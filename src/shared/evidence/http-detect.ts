/**
 * Which pasted or dropped text is HTTP evidence the app can turn into a code block: a HAR file,
 * a Burp Suite XML export ("Save items"), a curl command, or a raw request (with its response).
 * The editor asks before a paste; the engine parses. Cheap checks on the start of the text only.
 */
export type HttpEvidenceFormat = 'har' | 'burp' | 'curl' | 'raw';

const METHODS = 'GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|CONNECT';
const REQUEST_LINE = new RegExp(`^(?:${METHODS}) \\S+ HTTP/\\d(?:\\.\\d)?\\r?$`, 'm');
const FIRST_LINE = new RegExp(`^(?:${METHODS}) \\S+ HTTP/\\d(?:\\.\\d)?\\s*$`);

export function detectHttpEvidence(text: string): HttpEvidenceFormat | null {
  const head = text
    .slice(0, 4096)
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (head.startsWith('{') && /"log"\s*:/.test(head) && /"entries"|"creator"|"version"/.test(head))
    return 'har';
  if (/^<(\?xml|!DOCTYPE items|items)\b/.test(head) && /<items\b[^>]*burpVersion/.test(head))
    return 'burp';
  if (/^(?:\$\s+)?curl\s/.test(head)) return 'curl';
  const firstLine = head.split('\n', 1)[0] ?? '';
  if (FIRST_LINE.test(firstLine) && REQUEST_LINE.test(head)) return 'raw';
  return null;
}

/** File names whose drop is tried as HTTP evidence first (else they are attached as they are). */
export function mayBeHttpEvidenceFile(name: string): boolean {
  return /\.(har|xml|http|curl|req)$/i.test(name);
}

/**
 * Which evidence files the credential scan reads: text formats where a researcher's own session
 * ends up (logs, HTTP captures, exports). Binary files are not scanned; neither are text files
 * above the size limit, which the scan names as "not scanned" instead of passing silently.
 */
export const TEXT_EVIDENCE_EXTENSIONS = [
  'txt',
  'log',
  'json',
  'har',
  'xml',
  'http',
  'csv',
  'md',
  'html',
  'htm',
] as const;

/** 2 MiB: a HAR of a long session stays scannable in well under a second. */
export const SCAN_LIMIT_BYTES = 2 * 1024 * 1024;

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export function isTextEvidence(name: string): boolean {
  return (TEXT_EVIDENCE_EXTENSIONS as readonly string[]).includes(extensionOf(name));
}

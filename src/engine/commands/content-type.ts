import { lookup } from 'mime-types';

/**
 * Evidence formats the media-type database does not name (the server keeps whatever type the
 * client sends, so these only have to be sensible for the program's team).
 */
const EVIDENCE_TYPES: Record<string, string> = {
  har: 'application/json',
  http: 'text/plain',
};

/** The `Content-Type` an evidence file is uploaded with, from its name. */
export function contentTypeFor(name: string): string {
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  return EVIDENCE_TYPES[extension] ?? (lookup(name) || 'application/octet-stream');
}

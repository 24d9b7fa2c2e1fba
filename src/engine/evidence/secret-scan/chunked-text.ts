/** Plain text of any length scanned in chunks: bounded work per step, progress between steps. */
import { scanText, type SecretFinding } from './scan';
import type { FileScanOptions } from './file-scan-types';

/** 512 KiB of text per rules pass: bounded work per step, progress between steps. */
export const CHUNK = 512 * 1024;
/** A private key block is kept whole even across a chunk's end (up to this much more). */
const BLOCK_SLACK = 64 * 1024;

/** Chunk boundaries: at a line break, never inside a `-----BEGIN … -----END` block. */
export function chunkBounds(text: string, size = CHUNK): [number, number][] {
  const bounds: [number, number][] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      const nl = text.indexOf('\n', end);
      end = nl === -1 ? text.length : nl + 1;
      const begin = text.lastIndexOf('-----BEGIN', end);
      if (begin >= start && text.lastIndexOf('-----END', end) < begin) {
        const close = text.indexOf('-----END', end);
        if (close !== -1 && close - end < BLOCK_SLACK) {
          const nl2 = text.indexOf('\n', close);
          end = nl2 === -1 ? text.length : nl2 + 1;
        }
      }
    }
    bounds.push([start, end]);
    start = end;
  }
  return bounds;
}

export async function scanLargeText(
  text: string,
  options: FileScanOptions,
): Promise<SecretFinding[]> {
  const out: SecretFinding[] = [];
  let line = 1;
  let lineAt = 0;
  const bounds = chunkBounds(text);
  for (const [start, end] of bounds) {
    for (let i = text.indexOf('\n', lineAt); i !== -1 && i < start; i = text.indexOf('\n', i + 1))
      line += 1;
    lineAt = start;
    for (const f of await scanText(text.slice(start, end), options)) {
      out.push({ ...f, start: f.start + start, end: f.end + start, line: f.line + line - 1 });
    }
    options.onProgress?.(end, text.length);
  }
  return out;
}

/** The findings whose fingerprint the researcher chose. */
export function pickFindings(
  findings: readonly SecretFinding[],
  fingerprints: ReadonlySet<string>,
): SecretFinding[] {
  return findings.filter((f) => fingerprints.has(f.fingerprint));
}

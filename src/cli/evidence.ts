import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { detectHttpEvidence, mayBeHttpEvidenceFile } from '@shared/evidence/http-detect';
import type { EngineLink } from './engine-link';
import { safeText, say, type Io } from './terminal';

/** The upload limit the window uses too: a larger capture is attached as a file, not read. */
const MAX_HTTP_TEXT_BYTES = 10 * 1024 * 1024;

export interface Attached {
  file: string;
  /** 'file': an evidence file (metadata removed, scanned); 'http': a code block in the description. */
  as: 'file' | 'http';
  format?: string;
  redacted?: number;
  problem?: string;
}

/**
 * Attaches files the way the window does with a drop: HTTP evidence (a HAR, a Burp export, a
 * curl command, a raw request) becomes the code block the window makes, credentials redacted;
 * anything else goes through the engine's evidence path (image metadata removed, the credential
 * scan, the size and count limits). The command never reads a file's bytes for anything else.
 */
export async function attachEvidence(
  link: EngineLink,
  io: Io,
  reportId: string,
  files: readonly string[],
): Promise<Attached[]> {
  const done: Attached[] = [];
  for (const given of files) {
    const path = resolve(io.cwd, given);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) throw new Error(`Cannot attach ${given}: no such file.`);
    const name = basename(path);
    if (mayBeHttpEvidenceFile(name) && info.size <= MAX_HTTP_TEXT_BYTES) {
      const text = await readFile(path, 'utf8');
      if (detectHttpEvidence(text)) {
        const result = await link.calls.importHttpEvidence(reportId, { text, name });
        if (result.imported) {
          const item: Attached = { file: given, as: 'http', redacted: result.redacted ?? 0 };
          if (result.format) item.format = result.format;
          if (result.error) {
            item.problem = result.error;
            say(
              io,
              `${given}: could not be read (${safeText(result.error)}); kept as ${result.kept ?? 'text'}.`,
            );
          }
          done.push(item);
          continue;
        }
      }
    }
    await link.calls.attachFiles(reportId, [{ path }]);
    done.push({ file: given, as: 'file' });
  }
  return done;
}

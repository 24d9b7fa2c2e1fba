import { createReadStream, createWriteStream, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  scanFileAt,
  WHOLE_STRUCTURED_BYTES,
} from '../../src/engine/evidence/secret-scan/file-scan';
import { scanText } from '../../src/engine/evidence/secret-scan/scan';
import {
  OVERLAP_CHARS,
  redactTextFile,
  scanTextFile,
  WINDOW_CHARS,
} from '../../src/engine/evidence/secret-scan/stream-scan';
import { vendorShapes } from '../support/fake-secrets';
import { tempDirPerFile } from '../support/temp-dirs';

/**
 * No size limit. A text file larger than what is read whole is scanned in overlapping
 * windows; a secret across a window's edge, or a read's edge, is found as in a whole read.
 */
const work = tempDirPerFile('bounty-desk-stream-');

const shapes = vendorShapes();
const shape = (kind: string): string => {
  const found = shapes.find((s) => s.kind === kind);
  if (!found) throw new Error(kind);
  return found.secret;
};

/** Whether `needle` occurs in the file, read in pieces (the file is never held whole). */
async function fileContains(path: string, needle: string): Promise<boolean> {
  let tail = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const text = tail + (chunk as string);
    if (text.includes(needle)) return true;
    tail = text.slice(-needle.length);
  }
  return false;
}

describe('streaming credential scan', () => {
  it('finds what a whole read finds, with windows small enough to cut every text', async () => {
    const secrets = shapes.filter((s) => !s.secret.includes('\n')).slice(0, 12);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(fc.constantFrom(...secrets), fc.integer({ min: 0, max: 3000 }), fc.boolean()),
          { minLength: 1, maxLength: 6 },
        ),
        async (plan) => {
          // Filler with and without line breaks, so a window ends inside a line too.
          const text = plan
            .map(([s, gap, lines]) => `${(lines ? 'word \n' : 'x ').repeat(gap)}${s.line}\n`)
            .join('');
          const path = join(work, `prop-${run++}.txt`);
          writeFileSync(path, text);
          const streamed = await scanTextFile(path, { windowChars: 2048, overlapChars: 1024 });
          const whole = await scanText(text);
          const shapeOf = (f: { kind: string; start: number; end: number; line: number }) =>
            `${f.kind} ${f.start}-${f.end} line ${f.line}`;
          expect(streamed.map(shapeOf)).toEqual(whole.map(shapeOf));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('scans a 200 MB file with secrets across window and read edges and near the end, and redacts it', async () => {
    const path = join(work, 'large.log');
    const out = createWriteStream(path);
    const write = (s: string): Promise<void> =>
      new Promise((resolve) => (out.write(s) ? resolve() : out.once('drain', resolve)));
    const blank = `${' '.repeat(4095)}\n`; // sparse: nothing any rule looks at
    const planted: { secret: string; at: number }[] = [];
    let size = 0;
    const put = async (s: string): Promise<void> => {
      await write(s);
      size += Buffer.byteLength(s);
    };
    // One long line (no break) across the first window's end and a 256 KiB read's end, so the
    // window must end inside the line: the secrets there straddle those edges.
    await put(blank.repeat(200));
    const longLineStart = size;
    const edges = [4 * 256 * 1024, WINDOW_CHARS + OVERLAP_CHARS];
    const long: string[] = [];
    let pos = longLineStart;
    for (const [i, edge] of edges.entries()) {
      const secret = i === 0 ? shape('slack-app-token') : shape('sentry-org-token');
      const start = edge - Math.floor(secret.length / 2);
      long.push('y'.repeat(start - 1 - pos), ' ', secret, ' ');
      planted.push({ secret, at: start });
      pos = start + secret.length + 1;
    }
    long.push('y'.repeat(longLineStart + 300_000 - pos), '\n');
    await put(long.join(''));
    while (size < 200 * 1024 * 1024) await put(blank);
    const last = `Then use the key: ${shape('atlassian-api-token')}\n`;
    planted.push({ secret: shape('atlassian-api-token'), at: size + last.indexOf('ATA') });
    await put(last);
    await put(blank.repeat(3));
    out.end();
    await finished(out);
    expect(statSync(path).size).toBeGreaterThan(WHOLE_STRUCTURED_BYTES);

    const progress: number[] = [];
    const scan = await scanFileAt(path, { onProgress: (done) => progress.push(done) });
    const found = scan.findings.map((f) => f.start);
    console.log(
      `200 MB file: ${planted.filter((p) => found.includes(p.at)).length}/${planted.length} planted secrets found (${scan.findings.length} findings, ${progress.length} progress steps)`,
    );
    expect(scan.format).toBe('text');
    expect(found).toEqual(planted.map((p) => p.at));
    expect(progress.at(-1)).toBe(statSync(path).size);

    const redacted = join(work, 'large.redacted.log');
    const fingerprints = new Set(scan.findings.map((f) => f.fingerprint));
    await scan.redactToFile?.(fingerprints, redacted);
    for (const p of planted) expect(await fileContains(redacted, p.secret)).toBe(false);
    expect(await fileContains(redacted, '[REDACTED:')).toBe(true);
    const marks = scan.findings.reduce(
      (n, f) => n + `[REDACTED:${f.kind}]`.length - (f.end - f.start),
      0,
    );
    expect(statSync(redacted).size).toBe(statSync(path).size + marks);
  }, 240_000);

  it('keeps a UTF-16 file UTF-16 when it redacts it in a stream', async () => {
    const secret = shape('slack-app-token');
    const text = `héllo\nthe token: ${secret}\nbye ✓\n`;
    const path = join(work, 'utf16.txt');
    writeFileSync(path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const findings = await scanTextFile(path);
    expect(findings.map((f) => f.line)).toEqual([2]);
    const out = join(work, 'utf16.redacted.txt');
    await redactTextFile(path, findings, out);
    const bytes = await import('node:fs/promises').then((fs) => fs.readFile(out));
    expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    expect(bytes.subarray(2).toString('utf16le')).toBe(
      `héllo\nthe token: [REDACTED:${findings[0]?.kind ?? ''}]\nbye ✓\n`,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { randomBytes } from '../support/random';
import { existsSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useTempStore } from './fixtures';

const t = useTempStore();

function sourceFile(name: string, bytes: Buffer): string {
  const path = join(t.dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** A text file of `reportId` added to the store from a source file named `name`. */
function addText(
  reportId: string,
  fileId: string,
  name: string,
  bytes: Buffer | string,
  purpose?: 'message',
) {
  return t.store.evidence.add({
    reportId,
    fileId,
    name,
    contentType: 'text/plain',
    ...(purpose ? { purpose } : {}),
    sourcePath: sourceFile(name, typeof bytes === 'string' ? Buffer.from(bytes) : bytes),
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('evidence', () => {
  it('stores a file under evidence/<aa>/<sha256> with the hash node:crypto computes', async () => {
    // Larger than one stream chunk (64 KiB), so hashing really happens across chunks.
    const bytes = randomBytes(300_000);
    const blob = await t.store.evidence.importFile(sourceFile('poc.bin', bytes));
    expect(blob.sha256).toBe(sha256(bytes));
    expect(blob.size).toBe(bytes.length);
    expect(blob.path).toBe(join(t.dir, 'evidence', blob.sha256.slice(0, 2), blob.sha256));
    expect(readFileSync(blob.path).equals(bytes)).toBe(true);
    // No temporary file is left behind.
    expect(readdirSync(join(t.dir, 'evidence', 'tmp'))).toEqual([]);
  });

  it('dedupes identical content from different sources and reports', async () => {
    const bytes = Buffer.from('same evidence');
    const a = await addText('R1', 'f1', 'a.txt', bytes);
    const b = await addText('R2', 'f2', 'b.txt', bytes);
    expect(a.sha256).toBe(b.sha256);
    const shard = join(t.dir, 'evidence', a.sha256.slice(0, 2));
    expect(readdirSync(shard)).toEqual([a.sha256]);
    const blobs = t.store.db.sqlite.prepare('SELECT count(*) AS n FROM evidence_blobs').get() as {
      n: number;
    };
    expect(blobs.n).toBe(1);
  });

  it('tracks state and progress; pending uploads of a report exclude uploaded ones', async () => {
    const { evidence } = t.store;
    const add = (fileId: string, text: string) => addText('R1', fileId, `${fileId}.txt`, text);
    await add('f1', 'one');
    await add('f2', 'two two');
    await addText('R2', 'f3', 'x', 'other report', 'message');
    expect(evidence.get('f1')).toMatchObject({ state: 'queued', uploadedBytes: 0, size: 3 });
    evidence.setState('f2', 'uploading');
    evidence.setProgress('f2', 4);
    expect(evidence.get('f2')).toMatchObject({ state: 'uploading', uploadedBytes: 4 });
    evidence.setProgress('f2', 10_000);
    expect(evidence.get('f2')?.uploadedBytes).toBe(7);
    evidence.setState('f1', 'uploaded');
    expect(evidence.get('f1')?.uploadedBytes).toBe(3);
    expect(evidence.listPending('R1').map((f) => f.fileId)).toEqual(['f2']);
    expect(evidence.listForReport('R2')).toMatchObject([{ fileId: 'f3', purpose: 'message' }]);
    evidence.setState('f2', 'failed');
    evidence.setState('f2', 'queued');
    expect(evidence.get('f2')?.uploadedBytes).toBe(0);
    t.reopen();
    expect(t.store.evidence.listPending('R1').map((f) => f.fileId)).toEqual(['f2']);
  });

  it('rejects an unknown state and a duplicate file id', async () => {
    const input = {
      reportId: 'R1',
      fileId: 'f1',
      name: 'a',
      contentType: 'text/plain',
      sourcePath: sourceFile('a', Buffer.from('a')),
    };
    await t.store.evidence.add(input);
    await expect(t.store.evidence.add(input)).rejects.toThrow(/UNIQUE/);
    expect(() => t.store.evidence.setState('f1', 'done' as never)).toThrow(/CHECK/);
  });

  it('fails cleanly for a missing source and leaves no temporary file', async () => {
    await expect(t.store.evidence.importFile(join(t.dir, 'missing'))).rejects.toThrow(/ENOENT/);
    expect(readdirSync(join(t.dir, 'evidence', 'tmp'))).toEqual([]);
  });

  it('collects files no report links to, after the grace period', async () => {
    const { evidence } = t.store;
    const kept = await addText('R1', 'f1', 'a', 'kept');
    const dropped = await addText('R1', 'f2', 'b', 'dropped');
    evidence.remove('f2');
    expect(await evidence.collectGarbage()).toBe(0);
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(evidence.blobPath(dropped.sha256), old, old);
    expect(await evidence.collectGarbage()).toBe(1);
    expect(existsSync(evidence.blobPath(dropped.sha256))).toBe(false);
    expect(existsSync(evidence.blobPath(kept.sha256))).toBe(true);
  });

  it('refuses a path built from something that is not a sha256', () => {
    expect(() => t.store.evidence.blobPath('../../etc/passwd')).toThrow(/sha256/);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';

/**
 * A test's temporary folders: the function returned makes one under the OS temp folder (named
 * `prefix` and a random tail); every folder a test made is removed after it.
 */
export function tempDirsPerTest(): (prefix: string) => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async (prefix) => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}

/** One temporary folder for the whole test file (`prefix` and a random tail), removed after it. */
export function tempDirPerFile(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

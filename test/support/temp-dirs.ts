import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach } from 'vitest';

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

/**
 * A new temporary folder for each test (`prefix` and a random tail) and the path of a file `name`
 * in it, removed after the test. Read `dir` and `file` inside a test: they change with each one.
 */
export function tempFileEachTest(
  prefix: string,
  name: string,
): { readonly dir: string; readonly file: string } {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  return {
    get dir() {
      return dir;
    },
    get file() {
      return join(dir, name);
    },
  };
}

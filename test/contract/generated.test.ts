import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DTS_PATH,
  JSON_PATH,
  YAML_PATH,
  apiPaths,
  generateApi,
  parseApiYaml,
  runCli,
  staleFiles,
} from '../../scripts/generate-api';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

describe('generated files', () => {
  it('openapi.json and schema.d.ts match the YAML source (run `npm run generate:api`)', async () => {
    const generated = await generateApi();
    expect(await readFile(JSON_PATH, 'utf8')).toBe(generated.json);
    expect(await readFile(DTS_PATH, 'utf8')).toBe(generated.dts);
    expect(await staleFiles(generated)).toEqual([]);
  });

  it('writes 2-space JSON with a trailing newline', async () => {
    const { json } = await generateApi();
    expect(json.endsWith('}\n')).toBe(true);
    expect(json.split('\n')[1]).toMatch(/^ {2}"openapi": "3\.1\.0",$/);
  });

  it('notices a YAML change that was not regenerated', async () => {
    const yaml = await readFile(YAML_PATH, 'utf8');
    const changed = yaml.replace('summary: Read one report', 'summary: Read one report (changed)');
    expect(changed).not.toBe(yaml);
    expect(await staleFiles(await generateApi(changed))).toEqual([JSON_PATH, DTS_PATH]);
  });

  it('refuses duplicate keys in the YAML', () => {
    expect(() => parseApiYaml('openapi: 3.1.0\ninfo: {}\ninfo: {}\n')).toThrow();
  });
});

describe('generate:api command line', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });

  async function copyOfContract(): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'generate-api-'));
    dirs.push(dir);
    for (const file of [YAML_PATH, JSON_PATH, DTS_PATH]) {
      await copyFile(file, path.join(dir, path.basename(file)));
    }
    return dir;
  }

  function capture() {
    const lines: { out: string[]; err: string[] } = { out: [], err: [] };
    return {
      lines,
      io: { out: (l: string) => lines.out.push(l), err: (l: string) => lines.err.push(l) },
    };
  }

  it('--check passes on fresh files, fails with a clear message after a YAML edit, and passes once regenerated', async () => {
    const dir = await copyOfContract();
    const paths = apiPaths(dir);
    const fresh = capture();
    expect(await runCli(['--check', '--dir', dir], fresh.io)).toBe(0);

    const yaml = await readFile(paths.yaml, 'utf8');
    await writeFile(paths.yaml, yaml.replace("version: '1'", "version: '2'"));
    const stale = capture();
    expect(await runCli(['--check', '--dir', dir], stale.io)).toBe(1);
    expect(stale.lines.err.join('\n')).toMatch(/stale generated file\(s\): .*openapi\.json/);
    expect(stale.lines.err.join('\n')).toMatch(/npm run generate:api/);

    expect(await runCli(['--dir', dir], capture().io)).toBe(0);
    expect(JSON.parse(await readFile(paths.json, 'utf8')).info.version).toBe('2');
    expect(await runCli(['--check', '--dir', dir], capture().io)).toBe(0);
  });

  it('exits 1 from the real process when a generated file is stale', async () => {
    const dir = await copyOfContract();
    await writeFile(apiPaths(dir).dts, '// edited by hand\n');
    const args = ['--import', 'tsx', 'scripts/generate-api.ts', '--check', '--dir', dir];
    const result = await run(process.execPath, args, { cwd: ROOT }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('schema.d.ts');
  });
});

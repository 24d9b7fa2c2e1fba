import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  DTS_PATH,
  JSON_PATH,
  YAML_PATH,
  generateApi,
  parseApiYaml,
  staleFiles,
} from '../../scripts/generate-api';

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

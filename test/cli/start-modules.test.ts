import { fork, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FromEngine, ToEngine } from '../../src/engine/host/protocol';
import { buildApp, ROOT } from '../app/build';
import { tempDirsPerTest } from '../support/temp-dirs';
import { CLI } from './run-cli';

/**
 * What the built command and its own engine load before they answer (the start the bench times,
 * `npm run bench -- cli`): Node's module hooks record every module either process loads. The
 * packages only some commands or calls need must not be among them.
 */
const tempDir = tempDirsPerTest();

/** Writes a module hook that appends each loaded URL to `log`; answers the `--import` argument. */
function recorder(dir: string, log: string): string {
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(log)}, url + '\\n');
  return next(url, context);
}\n`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  return pathToFileURL(register).href;
}

function packagesIn(log: string): string[] {
  const names = readFileSync(log, 'utf8')
    .split('\n')
    .map((url) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
    .filter((name): name is string => name !== undefined);
  return [...new Set(names)].sort();
}

beforeAll(async () => {
  await buildApp();
}, 300_000);

describe('what the command loads before its first answer', () => {
  it('the command itself loads no package from node_modules (YAML, the CVSS calculator load on use)', async () => {
    const dir = await tempDir('bd-cli-loads-');
    const log = join(dir, 'loads.txt');
    writeFileSync(log, '');
    const run = spawnSync(process.execPath, ['--import', recorder(dir, log), CLI, 'status'], {
      cwd: ROOT,
      env: { ...process.env, BOUNTYDESK_USER_DATA: join(dir, 'user-data') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stdout).toMatch(/^Account: +not signed in$/m);
    const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    console.log(`bountydesk status loaded ${loaded.length} modules in its own process`);
    expect(loaded.some((url) => url.endsWith('/out/main/cli.js'))).toBe(true);
    expect(packagesIn(log)).toEqual([]);
  }, 90_000);

  it('its engine starts without secretlint, YAML, the XML parser or Ajv', async () => {
    const dir = await tempDir('bd-engine-loads-');
    const log = join(dir, 'loads.txt');
    writeFileSync(log, '');
    const engine = fork(join(ROOT, 'out', 'main', 'engine.js'), [], {
      execArgv: ['--import', recorder(dir, log)],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const answers: FromEngine[] = [];
    engine.on('message', (m) => answers.push(m as FromEngine));
    engine.send({ type: 'init', options: { dataDir: join(dir, 'data') } } satisfies ToEngine);
    engine.send({ type: 'call', id: 1, name: 'getStatus', args: [] } satisfies ToEngine);
    await expect
      .poll(() => answers.some((m) => m.type === 'result' && m.id === 1), { timeout: 60_000 })
      .toBe(true);
    engine.send({ type: 'close' } satisfies ToEngine);
    await new Promise((resolve) => engine.on('exit', resolve));
    const packages = packagesIn(log);
    console.log(`the engine loaded ${packages.length} packages: ${packages.join(', ')}`);
    // The SQLite binding is what every start needs; the others load on first use.
    expect(packages).toContain('better-sqlite3');
    for (const onUse of ['@secretlint/core', 'yaml', 'fast-xml-parser', 'ajv']) {
      expect(packages).not.toContain(onUse);
    }
  }, 90_000);
});
